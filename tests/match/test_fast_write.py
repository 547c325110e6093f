"""A move on a match this process follows is computed from the notifier's copy of the latest
commit and committed without a load first. These tests pin that such a write keeps every
promise of the ordinary path: the version check, idempotent replays, key reuse refused, the rate
counted once, refusals in their usual form, and a stale copy never applied."""

from __future__ import annotations

import time

import pytest

from king_engine import IllegalMove, parse_move
from king_match import MatchError, MatchStore, MoveRate, Player, StaleVersion
from king_match.keys import is_cluster
from king_match.store import fallback_move

pytestmark = pytest.mark.integration

SEED = "ef" * 32
PLAYERS = [Player(f"f-{n}", n) for n in ("arda", "berk", "ceren", "defne")]


@pytest.fixture
def followed(notified_store):
    """A store whose notifier runs, and a function that starts a live match it follows."""
    store = notified_store
    held = []

    def start() -> str:
        record = store.create_table(PLAYERS[0], mode="live", hands=8)
        record, _ = store.join(record.match_id, PLAYERS[0], client_seed=SEED)
        watching = store.following(record.match_id)
        watching.__enter__()
        held.append(watching)
        for player in PLAYERS[1:]:
            store.join(record.match_id, player, client_seed=SEED)
        caught_up(store, record.match_id)
        return record.match_id

    yield store, start
    for watching in held:
        watching.__exit__(None, None, None)


def caught_up(store: MatchStore, match_id: str) -> int:
    """Wait until the notifier's copy is the stored match; its version."""
    version = store.load(match_id)[0].version
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        last = store.notifier.commits.latest(match_id) if store.notifier else None
        if last is not None and last.version == version:
            return version
        time.sleep(0.005)
    raise AssertionError("the notifier never saw the latest commit")


def hmget_calls(redis) -> int:
    """How many HMGETs the servers have run (the ordinary path's load is one)."""
    if is_cluster(redis):
        stats = redis.info("commandstats", target_nodes=redis.ALL_NODES).values()
    else:
        stats = [redis.info("commandstats")]
    return sum(int(s.get("cmdstat_hmget", {}).get("calls", 0)) for s in stats)


def mover(store: MatchStore, match_id: str):
    record, state = store.load(match_id)
    seat = state.current_player
    by_id = {p.player_id: p for p in PLAYERS}
    return by_id[record.seats[seat].player_id], seat, state, record.version


def test_a_followed_match_moves_without_a_load(followed):
    store, start = followed
    redis = store.redis
    match_id = start()
    player, seat, state, version = mover(store, match_id)
    move = fallback_move(state, seat, "f")
    before = hmget_calls(redis)
    result = store.play(match_id, player, move, expected_version=version, idempotency_key="a1")
    assert hmget_calls(redis) == before  # no load: the notifier's copy was used
    assert result.version == version + 1 and not result.replayed
    record, after = store.load(match_id)
    assert record.version == version + 1
    # The committed state is the engine's answer to that move, as the ordinary path gives.
    state.apply(seat, move)
    assert after == state


def test_a_retry_replays_and_a_reused_key_is_refused(followed):
    store, start = followed
    match_id = start()
    player, seat, state, version = mover(store, match_id)
    move = fallback_move(state, seat, "f")
    first = store.play(match_id, player, move, expected_version=version, idempotency_key="k")
    caught_up(store, match_id)  # the retry finds a fresh copy: only the commit can tell
    again = store.play(match_id, player, move, expected_version=version, idempotency_key="k")
    assert again.replayed and again.to_dict() == first.to_dict()
    assert store.load(match_id)[0].version == version + 1
    with pytest.raises(MatchError) as reused:
        store.play(match_id, player, parse_move("2C"), idempotency_key="k")
    assert reused.value.code == "idempotency_key_reused"
    assert store.load(match_id)[0].version == version + 1


def test_a_refused_move_gets_its_usual_error_and_replays_it(followed):
    store, start = followed
    match_id = start()
    player, _seat, _state, version = mover(store, match_id)
    other = next(p for p in PLAYERS if p != player)
    with pytest.raises(IllegalMove) as refused:
        store.play(match_id, other, parse_move("queens"), idempotency_key="r1")
    assert refused.value.code == "not_your_turn"
    with pytest.raises(MatchError) as replay:
        store.play(match_id, other, parse_move("queens"), idempotency_key="r1")
    assert replay.value.code == "not_your_turn" and replay.value.details.get("replayed")
    assert store.load(match_id)[0].version == version


def test_the_rate_counts_each_request_once_and_refuses_past_it(followed):
    store, start = followed
    redis = store.redis
    match_id = start()
    player, seat, state, version = mover(store, match_id)
    rate = MoveRate(amount=1, window_ms=3_600_000)
    store.play(match_id, player, fallback_move(state, seat, "f"), rate=rate)
    pattern = f"{store.prefix}*rl:{player.player_id}:*"
    if is_cluster(redis):
        counters = redis.keys(pattern, target_nodes=redis.PRIMARIES)
    else:
        counters = redis.keys(pattern)
    assert len(counters) == 1 and int(redis.get(counters[0])) == 1
    # The declarer chose the contract and now leads: a second move, over the limit.
    caught_up(store, match_id)
    player2, seat2, state2, version2 = mover(store, match_id)
    assert player2 == player and version2 == version + 1
    with pytest.raises(MatchError) as limited:
        store.play(match_id, player, fallback_move(state2, seat2, "f"), rate=rate)
    assert limited.value.code == "rate_limited"
    assert store.load(match_id)[0].version == version2  # nothing applied
    assert int(redis.get(counters[0])) == 2  # the refused attempt counted, once


def test_a_stale_copy_is_never_applied(followed):
    store, start = followed
    redis = store.redis
    match_id = start()
    store.notifier.stop()  # the copy stops following the match...
    time.sleep(1.2)
    player, seat, state, version = mover(store, match_id)
    # ...and another process (no notifier) moves: the copy is now one version behind.
    other = MatchStore(redis, store.settings)
    other.play(match_id, player, fallback_move(state, seat, "f"), expected_version=version)
    assert store.notifier.commits.latest(match_id).version == version
    player2, seat2, state2, version2 = mover(store, match_id)
    # A request naming the old version is stale, as always.
    with pytest.raises(StaleVersion) as stale:
        store.play(match_id, player2, fallback_move(state2, seat2, "f"), expected_version=version)
    assert stale.value.current == version2
    # One naming no version is applied to the stored match, not to the copy.
    result = store.play(match_id, player2, fallback_move(state2, seat2, "f"))
    assert result.version == version2 + 1
    state2.apply(seat2, fallback_move(state2, seat2, "f"))
    assert store.load(match_id)[1] == state2


def test_a_key_refused_before_stays_refused_when_its_move_becomes_legal(followed):
    store, start = followed
    match_id = start()
    player, seat, state, version = mover(store, match_id)
    contract = fallback_move(state, seat, "f")
    _, _, lead_state, _ = mover(store, match_id)
    lead_state.apply(seat, contract)
    card = fallback_move(lead_state, seat, "f")  # a lead that is legal once the contract is set
    with pytest.raises(IllegalMove) as early:
        store.play(match_id, player, card, idempotency_key="early")  # still choosing: refused
    store.play(match_id, player, contract, expected_version=version)
    caught_up(store, match_id)
    # Now the same request would be legal, but its key already has an answer: the refusal.
    with pytest.raises(MatchError) as replay:
        store.play(match_id, player, card, idempotency_key="early")
    assert replay.value.code == early.value.code and replay.value.details.get("replayed")
    assert store.load(match_id)[0].version == version + 1


def test_the_states_kept_decoded_are_the_last_few_that_moved_and_others_decode(
    followed, monkeypatch
):
    import king_match.decoded as decoded_module

    monkeypatch.setattr(decoded_module, "DECODED_KEEP", 2)
    store, start = followed
    match_ids = [start() for _ in range(3)]
    for match_id in match_ids:
        player, seat, state, version = mover(store, match_id)
        move = fallback_move(state, seat, "f")
        store.play(match_id, player, move, expected_version=version, idempotency_key="k1")
    assert list(store.reader.decoded) == match_ids[1:]  # the first to move is no longer kept
    # Its next load decodes the stored text again, and a move from there is right.
    match_id = match_ids[0]
    caught_up(store, match_id)
    player, seat, state, version = mover(store, match_id)
    move = fallback_move(state, seat, "f")
    result = store.play(match_id, player, move, expected_version=version, idempotency_key="k2")
    assert result.version == version + 1
    state.apply(seat, move)
    assert store.load(match_id)[1] == state
    assert list(store.reader.decoded) == [match_ids[2], match_id]
