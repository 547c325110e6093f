"""§8 S1-S10 and the worked examples W1-W9 (RULES-international.md §4, §5), each driven
through the state: the scripted auction, then a deal built so that each seat takes the
example's tricks, then the hand's scores. The pure ``settle_positive`` is checked too."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from king_engine.deal import deal_hand
from king_engine.international import BID_TEXTS, INTERNATIONAL, settle_positive

from .helpers import (
    filler_key,
    match_at,
    planned_deal,
    play_plan,
    run,
    scored,
    texts,
    winners_for,
)

SUIT = {"C": 0, "D": 1, "H": 2, "S": 3}


def drive(
    hand: int,
    auction: str,
    contract: str | None,
    tricks: tuple[int, int, int, int],
    deck: int = 52,
) -> tuple[dict[str, object], object]:
    """Play positive hand ``hand`` (F = 0): ``auction`` then (if not automatic) ``contract``
    named by whoever is to act, on a deal where seat s takes ``tricks[s]`` tricks."""
    dealer = hand % 4
    trump = None
    if contract is not None and contract.startswith("contract:trump:"):
        trump = SUIT[contract[-1]]
    last = None
    if trump is None:
        last = max(range(4), key=lambda s: tricks[s])
    hands, plan = planned_deal(
        winners_for(tricks, last if deck == 52 else None), dealer, trump, deck
    )
    state = match_at(hand, hands, options={"deck": deck} if deck == 32 else None)
    run(state, auction)
    if contract is not None:
        run(state, f"s{state.turn} {contract}")
    assert state.view(None)["phase"] == "play" and state.turn == dealer
    line = scored(play_plan(state, plan))
    assert line["tricks"] == list(tricks)
    return line, state


def test_s1_w1_plus_sale_with_a_match() -> None:
    line, _ = drive(
        6,
        "s3 bid:+2, s0 bid:+4, s1 pass, s3 bid:+4, s0 bid:+5, s3 pass, s2 accept",
        "contract:trump:S",
        (6, 2, 3, 2),
    )
    assert (line["buyer"], line["price"], line["outcome"]) == (0, "+5", "sold")
    assert line["points"] == [25, 50, 200, 50] and line["sum"] == 325
    assert settle_positive(2, "trump:S", [6, 2, 3, 2], 0, BID_TEXTS.index("+5")) == [
        25,
        50,
        200,
        50,
    ]


def test_s2_w2_minus_sale() -> None:
    line, _ = drive(
        7,
        "s0 bid:+3, s1 bid:-1, s2 bid:+6, s0 bid:+6, s1 bid:-2, s2 pass, s0 pass, s3 accept",
        None,
        (4, 3, 4, 2),
    )
    assert (line["buyer"], line["price"], line["contract"]) == (1, "-2", "minus")
    assert line["points"] == [25, -50, 25, 325] and line["sum"] == 325
    assert settle_positive(3, "minus", [4, 3, 4, 2], 1, BID_TEXTS.index("-2")) == [25, -50, 25, 325]


def test_s3_w3_plus_buyer_short_of_his_bid() -> None:
    state = match_at(8)
    run(state, "s1 pass, s2 bid:+7")
    assert texts(state) == ["pass", "bid:+8"]  # s3's legal moves
    line, _ = drive(8, "s1 pass, s2 bid:+7, s3 pass, s0 accept", "contract:notrump", (5, 3, 4, 1))
    assert line["points"] == [300, 75, -75, 25]
    assert settle_positive(0, "notrump", [5, 3, 4, 1], 2, BID_TEXTS.index("+7")) == [
        300,
        75,
        -75,
        25,
    ]


def test_s4_w4_refusal() -> None:
    state = match_at(9)
    run(state, "s2 bid:+3, s3 pass, s0 pass")
    assert "annul" not in texts(state)
    line, _ = drive(9, "s2 bid:+3, s3 pass, s0 pass, s1 refuse", "contract:trump:H", (1, 7, 3, 2))
    assert (line["buyer"], line["outcome"], line["declarer"]) == (None, "kept", 1)
    assert line["points"] == [25, 175, 75, 50]
    assert settle_positive(1, "trump:H", [1, 7, 3, 2]) == [25, 175, 75, 50]


def test_s5_w5_annul() -> None:
    state = match_at(6)
    events = run(state, "s3 bid:+1, s0 pass, s1 bid:+2, s3 pass, s2 annul")
    line = scored(events)
    assert line["points"] == [75, 75, 100, 75] and line["sum"] == 325
    assert line["tricks_played"] == 0 and line["contract"] is None
    assert not [e for e in events if e["type"] == "card_played"]
    assert state.hand_index == 7
    assert settle_positive(2, None, None) == [75, 75, 100, 75]


def test_s6_w6_plus_eight_with_priority() -> None:
    line, state = drive(8, "s1 bid:+1, s2 bid:+8, s1 bid:+8", "contract:trump:D", (1, 10, 1, 1))
    autos = [(e["seat"], e["move"]) for e in state.deal_log()[8]["auction_log"] if e["auto"]]
    assert autos == [(3, "pass"), (2, "pass"), (0, "accept")]
    assert line["points"] == [225, 50, 25, 25]


def test_s7_w7_ultimatum_taken() -> None:
    line, _ = drive(
        8,
        "s1 bid:+2, s2 bid:+3, s3 bid:-1, s1 pass, s2 bid:-1, s3 pass,"
        " s0 ultimatum:+8, s1 decline, s2 decline, s3 take",
        "contract:trump:C",
        (2, 1, 1, 9),
    )
    assert (line["buyer"], line["price"]) == (3, "+8")
    assert line["points"] == [250, 25, 25, 25]


def test_s8_w8_ultimatum_declined_minus_by_the_auctioneer() -> None:
    line, _ = drive(
        9,
        "s2 pass, s3 pass, s0 pass, s1 ultimatum:+4, s2 decline, s3 decline, s0 decline",
        "contract:minus",
        (5, 1, 4, 3),
    )
    assert (line["buyer"], line["declarer"], line["contract"]) == (None, 1, "minus")
    assert line["points"] == [-50, 250, 25, 100]


def test_s9_w9_thirty_two_cards() -> None:
    state = match_at(6, options={"deck": 32})
    run(state, "s3 bid:+2, s0 bid:-1, s1 pass, s3 bid:-1, s0 bid:+4, s3 pass")
    assert texts(state) == ["accept", "refuse", "ultimatum:+5"]
    line, _ = drive(
        6,
        "s3 bid:+2, s0 bid:-1, s1 pass, s3 bid:-1, s0 bid:+4, s3 pass, s2 accept",
        "contract:trump:D",
        (4, 1, 2, 1),
        deck=32,
    )
    assert line["points"] == [0, 40, 240, 40] and line["sum"] == 320
    assert settle_positive(2, "trump:D", [4, 1, 2, 1], 0, BID_TEXTS.index("+4"), deck=32) == [
        0,
        40,
        240,
        40,
    ]


def test_annul_scores_with_32_cards() -> None:
    assert settle_positive(1, None, None, deck=32) == [75, 95, 75, 75]


def test_settlement_rejects_a_wrong_trick_count() -> None:
    with pytest.raises(ValueError):
        settle_positive(0, "notrump", [4, 4, 4, 4])


def _price_value(price: str, deck: int) -> int:
    unit = 25 if deck == 52 else 40
    number = int(price[1:])
    return number * (3 * unit if price[0] == "-" else unit)


@given(seed=st.integers(0, 2**32 - 1), deck=st.sampled_from([52, 32]))
def test_s10_random_matches_settle_by_the_formulas(seed: int, deck: int) -> None:
    """S10: every positive hand sums to 325 (320), every match to 0; a plus buyer's F is
    25 t - value(P), a minus buyer's 325 - 75 t - value(P), the auctioneer's base + value."""
    rng = random.Random(seed)
    state = INTERNATIONAL.new_state(10, filler_key(seed), {"deck": deck}, deal_hand)
    while not state.is_over:
        state.apply_action(rng.choice(state.legal_actions()))
    unit = 25 if deck == 52 else 40
    total = 325 if deck == 52 else 320
    assert sum(state.totals) == 0
    for line in state.sheet[6:]:
        points, tricks, dealer = line["points"], line["tricks"], line["dealer"]
        assert sum(points) == total
        if line["outcome"] == "annulled":
            assert points == [(100 if deck == 52 else 95) if s == dealer else 75 for s in range(4)]
            continue
        minus = line["contract"] == "minus"
        base = [total - 3 * unit * t if minus else unit * t for t in tricks]
        value = _price_value(line["price"], deck) if line["buyer"] is not None else 0
        for seat in range(4):
            want = base[seat]
            if seat == line["buyer"]:
                want -= value
            elif seat == dealer:
                want += value
            assert points[seat] == want
