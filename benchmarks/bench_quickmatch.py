"""Quick-match simulation: 2,000 players join one pool over five minutes (simulated time).

The pairing is the product's own (``king_match.quickmatch``: the Lua pass on a private
redis-server, tables created and confirmed through the match store); only the clock is
simulated, one step a second. Each step the players who arrived join, every waiting player's
client answers (``status``), a few waiters give up (``leave``), one pairing pass runs (the
service runs one per waiting player's poll: at least one a second), and the players of a found
table confirm with their seed after a reaction time of 1-6 s, except a few who never answer,
whose tables go back to the pool at the deadline (15 s).

Ratings: the rating service's Elo (``king_rating.elo``) run on 1,000 players with hidden skill
and the moderate luck of ``bench_rating`` for 40 rounds gives the rated population's
distribution; 80 % of the players are drawn from it, 20 % are new (1500).

* ``quickmatch.wait_median_s`` / ``wait_p95_s`` - from first join to the match started;
* ``quickmatch.spread_median_elo`` / ``spread_p95_elo`` - highest minus lowest rating at a
  started match;
* ``quickmatch.pass_ms_per_join`` - the wall time of every pairing pass (script and table
  creation) divided by the joins; ``quickmatch.pass_ms_median`` - one pass;
* ``quickmatch.players_in_two_matches`` - must be 0; ``quickmatch.matches`` and
  ``quickmatch.tables_not_confirmed``.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import time
import uuid
from collections import Counter

PLAYERS = 2000
ARRIVAL_S = 300
NEW_PLAYERS = 0.2
LEAVE_PER_S = 0.002  # a waiter gives up: about one in ten of those waiting a minute
NEVER_CONFIRMS = 0.02
REACTION_S = (1.0, 6.0)  # from "table found" on the screen to the Accept click


def emit(name: str, value: object) -> None:
    print(f"{name}: {value}", flush=True)


def rated_population(players: int = 1000, rounds: int = 40, seed: int = 3) -> list[float]:
    """Ratings the rating service's Elo gives a population after ``rounds`` matches each."""
    from benchmarks.bench_rating import MODERATE_LUCK, simulate_population

    return simulate_population(MODERATE_LUCK, players, rounds, seed)[0]


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def simulate(url: str, players: int, arrival_s: float, seed: int) -> None:
    from redis import Redis

    from king_match import MatchError, MatchSettings, MatchStore, Player
    from king_match.quickmatch import QuickMatch, QuickSettings, pool_name

    rng = random.Random(seed)
    population = rated_population()
    ratings = {
        f"p{i:04d}": 1500 if rng.random() < NEW_PLAYERS else round(rng.choice(population))
        for i in range(players)
    }
    arrivals = sorted((rng.uniform(0, arrival_s), name) for name in ratings)
    silent = {name for name in ratings if rng.random() < NEVER_CONFIRMS}
    clock = Clock()
    start = clock.now
    redis = Redis.from_url(url)
    store = MatchStore(redis, MatchSettings(key_prefix=f"b{uuid.uuid4().hex[:6]}:"), clock=clock)
    quick = QuickMatch(store, QuickSettings(), clock=clock)
    pool = pool_name("standard", 8, guest=False)
    first_join: dict[str, float] = {}
    waiting: set[str] = set()
    found: set[str] = set()
    accept_at: dict[str, float] = {}
    confirmed: dict[str, str] = {}  # player -> the table they sat at
    started_at: dict[str, float] = {}
    gave_up = 0
    pass_times: list[float] = []
    matches: list[str] = []
    joins = 0
    step = 0
    next_arrival = 0
    while next_arrival < len(arrivals) or waiting or found:
        step += 1
        clock.now = start + step
        if clock.now - start > arrival_s + 600:
            break
        while next_arrival < len(arrivals) and arrivals[next_arrival][0] <= step:
            name = arrivals[next_arrival][1]
            quick.join(name, pool, ratings[name])
            first_join[name] = clock.now
            waiting.add(name)
            joins += 1
            next_arrival += 1
        for name in sorted(waiting):
            if rng.random() < LEAVE_PER_S:
                quick.leave(name)
                waiting.discard(name)
                gave_up += 1
                continue
            quick.status(name)
        began = time.perf_counter()
        result = quick.pass_pool(pool, "standard", 8, ranked=True)
        pass_times.append(time.perf_counter() - began)
        for made in result.made:
            for name in made.players:
                waiting.discard(name)
                found.add(name)
                accept_at[name] = clock.now + rng.uniform(*REACTION_S)
        for name in sorted(found):
            state = quick.status(name)
            if state.get("state") == "waiting":  # back in the pool: a table was not confirmed
                found.discard(name)
                waiting.add(name)
                continue
            if state.get("state") == "missed":
                found.discard(name)
                continue
            if state.get("state") == "matched":
                found.discard(name)
                started_at[name] = clock.now
                matches.append(state["match"])
                continue
            if name in silent or state.get("state") != "found" or clock.now < accept_at[name]:
                continue
            if confirmed.get(name) == state["table"]:
                continue
            try:
                quick.confirm(Player(name, name), secrets.token_hex(32))
            except MatchError:
                continue
            confirmed[name] = state["table"]
        for name in list(found):
            state = quick.status(name)
            if state.get("state") == "matched":
                found.discard(name)
                started_at[name] = clock.now
                matches.append(state["match"])
    waits = [started_at[name] - first_join[name] for name in started_at]
    spreads = []
    seated: Counter[str] = Counter()
    for match_id in set(matches):
        record, _ = store.load(match_id)
        ids = record.human_ids()
        seated.update(ids)
        values = [ratings[p] for p in ids]
        spreads.append(max(values) - min(values))
    not_confirmed = sum(
        1
        for key in redis.scan_iter(match=f"{store.prefix}m:*")
        if key.count(b":") == 2
        and store.load(key.decode().rsplit(":", 1)[1])[0].end_reason == "not_confirmed"
    )
    emit("quickmatch.players", players)
    emit("quickmatch.arrival_per_s", f"{players / arrival_s:.2f}")
    emit("quickmatch.matches", len(set(matches)))
    emit("quickmatch.players_matched", len(started_at))
    emit("quickmatch.players_gave_up", gave_up)
    emit("quickmatch.players_waiting_at_end", len(waiting) + len(found))
    emit("quickmatch.wait_median_s", f"{statistics.median(waits):.1f}")
    emit("quickmatch.wait_p95_s", f"{percentile(waits, 0.95):.1f}")
    emit("quickmatch.wait_max_s", f"{max(waits):.1f}")
    emit("quickmatch.spread_median_elo", f"{statistics.median(spreads):.0f}")
    emit("quickmatch.spread_p95_elo", f"{percentile(spreads, 0.95):.0f}")
    emit("quickmatch.tables_not_confirmed", not_confirmed)
    emit("quickmatch.players_in_two_matches", sum(1 for n in seated.values() if n > 1))
    emit("quickmatch.pass_ms_median", f"{statistics.median(pass_times) * 1000:.2f}")
    emit("quickmatch.pass_ms_per_join", f"{sum(pass_times) * 1000 / max(1, joins):.2f}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_quickmatch")
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--arrival-s", type=float, default=ARRIVAL_S)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args(argv)
    from king_devservers import start_redis

    server = start_redis()
    try:
        simulate(server.url, args.players, args.arrival_s, args.seed)
    finally:
        server.stop()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
