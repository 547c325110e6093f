"""Dürt (RULES-konturlu.md §4): the layout cases P1–P4, the seed's opening, the simulation
vectors of §4.9, the S1 example through a whole hand, and the server's passes."""

from __future__ import annotations

import pytest

from king_engine import IllegalMove, parse_card, parse_cards
from king_engine.konturlu import KonturluState, durt_moves, parse_move
from king_engine.konturlu.durt import CLOSED, Layout, place_card

from .helpers import fixed, legal, lowest_card_policy, match, play, vector_deals

R = "23456789TJQKA".index
C, D, H, S = range(4)


def layout(**runs: tuple[str, str]) -> Layout:
    out: list[tuple[int, int] | None] = [None, None, None, None]
    for suit, (lo, hi) in runs.items():
        out["CDHS".index(suit)] = (R(lo), R(hi))
    return (out[0], out[1], out[2], out[3])


def moves(hand: str, rank: str, lay: Layout) -> set[str]:
    return set(durt_moves(parse_cards(hand), R(rank), lay))


def test_p1_extend_a_run_or_open_a_closed_suit_with_r() -> None:
    assert moves("5S 9S 7H 8H 2D", "7", layout(S=("6", "8"))) == {"5S", "9S", "7H"}


def test_p2_no_wrap_and_closed_suits_open_only_with_r() -> None:
    assert moves("QC 2C AD KD", "A", layout(C=("K", "A"))) == {"QC", "AD"}


def test_p3() -> None:
    assert moves("6H AH 3C", "2", layout(H=("2", "5"))) == {"6H"}


def test_p4_nothing_playable_is_a_pass() -> None:
    assert durt_moves(parse_cards("2D 3D"), R("7"), layout(S=("6", "8"))) == ["pas"]


def test_seed_opening() -> None:
    lay = place_card(CLOSED, parse_card("4S"), R("4"))
    assert lay == layout(S=("4", "4"))
    assert moves("3S 4C 5S 9H", "4", lay) == {"3S", "4C", "5S"}


def layout_moves_of(state_log: list[list[object]]) -> list[str]:
    return [f"{s}:{t}" for s, t in state_log if isinstance(t, str) and (len(t) == 2 or t == "pas")]


def play_lowest(declarer: int, contract: str, offset: int = 0) -> tuple[list[str], KonturluState]:
    state = match(first=declarer, deals=vector_deals(offset))
    play(state, declarer, contract)
    while state.phase_name in ("kontur", "sur"):
        play(state, state.current_player, "iyi")
    while state.hand_index == 0:
        assert state.phase_name == "durt"
        play(state, state.current_player, lowest_card_policy(state))
    return layout_moves_of(state.deal_log()[0]["moves"]), state


def test_simulation_vector_durt_7() -> None:
    recorded, state = play_lowest(0, "durt:7")
    assert " ".join(recorded[:20]) == (
        "0:7C 1:7D 2:8C 3:6C 0:9C 1:TC 2:8D 3:5C 0:7S 1:7H 2:4C 3:JC "
        "0:QC 1:3C 2:9D 3:KC 0:2C 1:AC 2:6S 3:6D"
    )
    assert state.sheet[0]["places"] == [0, 3, 2, 1]
    assert len(recorded) == 54
    assert sum(m.endswith("pas") for m in recorded) == 5
    played_by_1 = sum(1 for m in recorded if m.startswith("1:") and not m.endswith("pas"))
    assert 13 - played_by_1 == 3


def test_simulation_vector_durt_ace() -> None:
    recorded, state = play_lowest(2, "durt:A")
    assert (
        " ".join(recorded[:12])
        == "2:pas 3:pas 0:pas 1:AC 2:pas 3:KC 0:QC 1:AD 2:pas 3:JC 0:KD 1:TC"
    )
    assert state.sheet[0]["places"] == [0, 2, 3, 1]
    assert len(recorded) == 69
    assert sum(m.endswith("pas") for m in recorded) == 18


def test_s1_durt_example_through_a_hand() -> None:
    """The seed's Dürt example: d = 2, durt:4, 3 konturs 2, 2 sürs; places S, N, W, E."""
    state = match(first=2, deals=vector_deals(28))
    play(state, 2, "durt:4")
    for seat, call in ((3, "kontur:2"), (0, "iyi"), (1, "iyi"), (2, "sur:3")):
        play(state, seat, call)
    events: list[dict[str, object]] = []
    while state.hand_index == 0:
        events += play(state, state.current_player, lowest_card_policy(state))  # type: ignore[arg-type]
    row = state.sheet[0]
    assert row["places"] == [2, 0, 3, 1]
    assert row["points"] == [20, -10, 45, 10]
    assert row["scores"] == [20, -10, 115, -60]
    assert row["eaten"] == []
    assert state.totals == [142, 112, 237, 62]
    assert [e["seat"] for e in events if e["type"] == "place"] == [2, 0, 3]
    assert all(e.get("auto") is True for e in events if e["type"] == "pass")


def test_passes_are_the_servers_and_a_player_cannot_pass() -> None:
    # d = 2 holds no ace in deal 0: it, 3 and 0 are passed for; seat 1 is to move
    state = match(first=2)
    play(state, 2, "durt:A")
    for seat in (3, 0, 1):
        play(state, seat, "iyi")
    assert state.current_player == 1
    assert legal(state) == ["AC", "AD", "AH", "AS"]
    view = state.view(None)
    assert view["durt"]["last"] == {"0": "pas", "2": "pas", "3": "pas"}
    before = state.copy()
    with pytest.raises(IllegalMove) as info:
        state.apply(1, parse_move("pas"))
    assert info.value.code == "pass_not_allowed"
    with pytest.raises(IllegalMove) as info:
        state.apply(1, parse_move("TC"))
    assert info.value.code == "illegal_card" and info.value.details["rule"] == "durt_layout"
    assert state == before


def test_the_hand_ends_when_the_third_seat_is_out() -> None:
    """D24: a seat is 4th as soon as three are out; its cards stay unplayed."""
    spades = " ".join(r + "S" for r in "23456789TJQKA")
    hearts = " ".join(r + "H" for r in "23456789TJQKA")
    diamonds = " ".join(r + "D" for r in "23456789TJQKA")
    clubs = " ".join(r + "C" for r in "23456789TJQKA")
    state = match(first=0, deals=fixed(spades, hearts, diamonds, clubs))
    play(state, 0, "durt:7")
    for seat in (1, 2, 3):
        play(state, seat, "iyi")
    while state.hand_index == 0:
        play(state, state.current_player, lowest_card_policy(state))
    row = state.sheet[0]
    assert row["places"] == [0, 1, 2, 3]
    assert row["scores"] == [45, 20, 10, -10]
    last_deal = state.deal_log()[0]["moves"]
    assert sum(1 for s, t in last_deal if s == 3 and t != "pas" and len(t) == 2) == 12


def test_durt_view_appendix_a() -> None:
    state = match(first=2, deals=vector_deals(28))
    play(state, 2, "durt:4")
    for seat, call in ((3, "kontur:2"), (0, "iyi"), (1, "iyi"), (2, "sur:3")):
        play(state, seat, call)
    mover = state.current_player
    assert mover is not None
    card = legal(state)[0]
    play(state, mover, card)
    view = state.view(None)
    assert view["contract"] == {"type": "durt", "rank": "4"}
    durt = view["durt"]
    assert durt["rank"] == "4"
    suit_of_card = card[1]
    assert durt["layout"][suit_of_card] == ["4", "4"]
    assert all(durt["layout"][s] is None for s in "CDHS" if s != suit_of_card)
    assert durt["counts"][mover] == 12
    assert durt["last"][str(mover)] == card
    assert durt["places"] == []
    assert view["challenge"]["pairs"] == {"2-3": "sur"}
