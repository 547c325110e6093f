"""The opening draw in the fairness transcript (FAIRNESS.md, "The opening draw"): a ruleset whose
first declarer (konturlu) or first dealer (international) is drawn records the drawn cards as
``draw: [[[seat, card], …], …]``, one list per round; every other transcript says ``null``.

Checked against FAIRNESS.md's vectors, and on matches the store played (the transcript it
serves and the one in the finished message) against the tests' own verifier, written from
FAIRNESS.md and sharing no code with the engine (``tests/game/verifier.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from game import verifier  # tests/game: pytest puts tests/ on the path

from king_engine import RULESETS
from king_engine import deal as kingdeal
from king_match import Player, fairness
from king_match.record import MatchRecord, Seat

M = "00112233-4455-6677-8899-aabbccddeeff"
S = bytes(range(32))
SEEDS = [bytes([b]) * 32 for b in (0x11, 0x22, 0x33, 0x44)]
# FAIRNESS.md: J♦ 9♦ 7♦ 9♣, seat 0 starts; with C_0 = 0x07×32 a tie of tens, seat 1 starts.
VECTOR_DRAW = [[[0, "JD"], [1, "9D"], [2, "7D"], [3, "9C"]]]
VECTOR_TIE = [[[0, "TH"], [1, "TC"], [2, "7D"], [3, "5D"]], [[0, "TD"], [1, "KD"]]]
DRAWN = ["konturlu", "international"]
PLAYER = Player("p-0", "player 0")


def vector_record(ruleset: str, seeds: list[bytes]) -> MatchRecord:
    """A started match of ``ruleset`` on FAIRNESS.md's inputs."""
    return MatchRecord(
        match_id=M,
        mode="live",
        ranked=False,
        ruleset=ruleset,
        hands=min(RULESETS[ruleset].lengths),
        creator_id="p-0",
        server_seed=S.hex(),
        server_commit=kingdeal.server_commit(M, S),
        created_ms=1,
        status="aborted",
        outcome="aborted",
        started_ms=2,
        seats=[
            Seat(f"p-{i}", f"player {i}", False, seed=seed.hex()) for i, seed in enumerate(seeds)
        ],
    )


@pytest.mark.parametrize("ruleset", DRAWN)
def test_the_transcript_records_the_draw_of_the_fairness_vectors(ruleset: str) -> None:
    plain = fairness.transcript(vector_record(ruleset, SEEDS), b"")
    assert plain["draw"] == VECTOR_DRAW and plain["first_declarer"] == 0
    tie = fairness.transcript(vector_record(ruleset, [bytes([7]) * 32, *SEEDS[1:]]), b"")
    assert tie["draw"] == VECTOR_TIE and tie["first_declarer"] == 1


@pytest.mark.parametrize("ruleset", ["standard", "classic20", "traditional"])
def test_a_ruleset_that_draws_nobody_says_so(ruleset: str) -> None:
    assert fairness.transcript(vector_record(ruleset, SEEDS), b"")["draw"] is None


def independent_draw(transcript: dict[str, Any]) -> tuple[list[list[list[Any]]], int]:
    """The draw re-derived from the transcript's revealed seeds by the tests' own verifier."""
    key = verifier.match_key(
        transcript["match_id"],
        bytes.fromhex(transcript["server_seed"]),
        [bytes.fromhex(seed) for seed in transcript["client_seeds"]],
    )
    rounds, winner = verifier.opening_draw(key)
    return [[[seat, card] for seat, card in rnd] for rnd in rounds], winner


@pytest.mark.integration
@pytest.mark.parametrize("ruleset", DRAWN)
def test_a_match_the_store_played_records_its_draw(make_store, ruleset: str) -> None:
    """A computer match that its player resigns (so it ends at once): the transcript the store
    serves and the one in its finished message hold the draw the seeds give."""
    store, _, _ = make_store()
    hands = min(RULESETS[ruleset].lengths)
    record = store.create_table(
        PLAYER, mode="computer", ruleset=ruleset, hands=hands, level="easy", seat=0
    )
    store.join(record.match_id, PLAYER, seat=0, client_seed="5a" * 32)
    assert store.load(record.match_id)[0].status == "active"
    store.resign(record.match_id, PLAYER)
    transcript = store.transcript(record.match_id)
    rounds, winner = independent_draw(transcript)
    assert transcript["draw"] == rounds and rounds
    assert transcript["first_declarer"] == winner
    message = store.finished_message(record.match_id)
    assert message is not None and message.fairness["draw"] == rounds
