"""§8 A1-A20: the bid ladder and the auction state machine (RULES-international.md §3).

F = 0, so the auctioneer D is 2 in h6, 3 in h7, 0 in h8 and 1 in h9.
"""

from __future__ import annotations

import json

import pytest

from king_engine.cards import card_codes
from king_engine.errors import BadInput
from king_engine.international import DECK_VALUES, parse_move

from .helpers import match_at, refused, run, texts

LADDER = ["+1", "+2", "+3", "-1", "+4", "+5", "+6", "-2", "+7", "+8"]
D_HAND = {2: 6, 3: 7, 0: 8, 1: 9}


def at(dealer: int, **options: object):  # type: ignore[no-untyped-def]
    return match_at(D_HAND[dealer], options=dict(options) or None)


def log(state) -> list[tuple[int, str, bool]]:  # type: ignore[no-untyped-def]
    return [(e["seat"], e["move"], e["auto"]) for e in state.view(None)["auction_log"]]


def test_a1_ladder_ranks_values_and_bad_bids() -> None:
    """A1: +1 < +2 < +3 < -1 < +4 < +5 < +6 < -2 < +7 < +8, values 25..200; -3, +9, +0
    do not parse."""
    values = DECK_VALUES[52]
    assert [values.bid_value(b) for b in range(10)] == [
        25,
        50,
        75,
        75,
        100,
        125,
        150,
        150,
        175,
        200,
    ]
    assert texts(at(2)) == ["pass", *("bid:" + b for b in LADDER)]
    for text in ("bid:-3", "bid:+9", "bid:+0", "ultimatum:+9", "bid:3", "bid:", "contract:x"):
        with pytest.raises(BadInput) as err:
            parse_move(text)
        assert err.value.code == "bad_move"


def test_a2_to_a7_bidding_with_a_match() -> None:
    state = at(2)
    assert state.turn == 3
    assert texts(state) == [
        "pass",
        "bid:+1",
        "bid:+2",
        "bid:+3",
        "bid:-1",
        "bid:+4",
        "bid:+5",
        "bid:+6",
        "bid:-2",
        "bid:+7",
        "bid:+8",
    ]
    run(state, "s3 bid:+2")
    assert texts(state) == [
        "pass",
        "bid:+3",
        "bid:-1",
        "bid:+4",
        "bid:+5",
        "bid:+6",
        "bid:-2",
        "bid:+7",
        "bid:+8",
    ]
    assert refused(state, 0, "bid:+2").code == "match_not_allowed"
    assert refused(state, 0, "bid:+1").code == "bid_too_low"
    run(state, "s0 bid:+4")
    assert texts(state) == ["pass", "bid:+5", "bid:+6", "bid:-2", "bid:+7", "bid:+8"]  # A4
    run(state, "s1 pass")
    assert state.turn == 3
    assert texts(state) == ["pass", "bid:+4", "bid:+5", "bid:+6", "bid:-2", "bid:+7", "bid:+8"]
    run(state, "s3 bid:+4")
    assert state.turn == 0  # A6: s1 has passed
    assert texts(state) == ["pass", "bid:+5", "bid:+6", "bid:-2", "bid:+7", "bid:+8"]
    assert refused(state, 0, "bid:+4").code == "match_not_allowed"
    run(state, "s0 bid:+5, s3 pass")
    view = state.view(2)
    assert view["phase"] == "decision" and view["to_act"] == 2  # A7
    assert (view["top_bid"], view["top_holder"], view["bids_made"]) == ("+5", 0, 4)
    assert view["legal_moves"] == [
        "accept",
        "refuse",
        "ultimatum:+6",
        "ultimatum:-2",
        "ultimatum:+7",
        "ultimatum:+8",
    ]
    assert refused(state, 2, "annul").code == "annul_not_allowed"
    assert refused(state, 2, "ultimatum:+5").code == "ultimatum_too_low"
    assert refused(state, 2, "bid:+6").code == "wrong_phase"


def test_a8_minus_one_is_a_raise_over_plus_three() -> None:
    state = at(3)
    run(state, "s0 bid:+3")
    assert texts(state)[:2] == ["pass", "bid:-1"]
    assert refused(state, 1, "bid:+3").code == "match_not_allowed"


def test_a9_passing_is_final() -> None:
    state = at(2)
    run(state, "s3 pass, s0 bid:+1, s1 bid:+2")
    assert state.turn == 0
    assert refused(state, 3, "bid:+3").code == "already_passed"
    assert refused(state, 3, "pass").code == "already_passed"
    assert refused(state, 1, "bid:+3").code == "not_your_turn"


def test_a10_a11_plus_eight_auto_pass_and_auto_accept() -> None:
    state = at(0)
    run(state, "s1 bid:+1, s2 bid:+8")
    assert log(state) == [(1, "bid:+1", False), (2, "bid:+8", False), (3, "pass", True)]
    assert state.turn == 1 and texts(state) == ["pass", "bid:+8"]  # A10
    version = state.version
    events = run(state, "s1 bid:+8")
    assert state.version == version + 1  # the auto moves count in the move that caused them
    assert log(state)[3:] == [(1, "bid:+8", False), (2, "pass", True), (0, "accept", True)]
    assert [e["auto"] for e in events if e["type"] in ("bid", "pass", "decision")] == [
        False,
        True,
        True,
    ]
    view = state.view(1)
    assert (view["buyer"], view["price"], view["phase"], view["to_act"]) == (1, "+8", "contract", 1)
    assert view["legal_moves"] == [
        "contract:trump:S",
        "contract:trump:H",
        "contract:trump:D",
        "contract:trump:C",
        "contract:notrump",
    ]


def test_a12_no_bids() -> None:
    state = at(1)
    run(state, "s2 pass, s3 pass, s0 pass")
    assert state.turn == 1
    assert texts(state) == ["refuse", "annul", *("ultimatum:" + b for b in LADDER)]
    assert refused(state, 1, "accept").code == "accept_not_allowed"


def _decision_after(top: str | None, **options: object):  # type: ignore[no-untyped-def]
    state = at(2, **options)
    if top is None:
        run(state, "s3 pass, s0 pass, s1 pass")
    else:
        run(state, f"s3 bid:{top}, s0 pass, s1 pass")
    return state


def test_a13_annul_boundary_default() -> None:
    for top in [None, *LADDER[:-1]]:
        state = _decision_after(top)
        assert ("annul" in texts(state)) == (top in (None, "+1", "+2")), top
    state = at(2)
    run(state, "s3 bid:+8")
    assert state.view(None)["phase"] == "contract"  # auto-accepted: no decision to annul
    state = _decision_after("+1")
    run(state, "s2 ultimatum:+8, s3 decline, s0 decline, s1 decline")
    assert refused(state, 2, "annul").code == "wrong_phase"


def test_a14_fewer_than_three_bids() -> None:
    option = {"annul_condition": "fewer_than_3_bids"}
    state = at(2, **option)
    run(state, "s3 bid:+1, s0 pass, s1 bid:+2, s3 pass")  # W5: two bids, top +2
    assert "annul" in texts(state)
    state = at(2, **option)
    run(state, "s3 bid:+2, s0 bid:+4, s1 pass, s3 bid:+4, s0 bid:+5, s3 pass")  # W1
    assert "annul" not in texts(state)
    state = at(2, **option)
    run(state, "s3 bid:+8")
    assert state.view(None)["phase"] == "contract"  # one bid of +8: accepted automatically


def test_a15_top_at_most_plus_one() -> None:
    assert "annul" in texts(_decision_after("+1", annul_condition="top_at_most_plus1"))
    assert "annul" not in texts(_decision_after("+2", annul_condition="top_at_most_plus1"))


def test_a16_ultimatum_answers_in_priority_order() -> None:
    state = at(0)
    run(state, "s1 bid:+2, s2 bid:+3, s3 bid:-1, s1 pass, s2 bid:-1, s3 pass")  # W7
    assert state.view(None)["top_bid"] == "-1" and state.view(None)["top_holder"] == 2
    run(state, "s0 ultimatum:+8")
    assert state.turn == 1 and texts(state) == ["take", "decline"]
    assert refused(state, 3, "take").code == "not_your_turn"
    run(state, "s1 decline")
    assert refused(state, 3, "take").code == "not_your_turn"
    run(state, "s2 decline")
    assert state.turn == 3 and texts(state) == ["take", "decline"]  # s3 passed; it may take
    run(state, "s3 take")
    view = state.view(3)
    assert (view["buyer"], view["price"], view["to_act"]) == (3, "+8", 3)
    assert view["ultimatum"] == {
        "demand": "+8",
        "answers": [
            {"seat": 1, "answer": "decline"},
            {"seat": 2, "answer": "decline"},
            {"seat": 3, "answer": "take"},
        ],
    }


def test_a17_ultimatum_declined_by_all() -> None:
    state = at(1)
    run(state, "s2 pass, s3 pass, s0 pass, s1 ultimatum:+4, s2 decline, s3 decline, s0 decline")
    assert state.turn == 1 and state.view(None)["phase"] == "contract"
    assert texts(state) == [
        "contract:trump:S",
        "contract:trump:H",
        "contract:trump:D",
        "contract:trump:C",
        "contract:notrump",
        "contract:minus",
    ]
    for text in ("accept", "annul", "ultimatum:+5", "refuse"):
        assert refused(state, 1, text).code == "wrong_phase"


def test_a18_minus_buyer_plays_minus_automatically() -> None:
    state = at(3)
    run(state, "s0 bid:+3, s1 bid:-1, s2 bid:+6, s0 bid:+6, s1 bid:-2, s2 pass, s0 pass")  # W2
    events = run(state, "s3 accept")
    assert [(e["type"], e["auto"]) for e in events if "auto" in e] == [
        ("decision", False),
        ("contract_chosen", True),
    ]
    view = state.view(None)
    assert (view["buyer"], view["price"], view["contract"], view["phase"]) == (
        1,
        "-2",
        "minus",
        "play",
    )
    assert log(state)[-1] == (1, "contract:minus", True)
    assert state.turn == 3  # the dealer leads
    assert refused(state, 1, "contract:trump:S").code in ("not_your_turn", "wrong_phase")


def test_a19_plus_buyer_may_not_name_minus() -> None:
    state = at(2)
    run(state, "s3 bid:+2, s0 bid:+4, s1 pass, s3 bid:+4, s0 bid:+5, s3 pass, s2 accept")
    assert refused(state, 0, "contract:minus").code == "contract_not_allowed"
    assert refused(state, 2, "contract:trump:S").code == "not_your_turn"


def test_a20_views_during_bidding() -> None:
    state = at(2)
    run(state, "s3 bid:+2, s0 bid:+4")
    views = [state.view(seat) for seat in range(4)]
    for seat, view in enumerate(views):
        assert view["legal_moves"] == (texts(state) if seat == state.turn else [])
        assert view["my_cards"] == card_codes(state.hands[seat])
        # The opening draw's cards are public (R1.2), whoever holds them now.
        dumped = json.dumps({k: v for k, v in view.items() if k != "draw"})
        for other in range(4):
            if other != seat:
                for code in card_codes(state.hands[other]):
                    assert f'"{code}"' not in dumped
    assert all(v["auction_log"] == views[0]["auction_log"] for v in views)
    assert views[0]["auction_log"] == [
        {"seat": 3, "move": "bid:+2", "auto": False},
        {"seat": 0, "move": "bid:+4", "auto": False},
    ]
    spectator = state.view(None)
    assert "my_cards" not in spectator and "legal_moves" not in spectator
    assert spectator["priority"] == [3, 0, 1] and spectator["passed"] == []


def test_32_card_ladder_and_unrefusable_plus_five() -> None:
    """§5: +1 +2 +3 -1 +4 +5; +5 is unrefusable; annul below +2; no -2, no +6."""
    state = at(2, deck=32)
    assert texts(state) == ["pass", "bid:+1", "bid:+2", "bid:+3", "bid:-1", "bid:+4", "bid:+5"]
    assert refused(state, 3, "bid:+6").code == "bid_off_ladder"
    assert refused(state, 3, "bid:-2").code == "bid_off_ladder"
    run(state, "s3 bid:+1, s0 bid:+5")  # s1 is passed automatically
    assert texts(state) == ["pass", "bid:+5"]  # s3 has priority over s0: it may match
    run(state, "s3 pass")
    assert (state.view(None)["phase"], state.view(None)["buyer"]) == ("contract", 0)
    assert [m for _, m, auto in log(state) if auto] == ["pass", "accept"]
    for top, poor in (("+1", True), ("+2", False)):
        assert ("annul" in texts(_decision_after(top, deck=32))) == poor
