"""The finished-match message: round trip and clear refusals of malformed messages."""

from __future__ import annotations

import json
from typing import Any

import pytest

from king_message import FinishedMatch, job_id_for

from .conftest import build_match


def as_dict() -> dict[str, Any]:
    return build_match().to_dict()


def test_to_json_and_from_json_round_trip() -> None:
    message = build_match(forfeited=(False, False, False, True))
    again = FinishedMatch.from_json(message.to_json())
    assert again == message
    assert again.to_json() == message.to_json()


def test_a_guest_seat_round_trips_and_an_older_message_has_no_guests() -> None:
    message = build_match(guests=(False, True, False, False))
    assert FinishedMatch.from_json(message.to_json()) == message
    older = as_dict()
    for seat in older["players"]:
        del seat["is_guest"]
    assert not any(seat.is_guest for seat in FinishedMatch.from_dict(older).players)


def test_job_ids_are_deterministic_and_use_only_safe_characters() -> None:
    message = build_match()
    job_id = job_id_for(message.match_id)
    assert job_id == job_id_for(message.match_id.upper())
    assert all(ch.isalnum() or ch in "-_" for ch in job_id)


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda d: d.update(match_id="nope"), "match_id"),
        (lambda d: d.update(mode="hotseat"), "mode"),
        (lambda d: d.update(outcome="draw"), "outcome"),
        (lambda d: d.update(hands=9), "hands"),
        (lambda d: d.update(hands=True), "hands"),
        (lambda d: d.update(ranked="yes"), "ranked"),
        (lambda d: d.update(schema_version=2), "schema_version"),
        (lambda d: d.update(ended_at="2026-12-02T12:00:00"), "UTC offset"),
        (lambda d: d.update(ended_at="2020-01-01T00:00:00Z"), "ended_at"),
        (lambda d: d.update(fairness=[1]), "fairness"),
        (lambda d: d.update(extra=1), "unknown field"),
        (lambda d: d.pop("players"), "missing field"),
        (lambda d: d["players"].pop(), "exactly 4"),
        (lambda d: d["players"][1].update(seat=3), "seats"),
        (lambda d: d["players"][1].update(place=3), "competition ranks"),
        (lambda d: d["players"][1].update(player_id="ayse"), "two seats"),
        (lambda d: d["players"][1].update(total="10"), "total"),
        (lambda d: d["players"][0].update(forfeited=True), "forfeit_order"),
        (
            lambda d: d["players"][0].update(forfeited=True, forfeit_order=1),
            "placed below",
        ),
        (lambda d: d["players"][3].update(left_at="2026-12-02T12:00:00Z"), "stayed"),
        (lambda d: d["players"][2].update(is_guest=1), "is_guest"),
    ],
)
def test_a_malformed_message_raises_a_value_error_that_names_the_problem(
    change: Any, complaint: str
) -> None:
    data = as_dict()
    change(data)
    with pytest.raises(ValueError, match=complaint):
        FinishedMatch.from_json(json.dumps(data))


def test_text_that_is_not_json_is_refused() -> None:
    with pytest.raises(ValueError, match="JSON"):
        FinishedMatch.from_json("{not json")


def test_only_ranked_live_matches_of_four_people_that_were_played_out_are_rated() -> None:
    assert build_match().is_rated
    assert build_match(outcome="forfeit", forfeited=(False, False, False, True)).is_rated
    assert not build_match(mode="computer").is_rated
    assert not build_match(ranked=False).is_rated
    assert not build_match(outcome="aborted").is_rated
    assert not build_match(bots=(False, True, False, False)).is_rated


@pytest.mark.parametrize(
    ("places", "totals", "winners"),
    [
        ((2, 2, 1, 2), (300, 250, 100, -50), [2]),  # a King made by seat 2 (traditional)
        ((1, 4, 1, 1), (-100, 200, -300, 0), [0, 2, 3]),  # seat 1 announced King and failed
        ((1, 1, 3, 4), (90, 90, 10, 0), [0, 1]),  # on totals, a shared first place
    ],
)
def test_places_that_do_not_follow_the_totals_are_accepted_and_name_the_winners(
    places: tuple[int, ...], totals: tuple[int, ...], winners: list[int]
) -> None:
    message = build_match(places=places, totals=totals, ruleset="traditional")
    again = FinishedMatch.from_json(message.to_json())
    assert [seat.place for seat in again.players] == list(places)
    assert again.winners == winners


def test_a_forfeit_never_wins_and_when_all_forfeited_nobody_did() -> None:
    message = build_match(places=(1, 2, 3, 4), forfeited=(False, False, True, True))
    assert message.winners == [0]
    everyone = build_match(places=(4, 3, 2, 1), forfeited=(True, True, True, True))
    assert everyone.winners == []


def test_every_rated_ruleset_is_a_name_of_the_message_package() -> None:
    from king_message import DEFAULT_RULESET, RATED_RULESETS, is_rated_ruleset

    assert DEFAULT_RULESET == "standard" and DEFAULT_RULESET in RATED_RULESETS
    assert RATED_RULESETS == ("standard", "classic20", "traditional", "konturlu", "international")
    assert not is_rated_ruleset("classic") and not is_rated_ruleset(None)
