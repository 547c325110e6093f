"""Figures the capacity plan (docs/capacity.md) needs that the other benchmarks do not give.

* ``capacity.redis_bytes_per_finished_match`` — ``MEMORY USAGE`` of a finished 8-hand live
  match's keys (record and state, moves, trimmed log, finished message with its fairness
  transcript) as they stay in Redis for ``KING_RETENTION_S``; mean over a few matches played
  to the end through the match store on a private Redis.
* ``capacity.commits_per_match`` — commits (versions) a played-out 8-hand match takes.
"""

from __future__ import annotations

import statistics

from redis import Redis

MATCHES = 5


def main(argv: list[str]) -> None:
    from king_devservers import start_redis
    from king_match import MatchSettings, MatchStore, Player
    from king_match.store import fallback_move

    server = start_redis()
    try:
        redis = Redis.from_url(server.url)
        store = MatchStore(redis, MatchSettings(key_prefix="cap:"))
        players = [Player(f"cap-{n}", f"Player {n}") for n in range(4)]
        sizes, versions = [], []
        for _ in range(MATCHES):
            record = store.create_table(players[0], mode="live", hands=8)
            for player in players:
                store.join(record.match_id, player, client_seed="ab" * 32)
            while True:
                record, state = store.load(record.match_id)
                seat = record.player_to_act(state)
                if record.ended or state is None or seat is None:
                    break
                move = fallback_move(state, seat, f"{record.version}")
                store.play(record.match_id, players[seat], move, expected_version=record.version)
            keys = list(redis.scan_iter(match=f"cap:*{record.match_id}*"))
            sizes.append(sum(int(redis.memory_usage(key, samples=0) or 0) for key in keys))
            versions.append(record.version)
        print(f"capacity.redis_bytes_per_finished_match: {statistics.fmean(sizes):.0f}")
        print(f"capacity.commits_per_match: {statistics.fmean(versions):.0f}")
        redis.close()
    finally:
        server.stop()
