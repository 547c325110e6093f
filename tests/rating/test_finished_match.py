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
