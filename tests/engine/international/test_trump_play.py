"""§8 P1-P5: trick play in the positive hands (RULES-international.md R2.5, R2.3)."""

from __future__ import annotations

from .helpers import match_at, play, run, set_hands, texts


def kept(contract: str):  # type: ignore[no-untyped-def]
    """h6 (D = 2), nobody bids, D plays ``contract`` himself; seat 2 leads."""
    state = match_at(6)
    run(state, f"s3 pass, s0 pass, s1 pass, s2 refuse, s2 contract:{contract}")
    assert state.turn == 2
    return state


def test_p1_trumping_is_never_forced() -> None:
    state = kept("trump:H")
    set_hands(state, {2: "4C 2D", 3: "5H 9D"})
    play(state, "4C")
    assert texts(state) == ["9D", "5H"]


def test_p2_a_follower_may_not_trump() -> None:
    state = kept("trump:H")
    set_hands(state, {2: "4C 2D", 3: "2C AH"})
    play(state, "4C")
    assert texts(state) == ["2C"]


def test_p3_no_obligation_to_overtrump_and_the_higher_trump_wins() -> None:
    state = kept("trump:H")
    set_hands(state, {2: "AC 2D", 3: "2H 5D", 0: "KH 4D", 1: "3C 7S"})
    play(state, "AC 2H")
    assert sorted(texts(state)) == ["4D", "KH"]
    events = play(state, "KH 3C")
    won = [e for e in events if e["type"] == "trick_won"]
    assert won[0]["seat"] == 0


def test_p4_trump_lead_in_the_first_trick() -> None:
    state = kept("trump:S")
    set_hands(state, {2: "AS 4C 2D"})
    assert sorted(texts(state)) == ["2D", "4C", "AS"]
    play(state, "AS")
    assert state.trick_no == 0


def test_p5_no_trumps_void_plays_anything_led_suit_wins() -> None:
    for contract in ("notrump", "minus"):
        state = kept(contract)
        set_hands(state, {2: "5C 2D", 3: "AH 2S", 0: "9C 4D", 1: "3C 7S"})
        play(state, "5C")
        assert sorted(texts(state)) == ["2S", "AH"]
        events = play(state, "AH 9C 3C")
        assert [e["seat"] for e in events if e["type"] == "trick_won"] == [0]
