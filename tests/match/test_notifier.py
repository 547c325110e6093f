"""The event notifier: one Pub/Sub connection per process wakes a match's followers and hands
them the new events from the commit's message, so keeping up costs no read of the log; a follower
behind that cache reads the log in Redis. It also carries the service's broadcasts."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from king_match import MatchStore, Player
from king_match.keys import is_cluster
from king_match.notify import EventNotifier
from king_match.store import fallback_move

pytestmark = pytest.mark.integration

SEED = "cd" * 32
PLAYERS = [Player(f"n-{n}", n) for n in ("ayla", "baran", "cansu", "doruk")]


def log_reads(redis) -> int:
    """How many times the servers have read a match's event log (a list: LRANGE)."""
    if is_cluster(redis):
        stats = redis.info("commandstats", target_nodes=redis.ALL_NODES).values()
    else:
        stats = [redis.info("commandstats")]
    return sum(int(s.get("cmdstat_lrange", {}).get("calls", 0)) for s in stats)


def started_match(store: MatchStore) -> str:
    record = store.create_table(PLAYERS[0], mode="live", hands=8)
    record, _ = store.join(record.match_id, PLAYERS[0], client_seed=SEED)
    for player in PLAYERS[1:]:
        store.join(record.match_id, player, client_seed=SEED)
    return record.match_id


def play_one(store: MatchStore, match_id: str) -> None:
    record, state = store.load(match_id)
    seat = state.current_player
    by_id = {p.player_id: p for p in PLAYERS}
    store.play(match_id, by_id[record.seats[seat].player_id], fallback_move(state, seat, "n"))


def test_a_follower_keeps_up_from_the_messages_alone(notified_store):
    redis = notified_store.redis
    store = notified_store
    match_id = started_match(store)
    after = store.load(match_id)[0].seq
    got: list[dict] = []
    ready = threading.Event()

    def follow() -> None:
        nonlocal after
        with store.following(match_id):
            ready.set()
            while len(got) < 12:
                events = store.events(match_id, after, block_ms=3000)
                if not events:
                    return
                got.extend(events)
                after = events[-1]["seq"]

    follower = threading.Thread(target=follow)
    follower.start()
    ready.wait(5)
    time.sleep(0.2)  # the follower's first read (from the log) is done and it waits
    reads_before = log_reads(redis)
    for _ in range(12):
        play_one(store, match_id)
        time.sleep(0.02)
    follower.join(10)
    truth = store.events(match_id, got[0]["seq"] - 1)
    assert got == truth[: len(got)] and len(got) >= 12
    # Every event after the first wait came from the commit messages, not from the log.
    assert log_reads(redis) - reads_before == 1  # the "truth" read above


def test_a_follower_behind_the_cache_reads_the_log(notified_store):
    store = notified_store
    match_id = started_match(store)
    with store.following(match_id):
        store.events(match_id, store.load(match_id)[0].seq, block_ms=50)
        for _ in range(5):
            play_one(store, match_id)
        time.sleep(0.2)
        from_start = store.events(match_id, 0, block_ms=1000)
    assert [e["seq"] for e in from_start] == list(range(1, len(from_start) + 1))
    assert from_start == store.events(match_id, 0)


def test_the_turn_hint_names_the_seat_to_move(notified_store):
    store = notified_store
    match_id = started_match(store)
    with store.following(match_id):
        store.events(match_id, store.load(match_id)[0].seq, block_ms=50)
        play_one(store, match_id)
        record, state = store.load(match_id)
        deadline = time.monotonic() + 3
        while store.turn_after(match_id, record.seq) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert store.turn_after(match_id, record.seq) == (state.current_player, record.version)
        assert store.turn_after(match_id, record.seq - 1) is None  # older: unknown
        # The commit's copy of the match is the match as stored.
        copied, copied_state = store.snapshot_after(match_id, record.seq)
        assert copied == record
        assert copied_state.to_bytes() == state.to_bytes()
        assert store.snapshot_after(match_id, record.seq - 1) is None


def test_broadcasts_reach_their_callback(redis):
    prefix = f"n{uuid.uuid4().hex[:8]}:"
    notifier = EventNotifier(redis, prefix)
    heard: list[str | None] = []
    notifier.on_channel(f"{prefix}revoked", heard.append)
    notifier.start()
    try:
        deadline = time.monotonic() + 5
        while not heard and time.monotonic() < deadline:
            redis.publish(f"{prefix}revoked", "abcd")
            time.sleep(0.05)
        assert heard and heard[0] == "abcd"
    finally:
        notifier.stop()


def test_a_wait_times_out_by_the_ticker_and_leaves_nothing_behind(redis):
    from king_match.notify import TICK_S

    notifier = EventNotifier(redis, f"n{uuid.uuid4().hex[:8]}:")
    try:
        with notifier.watching("quiet"):
            for timeout in (0.05, 0.3):
                started = time.monotonic()
                assert notifier.wait("quiet", 0, timeout) is False  # nothing happened
                waited = time.monotonic() - started
                assert timeout <= waited < timeout + TICK_S + 0.5
        assert notifier._sleeping == {}  # no waiter is kept after its wait
        # Waiting many at once: each wakes at its own deadline.
        woke: dict[float, float] = {}

        def waiter(timeout: float) -> None:
            with notifier.watching("quiet"):
                started = time.monotonic()
                notifier.wait("quiet", 0, timeout)
                woke[timeout] = time.monotonic() - started

        threads = [threading.Thread(target=waiter, args=(t,)) for t in (0.2, 0.6, 1.0)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(5)
        assert sorted(woke) == [0.2, 0.6, 1.0]
        assert all(t <= woke[t] < t + TICK_S + 0.5 for t in woke)
    finally:
        notifier.stop()
    # After stop the ticker is gone: a wait times itself instead of hanging.
    with notifier.watching("quiet"):
        started = time.monotonic()
        assert notifier.wait("quiet", 0, 0.2) is False
        assert time.monotonic() - started < 2


def test_reply_reader_reads_raw_replies_and_survives_a_timeout(redis_url):
    """The seam over redis-py's private connection API (``reply_reader``): the raw reply
    shapes the listener takes apart, and a socket timeout that leaves the connection and its
    subscriptions in place (``disconnect_on_error=False``)."""
    from redis import Redis
    from redis.exceptions import TimeoutError as RedisTimeoutError

    from king_match.notify import reply_reader

    client = Redis.from_url(redis_url, socket_timeout=0.3)
    prefix = f"n{uuid.uuid4().hex[:8]}:"
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        pubsub.psubscribe(f"{prefix}evn:*")
        pubsub.subscribe(f"{prefix}revoked")
        read = reply_reader(pubsub)
        assert read() == [b"psubscribe", f"{prefix}evn:*".encode(), 1]
        assert read() == [b"subscribe", f"{prefix}revoked".encode(), 2]
        with pytest.raises(RedisTimeoutError):
            read()  # nothing published within the socket timeout
        assert pubsub.connection is not None and pubsub.connection.is_connected
        client.publish(f"{prefix}evn:m1", "1 1 0 3\nbody")
        client.publish(f"{prefix}revoked", "abcd")
        assert read() == [
            b"pmessage",
            f"{prefix}evn:*".encode(),
            f"{prefix}evn:m1".encode(),
            b"1 1 0 3\nbody",
        ]
        assert read() == [b"message", f"{prefix}revoked".encode(), b"abcd"]
    finally:
        pubsub.close()
        client.close()
