"""The event log's storage form and trimming, and the leased clock sweeper."""

from __future__ import annotations

import pytest

from king_match import Player, Sweeper, eventcodec, serving
from king_match.store import fallback_move

pytestmark = pytest.mark.integration

PLAYERS = [Player(f"p-{i}", f"player {i}") for i in range(4)]


def test_stored_events_decode_to_what_was_emitted():
    for event in (
        {"type": "card_played", "hand": 3, "trick": 5, "seat": 2, "card": "QH", "v": 9},
        {
            "type": "trick_won",
            "hand": 0,
            "trick": 12,
            "seat": 1,
            "cards": ["2C", "AC", "TD", "KH"],
            "points": -50,
            "v": 40,
        },
        {
            "type": "contract_chosen",
            "hand": 1,
            "seat": 1,
            "contract": "trump",
            "trump": "S",
            "v": 3,
        },
        {
            "type": "contract_chosen",
            "hand": 1,
            "seat": 1,
            "contract": "queens",
            "trump": None,
            "v": 3,
        },
        {"type": "hand_scored", "hand": 0, "points": [0, -100, 0, -300], "v": 50},
    ):
        assert eventcodec.decode(eventcodec.encode(event)) == event


def start_live(store):
    record = store.create_table(PLAYERS[0], mode="live", hands=8)
    record, _ = store.join(record.match_id, PLAYERS[0])
    for player in PLAYERS[1:]:
        store.join(record.match_id, player)
    return record.match_id


def test_older_hands_are_trimmed_and_a_reader_sees_the_gap(make_store):
    store, _, _ = make_store()
    match_id = start_live(store)
    n = 0
    while store.load(match_id)[1].hand_index < 2:
        _record, state = store.load(match_id)
        seat = state.current_player
        store.play(match_id, PLAYERS[seat], fallback_move(state, seat, str(n)))
        n += 1
    events = store.events(match_id, after=0)
    assert events[0]["seq"] > 1  # hand 0's tricks are gone
    # Hand 1 is kept whole, from the write that began it: hand 0's last card and score.
    of_hand_0 = [e["type"] for e in events if e.get("hand") == 0]
    assert of_hand_0 == ["card_played", "trick_won", "hand_scored"]
    assert any(e["type"] == "hand_started" and e["hand"] == 1 for e in events)
    assert [e["seq"] for e in events] == list(range(events[0]["seq"], events[-1]["seq"] + 1))


def test_only_one_sweeper_holds_the_lease(make_store):
    store, _, _ = make_store()
    first, second = Sweeper(store), Sweeper(store)
    assert first.acquire() is True
    assert second.acquire() is False
    assert first.acquire() is True  # renewal
    first.release()
    assert second.acquire() is True


def test_the_sweeper_applies_a_timeout_nobody_asked_for(make_store):
    store, queue, clock = make_store(live_move_ms=1000, live_reserve_ms=0)
    match_id = start_live(store)
    clock.now += 2
    sweeper = Sweeper(store)
    assert sweeper.acquire()
    assert sweeper.sweep_once() == 1
    record = store.reader.load(match_id)[0]
    assert record.forfeits == [0] and record.seat(0).taken_over
    assert any(job.queue == "bots" for job in queue.jobs)


# ---------------------------------------------------------------- outages of the game service


def not_serving(store):
    """The game service's heartbeat has expired (as Redis expires it when no worker writes)."""
    store.redis.delete(store.keys.heartbeat)


def test_an_outage_costs_the_player_to_move_no_time(make_store):
    # 3 s a move and 2 s of reserve; the service is down for 60 s in the middle of a turn.
    store, _, clock = make_store(live_move_ms=3000, live_reserve_ms=2000)
    heartbeat = serving.Heartbeat(store.redis, store.keys, clock)
    sweeper = Sweeper(store)
    assert sweeper.acquire()
    heartbeat.beat()
    match_id = start_live(store)
    record, state = store.reader.load(match_id)[:2]
    seat, reserve = state.current_player, record.reserves[state.current_player]
    clock.now += 1  # 1 s of the move's 3 s used while serving
    heartbeat.beat()  # the last heartbeat before the outage: where it begins
    sweeper.sweep_once()
    not_serving(store)
    for _ in range(60):  # 60 s without a heartbeat: far past move time + reserve
        clock.now += 1
        assert sweeper.sweep_once() == 0
    after = store.reader.load(match_id)[0]
    assert after.forfeits == [] and after.version == record.version

    heartbeat.beat()  # a worker serves again
    sweeper.sweep_once()
    restored = store.reader.load(match_id)[0]
    assert restored.forfeits == []
    # The turn is as it was when the outage began: 2 s of move time left, the reserve whole.
    left_then = record.deadline_ms - (record.turn_started_ms + 1000)
    assert restored.deadline_ms - store.now_ms() == left_then
    clock.now += 1.5  # the player moves 2.5 s into their move time: no reserve used
    store.play(match_id, PLAYERS[seat], fallback_move(state, seat, "x"))
    moved = store.reader.load(match_id)[0]
    assert moved.reserves[seat] == reserve and moved.forfeits == []


def test_a_move_right_after_an_outage_is_not_charged_for_it(make_store):
    # The move arrives before the sweeper has seen the service back: the outage is still
    # open, and the move path gives the time back by the same rule.
    store, _, clock = make_store(live_move_ms=3000, live_reserve_ms=2000)
    heartbeat = serving.Heartbeat(store.redis, store.keys, clock)
    sweeper = Sweeper(store)
    assert sweeper.acquire()
    heartbeat.beat()
    match_id = start_live(store)
    record, state = store.reader.load(match_id)[:2]
    seat, reserve = state.current_player, record.reserves[state.current_player]
    not_serving(store)
    clock.now += 0.5
    sweeper.sweep_once()  # the outage opens
    clock.now += 4  # past the move time, into the reserve, had the clock run
    store.play(match_id, PLAYERS[seat], fallback_move(state, seat, "x"))
    moved = store.reader.load(match_id)[0]
    assert moved.reserves[seat] == reserve and moved.forfeits == []


def test_a_timeout_that_falls_due_while_serving_is_applied(make_store):
    store, _, clock = make_store(live_move_ms=1000, live_reserve_ms=0)
    heartbeat = serving.Heartbeat(store.redis, store.keys, clock)
    sweeper = Sweeper(store)
    assert sweeper.acquire()
    match_id = start_live(store)
    clock.now += 2
    heartbeat.beat()
    assert sweeper.sweep_once() == 1
    assert store.reader.load(match_id)[0].forfeits == [0]
