"""Tables and seats as pure functions: who may sit where, leaving, closing, and the table
settings and seeds that are refused. No Redis: records are built and changed in memory."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from king_engine import RULESETS
from king_match import fairness, seating, served
from king_match.errors import MatchError
from king_match.lifecycle import Change, Player
from king_match.record import MatchRecord
from king_match.served import SERVED_RULESETS

T0 = 1_800_000_000_000
SEED = "cd" * 32
PLAYERS = [Player(f"p{i}", f"Player {i}") for i in range(5)]


def table(**settings: Any) -> MatchRecord:
    options: dict[str, Any] = {
        "mode": "live", "ruleset": "standard", "hands": 8, "level": None, "seat": None,
        "match_id": None,
    }  # fmt: skip
    options.update(settings)
    return seating.new_table(PLAYERS[0], T0, **options)


def sit(change: Change, player: Player, seat: int | None = None) -> int:
    return seating.join(change, player, seat, SEED, "client")


def refused(code: str, call: Any, *args: Any, **kwargs: Any) -> MatchError:
    with pytest.raises(MatchError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code
    return caught.value


# ---------------------------------------------------------------------- joining


def test_a_player_without_a_choice_gets_the_first_free_seat() -> None:
    change = Change(table(), None, T0)
    assert sit(change, PLAYERS[0], 2) == 2
    assert sit(change, PLAYERS[1]) == 0
    assert sit(change, PLAYERS[2]) == 1
    assert change.record.status == "waiting" and change.state is None
    assert sit(change, PLAYERS[3]) == 3
    assert change.record.status == "active" and change.state is not None
    assert change.joined == ["p0", "p1", "p2", "p3"]
    assert change.lobby == "rem"  # a started table leaves the lobby


def test_a_taken_seat_is_refused_with_the_free_ones() -> None:
    change = Change(table(), None, T0)
    sit(change, PLAYERS[0], 0)
    sit(change, PLAYERS[1], 2)
    error = refused("seat_taken", sit, change, PLAYERS[2], 2)
    assert error.details == {"free_seats": [1, 3]}
    assert change.record.seat(2).player_id == "p1"


def test_nobody_sits_twice() -> None:
    change = Change(table(), None, T0)
    sit(change, PLAYERS[0])
    refused("already_seated", sit, change, PLAYERS[0])
    assert change.record.free_seats() == [1, 2, 3]


def test_a_started_table_is_full() -> None:
    change = Change(table(), None, T0)
    for player in PLAYERS[:4]:
        sit(change, player)
    refused("table_full", sit, change, PLAYERS[4])
    refused("already_seated", sit, change, PLAYERS[1])


def test_a_computer_table_has_one_seat_for_the_human_and_starts_when_they_sit() -> None:
    record = table(mode="computer", level="hard", seat=2)
    assert record.free_seats() == [2]
    assert [record.seat(i).level for i in (0, 1, 3)] == ["hard"] * 3
    assert all(record.seat(i).server_bot for i in (0, 1, 3))
    change = Change(record, None, T0)
    assert sit(change, PLAYERS[0]) == 2
    assert record.status == "active" and record.reserves == [0, 0, 0, 0]
    refused("table_full", sit, change, PLAYERS[1])


def test_a_computer_table_without_a_level_is_easy_and_a_live_one_has_none() -> None:
    assert table(mode="computer").level == "easy"
    assert table(mode="live", level="hard").level is None


def test_reserved_seats_are_only_for_the_players_they_are_held_for() -> None:
    ids = ["p3", "p1", "p0", "p2"]
    record = seating.reserved_table(
        str(uuid.uuid4()), fairness.draw_server_seed(), ids, T0, ruleset="standard", hands=8,
        ranked=True,
    )  # fmt: skip
    change = Change(record, None, T0)
    refused("seat_reserved", sit, change, PLAYERS[4])
    error = refused("seat_reserved", sit, change, PLAYERS[1], 0)
    assert "1" in error.message  # the seat held for them
    assert sit(change, PLAYERS[1]) == 1
    assert sit(change, PLAYERS[3], 0) == 0
    assert sit(change, PLAYERS[2]) == 3
    assert sit(change, PLAYERS[0]) == 2
    assert record.status == "active"


# ---------------------------------------------------------------------- leaving and closing


def test_a_player_may_stand_up_before_the_start() -> None:
    change = Change(table(), None, T0)
    sit(change, PLAYERS[0])
    sit(change, PLAYERS[1])
    seating.leave(change, PLAYERS[0])
    assert change.record.free_seats() == [0, 2, 3]
    assert change.events[-1] == {"type": "seat_left", "seat": 0}
    assert change.left == ["p0"]
    assert change.record.status == "waiting" and change.lobby == ""
    refused("not_seated", seating.leave, change, PLAYERS[0])


def test_a_started_match_is_left_by_resigning_not_by_standing_up() -> None:
    change = Change(table(), None, T0)
    for player in PLAYERS[:4]:
        sit(change, player)
    refused("table_started", seating.leave, change, PLAYERS[2])
    assert change.record.seat(2).player_id == "p2"


def test_an_empty_table_closes_and_leaves_the_lobby() -> None:
    change = Change(table(), None, T0)
    sit(change, PLAYERS[0])
    later = Change(change.record, None, T0 + 5_000)
    seating.leave(later, PLAYERS[0])
    record = later.record
    assert record.status == "aborted" and record.outcome == "aborted"
    assert record.end_reason == "closed" and record.ended_ms == T0 + 5_000
    assert later.lobby == "rem"
    assert later.events[-1] == {"type": "match_finished", "outcome": "aborted", "reason": "closed"}
    refused("match_over", sit, later, PLAYERS[1])


def test_an_unconfirmed_table_closes_only_while_waiting() -> None:
    ids = [p.player_id for p in PLAYERS[:4]]
    record = seating.reserved_table(
        str(uuid.uuid4()), fairness.draw_server_seed(), ids, T0, ruleset="standard", hands=8,
        ranked=True,
    )  # fmt: skip
    waiting = Change(record, None, T0)
    sit(waiting, PLAYERS[0])
    seating.close_unconfirmed(waiting)
    assert record.status == "aborted" and record.end_reason == "not_confirmed"

    record = seating.reserved_table(
        str(uuid.uuid4()), fairness.draw_server_seed(), ids, T0, ruleset="standard", hands=8,
        ranked=True,
    )  # fmt: skip
    started = Change(record, None, T0)
    for player in PLAYERS[:4]:
        sit(started, player)
    closing = Change(record, started.state, T0 + 1_000)
    seating.close_unconfirmed(closing)
    assert record.status == "active" and closing.events == [] and not closing.changed


# ---------------------------------------------------------------------- creation


def test_a_new_live_open_table_is_offered_in_the_lobby() -> None:
    change = Change(table(), None, T0)
    seating.created(change)
    assert change.events[0]["type"] == "table_created"
    assert change.events[0]["server_commit"] == change.record.server_commit
    assert change.lobby == str(T0)
    for record in (
        table(mode="computer"),
        seating.reserved_table(
            str(uuid.uuid4()), fairness.draw_server_seed(), ["a", "b", "c", "d"], T0,
            ruleset="standard", hands=8, ranked=True,
        ),
    ):  # fmt: skip
        quiet = Change(record, None, T0)
        seating.created(quiet)
        assert quiet.lobby == ""


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"mode": "blitz"}, "mode"),
        ({"ruleset": "poker"}, "ruleset"),
        ({"hands": 9}, "hands"),
        ({"hands": 12, "ruleset": "classic20"}, "hands"),
        ({"mode": "computer", "level": "expert"}, "level"),
        ({"seat": 4}, "seat"),
        ({"seat": -1}, "seat"),
    ],
)
def test_a_table_setting_not_offered_is_refused(settings: dict[str, Any], field: str) -> None:
    error = refused("bad_table", table, **settings)
    assert error.details == {"field": field}


def test_the_lengths_of_the_rules_are_offered() -> None:
    for hands in (8, 12, 20):
        assert table(hands=hands).hands == hands
    assert table(ruleset="classic20", hands=20).ruleset == "classic20"


def test_a_seat_outside_the_table_is_refused_on_joining() -> None:
    change = Change(table(), None, T0)
    error = refused("bad_table", sit, change, PLAYERS[0], 4)
    assert error.details == {"field": "seat"}


def test_a_seed_must_be_64_hex_characters() -> None:
    for bad in ("xyz", "ab" * 31, "g" * 64, ""):
        error = refused("bad_seed", seating.seed_of, bad)
        assert error.details == {"field": "client_seed"}
    assert seating.seed_of("AB" * 32) == ("ab" * 32, "client")
    drawn, source = seating.seed_of(None)
    assert source == "server" and len(drawn) == 64 and int(drawn, 16) >= 0


def test_a_match_id_has_one_spelling() -> None:
    match_id = uuid.uuid4()
    assert seating.canonical_id(str(match_id).upper()) == str(match_id)
    record = table(match_id=str(match_id).upper())
    assert record.match_id == str(match_id)
    refused("match_not_found", seating.canonical_id, "not-a-uuid")
    refused("match_not_found", seating.canonical_id, None)


def test_a_rulesets_options_are_checked_and_kept_with_defaults_filled_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert table().options is None  # standard has none
    error = refused("bad_table", table, options={"king_feat": "plain"})
    assert error.details == {"field": "options"}
    # A ruleset with options, served for this test.
    monkeypatch.setattr(
        served, "SERVED_RULESETS", {**SERVED_RULESETS, "traditional": RULESETS["traditional"]}
    )
    record = table(ruleset="traditional", hands=20, options={"king_feat": "announced"})
    assert record.options == {
        "first_declarer_card": "2D",
        "first_four_penalties": True,
        "king_feat": "announced",
        "max_redeals_per_hand": 3,
    }
    for wrong in ({"king_feat": "loud"}, {"max_redeals_per_hand": 4}, {"colour": "red"}):
        error = refused("bad_table", table, ruleset="traditional", hands=20, options=wrong)
        assert error.details == {"field": "options"}
