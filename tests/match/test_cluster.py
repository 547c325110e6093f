"""The match layer on a real Redis Cluster: a match is one slot, buckets spread over the
primaries, and a primary that fails mid-match loses no acknowledged move (commits wait for a
replica: ``KING_WAIT_REPLICAS``)."""

from __future__ import annotations

import time
import uuid
from collections import Counter

import pytest
from redis.crc import key_slot

from king_match import MatchError, MatchSettings, MatchStore, Player, connect
from king_match.keys import Keys
from king_match.store import fallback_move

pytestmark = pytest.mark.integration

SEED = "cd" * 32
PLAYERS = [Player(f"c-{n}", n) for n in ("ada", "bora", "cem", "deniz")]


def live_match(store: MatchStore) -> str:
    record = store.create_table(PLAYERS[0], mode="live", hands=8)
    for player in PLAYERS:
        store.join(record.match_id, player, client_seed=SEED)
    return record.match_id


def answered(call):
    """``call()``'s answer, asked again (as a client would) while the cluster fails over."""
    for _ in range(100):
        try:
            return call()
        except MatchError as exc:
            if exc.code != "busy":
                raise
        except Exception as exc:  # redis-py's errors while the slot map changes
            if "Cluster" not in type(exc).__name__ and "Connection" not in type(exc).__name__:
                raise
        time.sleep(0.2)
    raise AssertionError("never answered")


def move_once(store: MatchStore, match_id: str, key: str) -> int:
    """The mover's move, sent as a client would: the same request (same move, version and
    Idempotency-Key) again until it is answered; its new version."""
    record, state = answered(lambda: store.load(match_id))
    seat = record.player_to_act(state)
    assert state is not None and seat is not None
    move = fallback_move(state, seat, key)
    result = answered(
        lambda: store.play(
            match_id, PLAYERS[seat], move, expected_version=record.version, idempotency_key=key
        )
    )
    return result.version


def test_every_key_of_a_match_is_in_its_buckets_slot(redis_cluster_url):
    client = connect(MatchSettings(redis_url=redis_cluster_url, cluster=True))
    prefix = f"k{uuid.uuid4().hex[:6]}:"
    store = MatchStore(client, MatchSettings(key_prefix=prefix))
    match_id = live_match(store)
    move_once(store, match_id, "m1")
    found = client.keys(f"{prefix}*", target_nodes=client.PRIMARIES)
    mine = [key for key in found if match_id.encode() in key]
    assert len(mine) >= 3  # the hash, its moves and its log
    keys = store.keys
    slots = {key_slot(key) for key in mine}
    slots |= {key_slot(keys.deadlines(match_id).encode()), key_slot(keys.lobby(match_id).encode())}
    slots.add(key_slot(keys.rate(match_id, "someone", 1000, 0).encode()))
    slots.add(key_slot(keys.channel(match_id).encode()))
    assert len(slots) == 1
    client.close()


def test_matches_spread_over_the_primaries(redis_cluster_url):
    client = connect(MatchSettings(redis_url=redis_cluster_url, cluster=True))
    keys = Keys("s:", 256)
    primaries = Counter(
        client.get_node_from_key(keys.match(str(uuid.uuid4()))).name for _ in range(3000)
    )
    assert len(primaries) == 3
    assert max(primaries.values()) / 3000 <= 0.40
    client.close()


def test_a_failed_primary_loses_no_acknowledged_move():
    from king_devservers.cluster import start_cluster

    # Two replicas a primary: after a failover the new primary still has one to wait for.
    cluster = start_cluster(primaries=3, replicas=2)
    try:
        client = connect(MatchSettings(redis_url=cluster.url, cluster=True))
        settings = MatchSettings(key_prefix="f:", wait_replicas=1, wait_ms=2000)
        store = MatchStore(client, settings)
        match_id = live_match(store)
        acked = [move_once(store, match_id, f"m{n}") for n in range(6)]
        # Stop the primary that holds the match (a crash: no goodbye to its replica).
        primary = client.get_node_from_key(store.keys.match(match_id))
        victim = next(n for n in cluster.primaries if n.url.endswith(f":{primary.port}/0"))
        assert victim.process is not None
        victim.process.kill()
        victim.process.wait()
        acked += [move_once(store, match_id, f"m{n}") for n in range(6, 12)]
        record, _ = store.load(match_id)
        assert acked == list(range(acked[0], acked[0] + 12))  # each move answered once, in turn
        assert record.version == acked[-1]
        assert len(store.moves(match_id)) == 12  # one byte a move: none lost, none twice
        client.close()
    finally:
        cluster.stop()
