"""The rules of a match's life as pure functions: who may act, clocks and reserves, outages,
timeouts, forfeits and the end. No Redis: each test builds a record, sits four players (which
starts the match) and applies rules to ``Change``s at chosen times.

Expected numbers come from RULES.md §1: a live move has 30 s, then the mover's 2-minute
reserve; a move against the computer has 10 minutes and no reserve.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from king_engine import IllegalMove, MatchState
from king_match import fairness, lifecycle, seating
from king_match.errors import MatchError
from king_match.lifecycle import Change, Player, fallback_move, no_outages
from king_match.settings import ClockSettings

T0 = 1_800_000_000_000  # ms
SEED = "ab" * 32
PLAYERS = [Player(f"p{i}", f"Player {i}") for i in range(4)]
HUMAN = Player("h", "Human")
#: RULES.md §1, what every hand of a contract adds up to.
CONTRACT_TOTALS = {
    "tricks": -650,
    "hearts": -390,
    "queens": -400,
    "boys": -480,
    "last_two": -360,
    "king_of_hearts": -320,
    "trump": 650,
}

LostMs = Callable[[int, int], int]


def live_match(clocks: ClockSettings | None = None, hands: int = 8) -> Change:
    record = seating.new_table(
        PLAYERS[0], T0, mode="live", ruleset="standard", hands=hands, level=None, seat=None,
        match_id=None,
    )  # fmt: skip
    change = Change(record, None, T0, clocks=clocks or ClockSettings())
    for player in PLAYERS:
        seating.join(change, player, None, SEED, "client")
    return change


def computer_match(clocks: ClockSettings | None = None, human_seat: int = 1) -> Change:
    record = seating.new_table(
        HUMAN, T0, mode="computer", ruleset="standard", hands=8, level="medium",
        seat=human_seat, match_id=None,
    )  # fmt: skip
    change = Change(record, None, T0, clocks=clocks or ClockSettings())
    seating.join(change, HUMAN, None, SEED, "client")
    return change


def at(change: Change, now_ms: int, lost_ms: LostMs = no_outages) -> Change:
    """The next write of the same match, at ``now_ms``."""
    return Change(change.record, change.state, now_ms, clocks=change.clocks, lost_ms=lost_ms)


def outage(start_ms: int, end_ms: int) -> LostMs:
    """``lost_ms`` of a service that did not serve from ``start_ms`` to ``end_ms``."""

    def lost(since_ms: int, now_ms: int) -> int:
        return max(0, min(now_ms, end_ms) - max(since_ms, start_ms))

    return lost


def mover(change: Change) -> int:
    assert change.state is not None
    seat = change.state.current_player
    assert seat is not None
    return seat


def move_now(change: Change) -> int:
    """The player (or bot) to move plays a legal move; returns the seat."""
    seat = mover(change)
    assert change.state is not None
    move = fallback_move(change.state, seat, f"t{change.state.version}")
    entry = change.record.seat(seat)
    player = None if entry.automated else Player(entry.player_id, entry.name)
    return lifecycle.play(change, player, seat if player is None else None, move)


def bots_until(change: Change, seat: int) -> None:
    """A computer match: the bots move until it is ``seat``'s turn."""
    while mover(change) != seat:
        assert change.state is not None
        bot = mover(change)
        lifecycle.play(change, None, bot, fallback_move(change.state, bot, "b"))


def types(change: Change) -> list[str]:
    return [event["type"] for event in change.events]


def play_out(change: Change) -> None:
    assert change.state is not None
    while not change.state.is_over:
        move_now(change)


# ---------------------------------------------------------------------- who may act


def test_a_stranger_is_not_seated() -> None:
    change = live_match()
    assert change.state is not None
    move = change.state.legal_moves()[0]
    with pytest.raises(MatchError) as caught:
        lifecycle.play(change, Player("x", "Stranger"), None, move)
    assert caught.value.code == "not_seated"


def test_only_the_seat_to_move_may_move_and_is_told_whose_turn_it_is() -> None:
    change = live_match()
    assert change.state is not None
    turn = mover(change)
    other = (turn + 1) % 4
    move = change.state.legal_moves()[0]
    with pytest.raises(IllegalMove) as caught:
        lifecycle.play(change, PLAYERS[other], None, move)
    assert caught.value.code == "not_your_turn"
    assert caught.value.details == {"turn": turn}
    assert change.moves == bytearray()
    assert lifecycle.play(change, PLAYERS[turn], None, move) == turn


def test_nobody_acts_before_the_start() -> None:
    record = seating.new_table(
        PLAYERS[0], T0, mode="live", ruleset="standard", hands=8, level=None, seat=None,
        match_id=None,
    )  # fmt: skip
    change = Change(record, None, T0)
    seating.join(change, PLAYERS[0], None, SEED, "client")
    with pytest.raises(MatchError) as caught:
        lifecycle.acting_seat(record, PLAYERS[0], None)
    assert caught.value.code == "match_not_started"
    # Nor a bot of a computer table whose human has not sat down.
    computer = seating.new_table(
        HUMAN, T0, mode="computer", ruleset="standard", hands=8, level=None, seat=0,
        match_id=None,
    )  # fmt: skip
    dealt = live_match().state
    assert dealt is not None
    move = dealt.legal_moves()[0]
    with pytest.raises(MatchError) as caught:
        lifecycle.play(Change(computer, None, T0), None, 1, move)
    assert caught.value.code == "match_not_started"


def test_nobody_acts_after_the_end() -> None:
    change = computer_match()
    lifecycle.resign(change, HUMAN)
    assert change.state is not None
    for player, seat in ((HUMAN, None), (None, 0)):
        with pytest.raises(MatchError) as caught:
            lifecycle.acting_seat(change.record, player, seat)
        assert caught.value.code == "match_over"


def test_a_forfeited_player_may_not_move_for_the_bot_that_plays_their_seat() -> None:
    change = live_match()
    turn = mover(change)
    lifecycle.resign(change, PLAYERS[turn])
    assert change.state is not None
    move = change.state.legal_moves()[0]
    with pytest.raises(MatchError) as caught:
        lifecycle.play(change, PLAYERS[turn], None, move)
    assert caught.value.code == "seat_forfeited"
    with pytest.raises(MatchError) as caught:
        lifecycle.check_player_turn(change.record, change.state, turn)
    assert caught.value.code == "seat_forfeited"
    # The bot playing the seat may.
    assert lifecycle.play(change, None, turn, move) == turn


def test_a_forfeited_player_is_refused_as_such_out_of_turn_too() -> None:
    change = live_match()
    other = (mover(change) + 1) % 4
    lifecycle.resign(change, PLAYERS[other])
    with pytest.raises(MatchError) as caught:
        lifecycle.acting_seat(change.record, PLAYERS[other], None)
    assert caught.value.code == "seat_forfeited"
    with pytest.raises(MatchError) as caught:
        lifecycle.resign(change, PLAYERS[other])
    assert caught.value.code == "seat_forfeited"
    assert change.record.forfeits == [other]


def test_a_bot_move_is_taken_only_for_a_seat_a_bot_plays() -> None:
    change = live_match()
    turn = mover(change)
    for seat in (turn, None, 4, -1):
        with pytest.raises(MatchError) as caught:
            lifecycle.acting_seat(change.record, None, seat)
        assert caught.value.code == "not_bot_seat"


# ---------------------------------------------------------------------- clocks


def test_a_live_turn_has_30_seconds_plus_the_reserve() -> None:
    change = live_match()
    assert change.record.reserves == [120_000] * 4
    assert change.record.turn_started_ms == T0
    assert change.record.deadline_ms == T0 + 30_000 + 120_000
    assert change.jobs == []  # four humans: no bot is asked for anything


def test_a_move_40_seconds_into_the_turn_costs_10_seconds_of_reserve() -> None:
    change = live_match()
    declarer = mover(change)
    later = at(change, T0 + 40_000)
    move_now(later)  # the contract: the declarer then leads the first trick
    reserves = [120_000] * 4
    reserves[declarer] = 110_000
    assert later.record.reserves == reserves
    assert mover(later) == declarer
    assert later.record.turn_started_ms == T0 + 40_000
    assert later.record.deadline_ms == T0 + 40_000 + 30_000 + 110_000


def test_a_move_within_30_seconds_costs_no_reserve() -> None:
    change = live_match()
    declarer = mover(change)
    later = at(change, T0 + 30_000)
    move_now(later)
    assert later.record.reserves[declarer] == 120_000


def test_a_turn_against_the_computer_has_10_minutes_and_no_reserve() -> None:
    change = computer_match(human_seat=2)
    bots_until(change, 2)  # the bots move at once (at T0)
    assert change.record.reserves == [0, 0, 0, 0]
    assert change.record.turn_started_ms == T0
    assert change.record.deadline_ms == T0 + 600_000
    late = at(change, T0 + 599_000)
    move_now(late)
    assert late.record.reserves == [0, 0, 0, 0]


def test_a_bot_turn_has_the_fallback_time_and_a_bot_job() -> None:
    clocks = ClockSettings(bot_fallback_ms=700)
    change = computer_match(clocks, human_seat=1)
    bots_until(change, 1)
    later = at(change, T0 + 9_000)
    move_now(later)  # the human's move: a bot is next (or the human leads: move again)
    while mover(later) == 1:
        move_now(later)
    bot = mover(later)
    assert later.record.deadline_ms == T0 + 9_000 + 700
    job = later.jobs[-1]
    assert job.kwargs == {
        "match_id": later.record.match_id,
        "seat": bot,
        "version": later.record.version + 1,
        "level": "medium",
    }


def test_a_taken_over_seat_is_played_at_the_takeover_level() -> None:
    change = live_match(ClockSettings(takeover_level="hard"))
    turn = mover(change)
    lifecycle.resign(change, PLAYERS[turn])
    assert change.record.deadline_ms == T0 + 5_000
    assert change.jobs[-1].kwargs["seat"] == turn
    assert change.jobs[-1].kwargs["level"] == "hard"


# ---------------------------------------------------------------------- outages


def test_an_outage_moves_the_turn_start_and_deadline_once() -> None:
    change = live_match()
    turn = mover(change)
    lost = outage(T0 + 10_000, T0 + 70_000)  # 60 s not serving
    check = at(change, T0 + 80_000, lost)
    lifecycle.give_back(check)
    assert check.record.turn_started_ms == T0 + 60_000
    assert check.record.deadline_ms == T0 + 210_000
    assert check.events == [{"type": "clock_restored", "seat": turn, "ms": 60_000}]
    lifecycle.give_back(check)  # the same write again
    assert len(check.events) == 1
    again = at(check, T0 + 95_000, lost)  # a later write: that stretch was given back
    lifecycle.give_back(again)
    assert again.events == []
    assert again.record.deadline_ms == T0 + 210_000


def test_a_deadline_passed_during_an_outage_is_given_back_not_expired() -> None:
    change = live_match()
    lost = outage(T0 + 10_000, T0 + 190_000)  # 180 s: far past move time + reserve
    check = at(change, T0 + 200_000, lost)
    lifecycle.expire(check)
    assert check.record.forfeits == []
    assert check.record.deadline_ms == T0 + 150_000 + 180_000
    assert types(check) == ["clock_restored"]


def test_a_move_after_an_outage_is_not_charged_for_it() -> None:
    change = live_match()
    declarer = mover(change)
    # 100 s into the turn with 60 s lost: 40 s of the mover's time, 10 s over.
    later = at(change, T0 + 100_000, outage(T0 + 5_000, T0 + 65_000))
    move_now(later)
    assert later.record.reserves[declarer] == 110_000
    assert "clock_restored" in types(later)


# ---------------------------------------------------------------------- timeouts


def test_a_live_player_past_the_deadline_forfeits_and_a_bot_takes_over() -> None:
    change = live_match()
    turn = mover(change)
    early = at(change, T0 + 149_999)
    lifecycle.expire(early)
    assert early.events == [] and early.record.forfeits == []
    late = at(change, T0 + 170_000)  # applied 20 s after the deadline
    lifecycle.expire(late)
    assert types(late) == ["clock_expired", "player_forfeited", "bot_takeover"]
    assert late.events[1] == {"type": "player_forfeited", "seat": turn, "reason": "timeout"}
    seat = late.record.seat(turn)
    assert seat.forfeited and seat.taken_over and seat.automated
    assert seat.left_at_ms == T0 + 150_000  # when the clock ran out
    assert late.record.reserves[turn] == 0
    assert late.record.forfeits == [turn]
    assert late.record.status == "active"
    assert late.record.deadline_ms == T0 + 170_000 + 5_000
    assert late.jobs[-1].kwargs["seat"] == turn


def test_a_bot_past_its_deadline_gets_a_fallback_move_and_play_goes_on() -> None:
    change = computer_match(ClockSettings(bot_fallback_ms=5_000), human_seat=1)
    assert change.state is not None
    while mover(change) == 1:  # the human moves until a bot is to move
        move_now(change)
    bot = mover(change)
    started = change.record.turn_started_ms
    assert started is not None
    version = change.state.version
    late = at(change, started + 5_000)
    lifecycle.expire(late)
    assert late.events[0] == {"type": "bot_fallback", "seat": bot}
    assert len(late.moves) >= 1 and late.moves[0] >> 6 == bot
    assert late.state is not None and late.state.version > version
    assert late.record.status == "active" and late.record.forfeits == []


def test_a_human_who_times_out_against_the_computer_abandons_the_match() -> None:
    change = computer_match(human_seat=0)
    bots_until(change, 0)
    late = at(change, T0 + 600_000)
    lifecycle.expire(late)
    assert types(late)[:2] == ["clock_expired", "player_forfeited"]
    assert "bot_takeover" not in types(late)
    assert late.record.status == "aborted" and late.record.outcome == "aborted"
    assert late.record.end_reason == "abandoned (timeout)"
    assert late.events[-1]["type"] == "match_finished"
    assert late.finished is not None
    assert late.finished.outcome == "aborted" and late.finished.mode == "computer"
    assert not late.finished.ranked
    assert late.finished.players[0].forfeited


# ---------------------------------------------------------------------- resigning


def test_a_live_player_who_resigns_is_replaced_by_a_bot() -> None:
    change = live_match()
    turn = mover(change)
    other = (turn + 2) % 4
    assert lifecycle.resign(change, PLAYERS[other]) == other
    assert change.events[-2:] == [
        {"type": "player_forfeited", "seat": other, "reason": "resigned"},
        {"type": "bot_takeover", "seat": other},
    ]
    assert change.record.seat(other).automated
    assert change.record.status == "active"
    assert change.record.deadline_ms == T0 + 150_000  # not their turn: the clock is as it was
    assert change.jobs == []


def test_a_forfeit_marks_the_engine_state_of_a_phased_match() -> None:
    """RULES-traditional.md §4.5 needs the engine to know the forfeit: the mark is in the
    state, survives its bytes, and the transcript's replay makes it where it was made."""
    record = seating.new_table(
        PLAYERS[0], T0, mode="live", ruleset="traditional", hands=20, level=None, seat=None,
        match_id=None,
    )  # fmt: skip
    change = Change(record, None, T0, clocks=ClockSettings())
    for player in PLAYERS:
        seating.join(change, player, None, SEED, "client")
    assert change.state is not None
    for step in range(30):
        seat = change.state.current_player
        lifecycle.apply_move(change, seat, fallback_move(change.state, seat, f"a{step}"))
    other = (mover(change) + 1) % 4
    lifecycle.resign(change, PLAYERS[other])
    assert change.state.forfeits == (other,) and change.state.forfeit_at == (30,)
    assert MatchState.from_bytes(change.state.to_bytes()).forfeits == (other,)
    step = 0
    while not change.record.ended:
        seat = change.state.current_player
        lifecycle.apply_move(change, seat, fallback_move(change.state, seat, f"b{step}"))
        step += 1
    assert change.finished is not None
    assert change.finished.players[other].place == 4 and change.finished.players[other].forfeited
    replayed = fairness.transcript(change.record, bytes(change.moves), change.state)
    assert replayed["hands"] and replayed["first_declarer"] == change.state.first


def test_a_forfeit_leaves_a_plain_match_state_as_it_was() -> None:
    change = live_match()
    assert change.state is not None
    before = change.state.to_bytes()
    lifecycle.resign(change, PLAYERS[(mover(change) + 1) % 4])
    assert change.state.to_bytes() == before


def test_when_the_last_human_leaves_a_live_match_it_is_abandoned() -> None:
    change = live_match()
    order = [2, 0, 3]
    for seat in order:
        lifecycle.resign(change, PLAYERS[seat])
        assert change.record.status == "active"
    lifecycle.resign(change, PLAYERS[1])
    assert change.record.status == "aborted"
    assert change.record.end_reason == "abandoned (resigned)"
    assert change.record.forfeits == [2, 0, 3, 1]
    finished = change.events[-1]
    assert finished["type"] == "match_finished" and finished["outcome"] == "aborted"
    assert finished["winners"] == []  # every seat forfeited: nobody won
    # The earliest leaver is last: seat 2 fourth, 0 third, 3 second, 1 first.
    assert finished["places"] == [3, 1, 4, 2]
    assert change.finished is not None
    assert [p.forfeit_order for p in change.finished.players] == [2, 4, 1, 3]


def test_resigning_against_the_computer_aborts_the_match() -> None:
    change = computer_match(human_seat=3)
    assert lifecycle.resign(change, HUMAN) == 3
    assert change.record.status == "aborted"
    assert change.record.end_reason == "abandoned (resigned)"
    assert change.record.deadline_ms is None
    assert change.finished is not None and change.finished.outcome == "aborted"


def test_after_forfeits_the_leavers_rank_last_and_never_win() -> None:
    change = live_match()
    # The moves are the same whoever makes them (``move_now``): a rehearsal without forfeits
    # gives the final totals, so the seat on the best total can be the one that resigns.
    assert change.state is not None
    rehearsal = Change(copy.deepcopy(change.record), change.state.copy(), T0)
    play_out(rehearsal)
    assert rehearsal.state is not None
    totals = list(rehearsal.state.totals)
    top = max(range(4), key=lambda seat: totals[seat])
    second = (top + 1) % 4
    staying = [seat for seat in range(4) if seat not in (top, second)]

    lifecycle.resign(change, PLAYERS[top])
    later = at(change, T0 + 1_000)
    lifecycle.resign(later, PLAYERS[second])
    play_out(later)
    assert later.state is not None and list(later.state.totals) == totals
    record = later.record
    assert record.status == "finished" and record.outcome == "forfeit"
    assert record.end_reason == "played_out"
    end = later.events[-1]
    assert end["type"] == "match_finished" and end["forfeits"] == [top, second]
    # The two who stayed are placed by total (a tie shares a place); the later leaver is
    # third, the first leaver (on the best total) fourth and no winner.
    a, b = staying
    expected_places = [0, 0, 0, 0]
    expected_places[top], expected_places[second] = 4, 3
    expected_places[a] = 1 if totals[a] >= totals[b] else 2
    expected_places[b] = 1 if totals[b] >= totals[a] else 2
    assert end["places"] == expected_places
    best = max(totals[a], totals[b])
    assert end["winners"] == [seat for seat in staying if totals[seat] == best]
    over = [e for e in later.events if e["type"] == "match_over"]
    assert over[0]["winners"] == end["winners"]
    message = later.finished
    assert message is not None and message.outcome == "forfeit"
    assert [p.place for p in message.players] == expected_places
    orders: list[int | None] = [None] * 4
    orders[top], orders[second] = 1, 2
    assert [p.forfeit_order for p in message.players] == orders
    assert [p.forfeited for p in message.players] == [o is not None for o in orders]
    assert [p.total for p in message.players] == totals
    assert message.players[top].left_at == "2027-01-15T08:00:00Z"
    assert message.players[second].left_at == "2027-01-15T08:00:01Z"


# ---------------------------------------------------------------------- the end


def test_a_match_played_out_finishes_with_totals_as_the_contracts_add_up() -> None:
    change = live_match(hands=8)
    play_out(change)
    assert change.state is not None
    contracts = [e["contract"] for e in change.events if e["type"] == "contract_chosen"]
    # 8 hands: each player declares twice, one penalty and one Koz (RULES.md §1 quotas).
    assert len(contracts) == 8 and contracts.count("trump") == 4
    assert len(set(contracts) - {"trump"}) == 4  # each penalty contract at most once
    totals = list(change.state.totals)
    assert sum(totals) == sum(CONTRACT_TOTALS[c] for c in contracts)
    end = change.events[-1]
    assert end["type"] == "match_finished"
    assert end["outcome"] == "finished" and end["reason"] == "played_out"
    assert end["totals"] == totals and end["forfeits"] == []
    best = max(totals)
    assert end["winners"] == [seat for seat in range(4) if totals[seat] == best]
    assert end["places"] == [1 + sum(t > totals[s] for t in totals) for s in range(4)]
    record = change.record
    assert record.status == "finished" and record.outcome == "finished"
    assert record.deadline_ms is None
    assert change.finished is not None
    assert len(change.finished.players) == 4 and change.finished.outcome == "finished"
    assert change.finished.ranked and change.finished.mode == "live"
    assert [p.total for p in change.finished.players] == totals
    assert [p.player_id for p in change.finished.players] == ["p0", "p1", "p2", "p3"]
    assert not any(p.forfeited for p in change.finished.players)
    with pytest.raises(MatchError) as caught:
        lifecycle.acting_seat(record, PLAYERS[0], None)
    assert caught.value.code == "match_over"


def test_a_replayed_kiz_deal_keeps_its_contract_in_the_transcript() -> None:
    """No move chooses the contract of a Kız played again (traditional §3): the transcript's
    entry for the new deal still names it, so a replay scores it as the engine did."""
    for attempt in range(80):
        record = seating.new_table(
            PLAYERS[0], T0, mode="live", ruleset="traditional", hands=20, level=None,
            seat=None, match_id=None,
        )  # fmt: skip
        change = Change(record, None, T0, clocks=ClockSettings())
        for player in PLAYERS:
            seating.join(change, player, None, SEED, "client")
        assert change.state is not None
        step = 0
        while not change.record.ended:
            seat = change.state.current_player
            lifecycle.apply_move(
                change, seat, fallback_move(change.state, seat, f"{attempt}.{step}")
            )
            step += 1
        if any(deal.ended == "replayed" for deal in change.state.deals):
            break
    else:
        pytest.fail("no Kız was replayed in 80 random matches")
    entries = fairness.transcript(change.record, bytes(change.moves), change.state)["hands"]
    replayed = [i for i, e in enumerate(entries) if e["ended"] == "replayed"]
    for index in replayed:
        assert entries[index + 1]["contract"] == "queens", entries[index + 1]
    scored = [e for e in entries if e["ended"] == "played"]
    assert [e["contract"] for e in scored] == [
        row.to_dict()["contract"] for row in change.state.sheet
    ]
