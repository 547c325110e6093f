"""Nothing already stored breaks: states and fairness transcripts recorded as test data.

``stored/states.json`` holds states as ``MatchState.to_bytes`` wrote them (start, mid-trick, a
hand's end, late in a match, a match's end; both rulesets, 8, 12 and 20 hands), with the moves
that led there and every seat's view. ``stored/transcripts.json`` holds finished matches'
records, move logs and published transcripts. Whatever the engine becomes, it must still read
these bytes, replay them to the same views and totals, write them back byte for byte, and
rebuild the same transcripts, which the independent KINGDEAL-v1 verifier must accept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from game import verifier  # tests/game: pytest puts tests/ on the path (rootdir, no __init__)

from king_engine import MatchState, move_of_action, new_match, parse_move, view_for
from king_match import fairness
from king_match.record import MatchRecord

from . import as_stored

STORED = Path(__file__).resolve().parent / "stored"
STATES: list[dict[str, Any]] = json.loads((STORED / "states.json").read_text(encoding="utf-8"))
TRANSCRIPTS: list[dict[str, Any]] = json.loads(
    (STORED / "transcripts.json").read_text(encoding="utf-8")
)


def test_the_fixtures_cover_every_phase_and_ruleset() -> None:
    phases = {(case["ruleset"], case["views"][0]["phase"]) for case in STATES}
    for ruleset in ("standard", "classic20"):
        assert {(ruleset, phase) for phase in ("contract", "play", "over")} <= phases
    assert {case["num_hands"] for case in STATES} == {8, 12, 20}


@pytest.mark.parametrize("case", STATES, ids=[case["name"] for case in STATES])
def test_a_stored_state_loads_replays_and_writes_the_same_bytes(case: dict[str, Any]) -> None:
    data = bytes.fromhex(case["bytes"])
    state = MatchState.from_bytes(data)
    assert state.to_bytes() == data
    assert state.totals == case["totals"]
    views = [view_for(state, seat).to_dict() for seat in range(4)]
    assert as_stored(views, case["views"]) == case["views"]  # (views only gain keys)
    # The moves that led there, played again through the checked path, reach the same state.
    played = new_match(case["ruleset"], case["num_hands"], bytes.fromhex(case["match_key"]))
    for action in case["actions"]:
        played.apply(played.turn, move_of_action(action))
    assert played == state
    assert played.to_bytes() == data


@pytest.mark.parametrize("case", TRANSCRIPTS, ids=[str(i) for i in range(len(TRANSCRIPTS))])
def test_a_stored_transcript_is_rebuilt_and_verifies(case: dict[str, Any]) -> None:
    record = MatchRecord.from_json(case["record"])
    stored = case["transcript"]
    rebuilt = fairness.transcript(record, bytes.fromhex(case["moves"]))
    # Later transcripts add keys (options; each entry's deal and how it ended); everything
    # the stored one says is said again the same way.
    assert {key: rebuilt[key] for key in stored if key != "hands"} == {
        key: value for key, value in stored.items() if key != "hands"
    }
    assert [
        {k: entry[k] for k in old}
        for entry, old in zip(rebuilt["hands"], stored["hands"], strict=True)
    ] == stored["hands"]
    assert all((e["deal"], e["ended"]) == (e["hand"], "played") for e in rebuilt["hands"][:-1])
    verifier.verify(stored, record.server_commit)
    # The verifier's optional step: replay the rules from the transcript's notation.
    state = new_match(stored["ruleset"], stored["num_hands"], fairness.match_key(record))
    for entry in stored["hands"]:
        assert state.hand_index == entry["hand"]
        assert state.turn == entry["declarer"]
        contract = entry["contract"] + (":" + entry["trump"] if entry["trump"] else "")
        state.apply(state.turn, parse_move(contract))
        for seat, card in entry["plays"]:
            state.apply(seat, parse_move(card))
    assert state.is_over
    assert state.totals == case["totals"]
