"""The one writer path against a real Redis: seats, moves, versions, idempotency, clocks."""

from __future__ import annotations

import threading

import pytest

from king_engine import IllegalMove, parse_move
from king_match import MatchError, Player, StaleVersion, lifecycle
from king_match.record import decode_moves
from king_match.store import fallback_move

pytestmark = pytest.mark.integration

SEED = "ab" * 32
ALICE, BOB, CEM, DENIZ = (Player(f"p-{n}", n) for n in ("alice", "bob", "cem", "deniz"))


def live_table(store):
    record = store.create_table(ALICE, mode="live", hands=8)
    record, _ = store.join(record.match_id, ALICE, client_seed=SEED)
    for player in (BOB, CEM, DENIZ):
        store.join(record.match_id, player, client_seed=SEED)
    return record.match_id


def players_by_seat(store, match_id):
    record, _ = store.load(match_id)
    by_id = {p.player_id: p for p in (ALICE, BOB, CEM, DENIZ)}
    return [by_id.get(seat.player_id) for seat in record.seats]


def at_once(copies, call):
    """Run ``call`` in ``copies`` threads released together; their results or errors."""
    outcomes: list[object] = []
    start = threading.Barrier(copies)

    def run() -> None:
        start.wait()
        try:
            outcomes.append(call())
        except (MatchError, IllegalMove) as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=run) for _ in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_a_full_table_starts_and_the_lobby_forgets_it(make_store):
    store, _, _ = make_store()
    record = store.create_table(ALICE, mode="live", hands=8)
    record, _ = store.join(record.match_id, ALICE, client_seed=SEED)
    assert [r.match_id for r in store.lobby()] == [record.match_id]
    assert record.status == "waiting" and len(record.server_commit) == 64

    for player in (BOB, CEM, DENIZ):
        store.join(record.match_id, player)
    loaded, state = store.load(record.match_id)
    assert loaded.status == "active" and state is not None
    assert store.lobby() == []
    assert [s.seed_source for s in loaded.seats] == ["client", "server", "server", "server"]


def test_seat_taken_and_table_full_are_refused(make_store):
    store, _, _ = make_store()
    record = store.create_table(ALICE, mode="live", hands=8)
    record, _ = store.join(record.match_id, ALICE)
    with pytest.raises(MatchError) as taken:
        store.join(record.match_id, BOB, seat=0)
    assert taken.value.code == "seat_taken"
    for player in (BOB, CEM, DENIZ):
        store.join(record.match_id, player)
    with pytest.raises(MatchError) as full:
        store.join(record.match_id, Player("p-eda", "eda"))
    assert full.value.code == "table_full"


def test_a_bad_client_seed_is_refused_without_a_change(make_store):
    store, _, _ = make_store()
    record = store.create_table(ALICE, mode="live", hands=8)
    record, _ = store.join(record.match_id, ALICE)
    with pytest.raises(MatchError) as bad:
        store.join(record.match_id, BOB, client_seed="xyz")
    assert bad.value.code == "bad_seed"
    assert store.load(record.match_id)[0].version == record.version


def test_moves_apply_once_and_stale_versions_get_the_current_one(make_store):
    store, _, _ = make_store()
    match_id = live_table(store)
    seats = players_by_seat(store, match_id)
    record, state = store.load(match_id)
    move = fallback_move(state, 0, "x")
    result = store.play(match_id, seats[0], move, expected_version=record.version)
    assert result.version == record.version + 1
    with pytest.raises(StaleVersion) as stale:
        store.play(match_id, seats[0], move, expected_version=record.version)
    assert stale.value.current == record.version + 1


def test_the_same_move_sent_twice_at_once_applies_once(make_store):
    store, _, _ = make_store()
    match_id = live_table(store)
    seats = players_by_seat(store, match_id)
    record, state = store.load(match_id)
    move = fallback_move(state, 0, "x")
    outcomes = at_once(
        6, lambda: store.play(match_id, seats[0], move, expected_version=record.version)
    )
    applied = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(applied) == 1
    assert store.load(match_id)[0].version == record.version + 1


def test_an_idempotent_retry_gets_the_first_answer(make_store):
    store, _, _ = make_store()
    match_id = live_table(store)
    seats = players_by_seat(store, match_id)
    _record, state = store.load(match_id)
    move = fallback_move(state, 0, "x")
    first = store.play(match_id, seats[0], move, idempotency_key="k1")
    again = store.play(match_id, seats[0], move, idempotency_key="k1")
    assert again.replayed and again.to_dict() == first.to_dict()
    assert store.load(match_id)[0].version == first.version
    with pytest.raises(MatchError) as reused:
        store.play(match_id, seats[0], parse_move("2C"), idempotency_key="k1")
    assert reused.value.code == "idempotency_key_reused"


def test_copies_of_one_keyed_request_at_once_apply_once_and_agree(make_store):
    store, _, _ = make_store()
    match_id = live_table(store)
    seats = players_by_seat(store, match_id)
    record, state = store.load(match_id)
    move = fallback_move(state, 0, "x")
    outcomes = at_once(
        8,
        lambda: store.play(
            match_id, seats[0], move, expected_version=record.version, idempotency_key="same-key"
        ),
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    answers = {repr(o.to_dict()) for o in outcomes}  # type: ignore[attr-defined]
    assert len(answers) == 1
    assert sum(not o.replayed for o in outcomes) == 1  # type: ignore[attr-defined]
    assert store.load(match_id)[0].version == record.version + 1


def test_a_refused_request_never_hides_a_later_answer(make_store):
    store, _, _ = make_store()
    match_id = live_table(store)
    seats = players_by_seat(store, match_id)
    _record, state = store.load(match_id)
    with pytest.raises(MatchError):
        store.play(match_id, seats[0], parse_move("AS"), idempotency_key="bad", expected_version=0)
    good = store.play(match_id, seats[0], fallback_move(state, 0, "x"), idempotency_key="good")
    # Both keys keep their own first answer.
    assert (
        store.play(
            match_id, seats[0], fallback_move(state, 0, "x"), idempotency_key="good"
        ).to_dict()
        == good.to_dict()
    )
    with pytest.raises(MatchError) as again:
        store.play(match_id, seats[0], parse_move("AS"), idempotency_key="bad", expected_version=0)
    assert again.value.code == "stale_version"
    assert store.load(match_id)[0].version == good.version


def test_a_rejected_keyed_request_replays_its_error(make_store):
    store, _, _ = make_store()
    match_id = live_table(store)
    seats = players_by_seat(store, match_id)
    move = parse_move("queens")
    with pytest.raises(IllegalMove):
        store.play(match_id, seats[1], move, idempotency_key="k9")
    with pytest.raises(MatchError) as replay:
        store.play(match_id, seats[1], move, idempotency_key="k9")
    assert replay.value.code == "not_your_turn"


def test_events_carry_sequence_numbers_and_no_cards_of_any_hand(make_store):
    store, _, _ = make_store()
    match_id = live_table(store)
    events = store.events(match_id)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    text = repr(events)
    record, _state = store.load(match_id)
    assert record.server_seed not in text
    assert "my_cards" not in text and "hand_cards" not in text


def test_live_timeout_forfeits_and_a_bot_takes_over(make_store):
    store, queue, clock = make_store(live_move_ms=1000, live_reserve_ms=2000)
    match_id = live_table(store)
    clock.now += 3.5
    record, _state = store.load(match_id)
    assert record.forfeits == [0]
    assert record.seat(0).taken_over and record.reserves[0] == 0
    assert queue.jobs[-1].kwargs == {
        "match_id": match_id,
        "seat": 0,
        "version": record.version,
        "level": "easy",
    }
    types = [e["type"] for e in store.events(match_id)]
    assert types[-3:] == ["clock_expired", "player_forfeited", "bot_takeover"]


def test_a_bot_that_does_not_answer_gets_a_fallback_move(make_store):
    store, _, clock = make_store(bot_fallback_ms=500)
    record = store.create_table(ALICE, mode="computer", hands=8, seat=1)
    record, _ = store.join(record.match_id, ALICE, client_seed=SEED)
    version = record.version
    clock.now += 1.0
    assert store.due_matches() == [record.match_id]
    assert store.check_clock(record.match_id)
    assert store.load(record.match_id)[0].version == version + 1


def test_computer_timeout_abandons_and_sends_one_finished_message(make_store):
    store, queue, clock = make_store(computer_move_ms=1000)
    record = store.create_table(ALICE, mode="computer", hands=8)
    record, _ = store.join(record.match_id, ALICE, client_seed=SEED)
    clock.now += 2
    store.check_clock(record.match_id)
    loaded, _ = store.load(record.match_id)
    assert loaded.status == "aborted" and loaded.outcome == "aborted"
    ratings = [job for job in queue.jobs if job.queue == "ratings"]
    assert len(ratings) == 1
    message = store.finished_message(record.match_id)
    assert message is not None and message.players[0].forfeited
    assert message.fairness["server_seed"] == loaded.server_seed


def test_finished_message_waits_when_the_queue_is_down(make_store):
    store, queue, clock = make_store(computer_move_ms=1000)
    record = store.create_table(ALICE, mode="computer", hands=8)
    record, _ = store.join(record.match_id, ALICE, client_seed=SEED)
    queue.fail = True
    clock.now += 2
    store.check_clock(record.match_id)
    assert store.redis.zscore(store.keys.pending(record.match_id), record.match_id) is not None
    queue.fail = False
    clock.now += 10
    assert store.retry_pending_finished() == 1
    assert store.redis.zscore(store.keys.pending(record.match_id), record.match_id) is None
    assert store.redis.ttl(store.keys.finished(record.match_id)) >= 7 * 24 * 3600


def test_a_full_match_played_through_the_writer_ends_with_a_transcript(make_store):
    store, _, _ = make_store()
    match_id = live_table(store)
    seats = players_by_seat(store, match_id)
    n = 0
    while True:
        record, state = store.load(match_id)
        if record.ended:
            break
        seat = state.current_player
        store.play(match_id, seats[seat], fallback_move(state, seat, str(n)))
        n += 1
    transcript = store.transcript(match_id)
    assert len(transcript["hands"]) == 8
    assert sum(len(h["plays"]) for h in transcript["hands"]) <= 8 * 52
    # No redeals in standard: each deal number is its hand's, and every deal was played.
    assert [(h["hand"], h["deal"], h["ended"]) for h in transcript["hands"]] == [
        (n, n, "played") for n in range(8)
    ]
    message = store.finished_message(match_id)
    assert message is not None and message.outcome == "finished" and message.ranked


def test_a_writer_that_loses_the_race_to_end_the_match_reloads_and_finds_it_over(make_store):
    """Two writers end the match at once (a player's last card and the clock's fallback for
    it): the one that commits second rebuilt the transcript from moves that already held the
    other's last move. It must see its commit is stale and reload, not replay a move too many."""
    store, _, _ = make_store()
    match_id = live_table(store)
    seats = players_by_seat(store, match_id)
    while True:
        record, state = store.load(match_id)
        seat = state.current_player
        move = fallback_move(state, seat, str(record.version))
        rest = state.copy()
        rest.apply(seat, move)
        if rest.is_over:
            break
        store.play(match_id, seats[seat], move)
    versions: list[int] = []

    def last_move(change):
        if not versions:
            store.play(match_id, seats[seat], move)  # the other writer commits first
        versions.append(change.record.version)
        if change.record.ended:
            return False
        lifecycle.play(change, seats[seat], None, move)
        return True

    assert store.writer.write(match_id, last_move) is False
    assert versions == [record.version, record.version + 1]
    plays = sum(len(hand["plays"]) for hand in store.transcript(match_id)["hands"])
    assert plays == len(decode_moves(store.moves(match_id))) - 8  # one contract a hand


def test_no_transcript_before_the_end(make_store):
    store, _, _ = make_store()
    match_id = live_table(store)
    with pytest.raises(MatchError) as early:
        store.transcript(match_id)
    assert early.value.code == "match_not_over"


def test_the_end_of_a_match_is_reported_once_for_the_metrics(make_store):
    """``on_finished`` (the processes count king_matches_finished_total with it) hears of a
    match once: at the commit that ends it, not again when its message is re-delivered."""
    store, queue, clock = make_store(computer_move_ms=1000)
    ended: list[tuple[str, str]] = []
    store.on_finished = lambda mode, outcome: ended.append((mode, outcome))
    record = store.create_table(ALICE, mode="computer", hands=8)
    store.join(record.match_id, ALICE, client_seed=SEED)
    queue.fail = True
    clock.now += 2
    store.check_clock(record.match_id)
    queue.fail = False
    clock.now += 10
    assert store.retry_pending_finished() == 1
    store.check_clock(record.match_id)
    assert ended == [("computer", "aborted")]


def test_creation_seats_nobody_and_an_unseated_table_is_not_offered(make_store):
    store, _, _ = make_store()
    record = store.create_table(ALICE, mode="live", hands=8)
    assert record.seats == [None] * 4 and store.lobby() == []
    store.join(record.match_id, ALICE, seat=2, client_seed=SEED)
    assert [r.match_id for r in store.lobby()] == [record.match_id]
    computer = store.create_table(BOB, mode="computer", hands=8, seat=1)
    loaded, state = store.load(computer.match_id)
    assert loaded.status == "waiting" and state is None and loaded.free_seats() == [1]
    assert [s.seed_source for s in loaded.seats if s is not None] == ["bot"] * 3


def test_an_empty_seed_is_a_bad_seed_not_a_missing_one(make_store):
    store, _, _ = make_store()
    record = store.create_table(ALICE, mode="live", hands=8)
    with pytest.raises(MatchError) as bad:
        store.join(record.match_id, ALICE, client_seed="")
    assert bad.value.code == "bad_seed"
    assert store.load(record.match_id)[0].version == record.version
