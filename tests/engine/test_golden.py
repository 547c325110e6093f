"""Golden matches: seeds + move list -> the score sheet checked in under golden/.

Each file fixes a match id, server seed, client seeds and every move in order ("seat:move");
replaying it through the checked path must give the recorded score sheet exactly. A change
that alters dealing, legality or scoring shows up here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from king_engine import deal, new_match, parse_move

from . import as_stored

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_match(path: Path) -> None:
    data = json.loads(path.read_text())
    key = deal.match_key(
        data["match_id"],
        bytes.fromhex(data["server_seed"]),
        [bytes.fromhex(seed) for seed in data["client_seeds"]],
    )
    state = new_match(data["ruleset"], data["hands"], key)
    for token in data["moves"].split():
        seat, _, move = token.partition(":")
        state.apply(int(seat), parse_move(move))
    assert state.is_over
    sheet = [record.to_dict() for record in state.sheet]
    assert as_stored(sheet, data["score_sheet"]) == data["score_sheet"]
    assert state.totals == data["totals"]
    assert state.winners() == data["winners"]


def test_there_are_golden_matches_for_both_rulesets() -> None:
    rulesets = {json.loads(p.read_text())["ruleset"] for p in GOLDEN}
    assert rulesets == {"standard", "classic20"}
