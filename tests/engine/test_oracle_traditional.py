"""The `traditional` oracle against the test cases of RULES-traditional.md §6.

These pin the oracle itself to the specification, so that the engine comparison in
``test_traditional_vs_oracle.py`` compares the engine with something known to be right.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from king_engine import deal

from . import oracle_traditional as ot
from .oracle_traditional import OracleMatch
from .test_deal import CLIENT_SEEDS, HANDS, MATCH_ID, SERVER_SEED

VECTOR_KEY = deal.match_key(MATCH_ID, SERVER_SEED, CLIENT_SEEDS)
ALL_CARDS = [r + s for s in ot.SUITS for r in ot.RANKS]
SIX = set(ot.PENALTIES)
FOUR = set(ot.KOZ)


def fixed_deal(*hands: str) -> Callable[[int], list[list[str]]]:
    """The same hand-made deal for every deal number."""
    cards = [h.split() for h in hands]
    assert sorted(c for h in cards for c in h) == sorted(ALL_CARDS)
    return lambda number: cards


def suit_deal(order: str) -> Callable[[int], list[list[str]]]:
    """Seat s holds the 13 cards of suit order[s]."""
    return fixed_deal(*(" ".join(r + s for r in ot.RANKS) for s in order))


def first_of(deal_0: Callable[[int], list[list[str]]], later: bytes = VECTOR_KEY) -> ot.Deals:
    """Deal 0 hand-made, later deals from a match key."""
    rest = ot.kingdeal(later)
    return lambda number: deal_0(0) if number == 0 else rest(number)


def lowest_card(match: OracleMatch) -> str:
    return min(match.legal_moves(), key=lambda m: (ot.RANKS.index(m[0]), m[1]))


# ---------------------------------------------------------------------------------------------
# 6.1 the seed's worked example


def tricks_taking(contract: str, counts: list[int]) -> list[tuple[int, list[str]]]:
    """13 tricks in which seat s takes counts[s] penalty cards (one per trick); seat 0 takes
    the rest. For `tricks` the counts are tricks, for `last_two` the takers of tricks 11, 12."""
    if contract in ("tricks", "last_two"):
        takers = [s for s in range(4) for _ in range(counts[s])]
        if contract == "last_two":
            takers = [3] * 11 + takers  # trick 0..10 to anyone: they score nothing
        cards = [ALL_CARDS[4 * t : 4 * t + 4] for t in range(13)]
        return list(zip(takers, cards, strict=True))
    wanted = ot.penalty_cards(contract)
    assert wanted is not None
    bad = sorted(wanted)
    good = [c for c in ALL_CARDS if c not in wanted]
    takers = [s for s in range(4) for _ in range(counts[s])]
    tricks = []
    for t in range(13):
        if t < len(takers):
            tricks.append((takers[t], [bad.pop(), good.pop(), good.pop(), good.pop()]))
        else:
            tricks.append((0, [good.pop() for _ in range(4)]))
    return tricks


SEED_EXAMPLE = [
    ("king_of_hearts", [0, 1, 0, 0], [0, -320, 0, 0]),
    ("tricks", [3, 2, 5, 3], [-150, -100, -250, -150]),
    ("hearts", [3, 2, 5, 3], [-90, -60, -150, -90]),
    ("boys", [2, 1, 4, 1], [-120, -60, -240, -60]),
    ("queens", [0, 1, 2, 1], [0, -100, -200, -100]),
    ("last_two", [1, 0, 1, 0], [-180, 0, -180, 0]),
    ("king_of_hearts", [0, 1, 0, 0], [0, -320, 0, 0]),
]


def test_seed_example_points_and_totals() -> None:
    totals = [0, 0, 0, 0]
    for contract, counts, expected in SEED_EXAMPLE:
        points = ot.hand_points(contract, tricks_taking(contract, counts))
        assert points == expected, contract
        assert sum(points) == ot.CONTRACT_TOTALS[contract]
        totals = [a + b for a, b in zip(totals, points, strict=True)]
    assert totals == [-540, -960, -1020, -400]


def test_seed_example_picks_and_hand_7_choice() -> None:
    # The seed's seven hands with f = 0: 2D in seat 0 of deal 0; cards played lowest first.
    match = OracleMatch(deals=first_of(suit_deal("DCHS")))
    assert match.first_declarer == 0
    for hand, (contract, _, _) in enumerate(SEED_EXAMPLE):
        assert match.hand == hand and match.declarer == hand % 4
        match.apply(contract)
        while match.hand == hand:
            move = lowest_card(match) if match.phase == "play" else "keep"
            match.apply(move)
    # A Kız replay would have kept the slot; the hand numbers show none happened here.
    assert [r.contract for r in match.sheet] == [c for c, _, _ in SEED_EXAMPLE]
    assert match.penalty_picks == [1, 1, 1, 2] and match.koz_picks == [2, 2, 2, 2]
    assert match.played == {**dict.fromkeys(ot.PENALTIES, 1), "king_of_hearts": 2}
    assert match.declarer == 3
    assert match.legal_moves() == (SIX - {"king_of_hearts"}) | FOUR


# ---------------------------------------------------------------------------------------------
# 6.2 choosing a contract

NONE_PLAYED = dict.fromkeys(ot.PENALTIES, 0)


@pytest.mark.parametrize(
    ("case", "args", "expected"),
    [
        ("C1", (3, 2, NONE_PLAYED, 0, True, False), SIX),
        ("C2", (3, 2, NONE_PLAYED, 0, False, False), SIX | FOUR),
        ("C3", (3, 2, {**NONE_PLAYED, "tricks": 2}, 3, True, False), SIX - {"tricks"}),
        ("C4", (3, 2, dict.fromkeys(ot.PENALTIES, 1), 4, True, False), SIX | FOUR),
        ("C5", (0, 2, NONE_PLAYED, 9, True, False), FOUR),
        ("C6", (1, 0, {**dict.fromkeys(ot.PENALTIES, 2), "last_two": 1}, 18, True, False),
         {"last_two"}),
        ("C7", (2, 2, {**NONE_PLAYED, "queens": 2}, 9, True, True), SIX - {"queens"}),
        ("C8", (1, 1, NONE_PLAYED, 12, True, False), SIX | FOUR),
    ],
)  # fmt: skip
def test_choice_set(case: str, args: tuple, expected: set[str]) -> None:  # type: ignore[type-arg]
    assert ot.choice_set(*args) == expected


def test_c6_is_forced_and_c7_in_a_match() -> None:
    match = OracleMatch(VECTOR_KEY)
    match.hand, match.penalty_picks[3], match.koz_picks[3] = 0, 1, 0
    match.played = {**dict.fromkeys(ot.PENALTIES, 2), "last_two": 1}
    assert match.legal_moves() == {"last_two"}
    match.apply("last_two")
    assert match.forced


@pytest.mark.parametrize(("card", "first"), [("2D", 3), ("7D", 1)])
def test_first_declarer_from_the_vector_deal(card: str, first: int) -> None:
    assert card in HANDS[0][3 if card == "2D" else 1].split()
    match = OracleMatch(VECTOR_KEY, {"first_declarer_card": card})
    assert match.first_declarer == first
    declarers = []
    rng = random.Random(card)
    while len(declarers) < 6:
        if match.phase == "contract" and len(declarers) == match.hand:
            declarers.append(match.current_player())
        match.apply(rng.choice(sorted(match.legal_moves())))
    assert declarers == [(first + h) % 4 for h in range(6)]


# ---------------------------------------------------------------------------------------------
# 6.3 legal cards

A_KQ_ETC = "AS KS QS 4S 7H 8H 2D 5D 9D JC 3C 6C TC"
POSITIONS = [
    ("P1", "boys", "", "5D AD", "KD 4D 9C JH", "KD"),
    ("P2", "boys", "", "AD 4D", "JD 9D 2S", "JD"),
    ("P3", "boys", "", "3D AD", "KD JD 6D", "KD JD"),
    ("P4", "boys", "", "5D QD", "KD 4D", "KD 4D"),
    ("P5", "boys", "", "AD", "QD 4D KS", "QD 4D"),
    ("P6", "boys", "", "7C", "JH KS 4D 7D", "JH KS"),
    ("P7", "boys", "", "AC", "KD 2H", "KD"),
    ("P8", "boys", "", "5D AS", "KD 4D", "KD 4D"),
    ("P9", "queens", "", "6S AS", "QS 9S 3D", "QS"),
    ("P10", "queens", "", "6S", "QS 9S", "QS 9S"),
    ("P11", "queens", "AS 3S 4S 5S", "KS", "QS 2S", "QS 2S"),
    ("P12", "queens", "", "4H", "QC QD AS", "QC QD"),
    ("P13", "hearts", "2C 5C 9C KC", "", "4H 9H QH", "QH"),
    ("P14", "hearts", "2C 5C 2H KC", "", "4H 9H QH", "4H 9H QH"),
    ("P15", "hearts", "", "", "2C 5H AH", "2C"),
    ("P16", "hearts", "", "8D", "3C KH 2S", "3C KH 2S"),
    ("P17", "king_of_hearts", "", "9C", "KH 5H 9S", "KH"),
    ("P18", "king_of_hearts", "", "9C", "5H AH 9S", "5H AH"),
    ("P19", "king_of_hearts", "", "9C", "9S 2D", "9S 2D"),
    ("P20", "king_of_hearts", "2H 3C 4C 5C", "3H", "KH 7H 2C", "KH 7H"),
    ("P21", "king_of_hearts", "2C 3C 4C 5C", "", "3H KH", "3H KH"),
    ("P22", "trump:S", "", "", A_KQ_ETC, A_KQ_ETC),
    ("P23", "trump:S", "", "", "AS KS 4S 7H 2D", "7H 2D"),
    ("P24", "trump:S", "2C 3C 4C 5C", "", "7S 9S", "7S 9S"),
    ("P25", "trump:S", "2H 4H 5H 3S", "", "AS 4S 7H", "AS 4S 7H"),
    ("P26", "trump:S", "", "5S QS", "TS KS 3D", "KS"),
    ("P27", "trump:S", "", "5S QS", "TS 3S 3D", "TS 3S"),
    ("P28", "trump:S", "", "5S", "3D AH", "3D AH"),
    ("P29", "trump:S", "", "5H", "AH 2H 4S", "AH 2H"),
    ("P30", "trump:S", "", "5H", "4S 7D", "4S 7D"),
    ("P31", "trump:S", "", "5H 9S", "JS 2S 2C", "JS 2S 2C"),
    ("P32", "trump:H", "2C 3C 4C 5C 6D 7D 8D 9D", "", "AH KH QH TC", "AH KH QH TC"),
    ("P33", "tricks", "", "5H", "AS 2C", "AS 2C"),
    ("P34", "last_two", "", "5H", "AS 2C", "AS 2C"),
    ("P35", "trump:S", "", "", "AS QS JS 9H", "9H"),
]


@pytest.mark.parametrize(
    ("case", "contract", "earlier", "trick", "hand", "legal"),
    POSITIONS,
    ids=[p[0] for p in POSITIONS],
)
def test_legal_cards(
    case: str, contract: str, earlier: str, trick: str, hand: str, legal: str
) -> None:
    assert ot.legal_cards(contract, hand.split(), trick.split(), earlier.split()) == set(
        legal.split()
    )


@pytest.mark.parametrize(
    ("contract", "leader", "cards", "winner"),
    [
        ("trump:S", 0, "5H 9S JS AH", 2),
        ("hearts", 2, "5H AS KH 2H", 0),
        ("trump:S", 1, "5S QS KS 2S", 3),
    ],
)
def test_trick_winner(contract: str, leader: int, cards: str, winner: int) -> None:
    assert (leader + ot.trick_winner(contract, cards.split())) % 4 == winner


# ---------------------------------------------------------------------------------------------
# 6.4 the golden hand

GOLDEN_TEXT = "queens 3S 5S AS QS QH KH 4H 6H 8S QD KS 2S QC 3C 4C KC"
GOLDEN = GOLDEN_TEXT.split()
GOLDEN_LEGAL = {"5S": "5S 7S KS", "AS": "2S AS", "QS": "QS", "KH": "2H KH", "QD": "QD",
                "KS": "7S KS", "2S": "2S"}  # fmt: skip


def test_golden_hand_kiz_replay() -> None:
    match = OracleMatch(VECTOR_KEY)
    assert match.first_declarer == 3 and match.legal_moves() == SIX
    for move in GOLDEN:
        if move in GOLDEN_LEGAL:
            assert match.legal_moves() == set(GOLDEN_LEGAL[move].split()), move
        match.apply(move)
    assert match.deal_log[0].ended == "replayed" and match.deal_log[0].reason == "kiz_one_each"
    assert match.deal_log[0].takers == [1, 2, 0, 3]
    assert match.sheet == [] and match.totals == [0, 0, 0, 0]
    assert match.redeals == 1 and match.hand == 0 and match.deal_number == 1
    assert "2D" in match.holdings[1]
    assert match.phase == "play" and match.contract == "queens"
    assert match.current_player() == 3 == match.declarer


# ---------------------------------------------------------------------------------------------
# 6.5 the redeal state machine


def answer_all_keep(match: OracleMatch) -> None:
    while match.phase == "redeal_offer":
        match.apply("keep")


def test_r1_rifki_round_with_nobody_eligible() -> None:
    match = OracleMatch(VECTOR_KEY)
    match.apply("king_of_hearts")
    assert match.phase == "redeal_offer" and match.asked == [0, 1, 2]
    for seat in (0, 1, 2):
        assert match.current_player() == seat and match.legal_moves() == {"keep"}
        match.apply("keep")
    assert match.phase == "play" and match.current_player() == 3
    assert match.legal_moves() == set(HANDS[0][3].split()) - {"4H", "5H", "TH"}


# Seat 0 holds 2D (f = 0), seat 1's only heart is AH.
R2_DEAL = fixed_deal(
    "AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
)


def test_r2_and_c7_redeal_after_a_rifki_request() -> None:
    match = OracleMatch(deals=first_of(R2_DEAL), options={"first_four_penalties": False})
    assert match.legal_moves() == SIX | FOUR
    match.apply("king_of_hearts")
    assert match.asked == [1, 2, 3]
    assert match.current_player() == 1 and match.legal_moves() == {"redeal", "keep"}
    match.apply("redeal")
    record = match.deal_log[0]
    assert (record.ended, record.asked_by, record.reason) == ("redealt", 1, "rifki_single_heart")
    assert match.redeals == 1 and match.deal_number == 1 and match.hand == 0
    assert match.phase == "contract" and match.current_player() == 0
    assert match.legal_moves() == SIX  # king_of_hearts again allowed, Koz not
    assert match.penalty_picks == [3] * 4 and match.koz_picks == [2] * 4
    assert match.played == NONE_PLAYED


# Seat 0 holds 2D (f = 0) and KH as its only heart.
R3_DEAL = fixed_deal(
    "KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
)


def test_r3_declarer_asked_only_when_forced() -> None:
    free = OracleMatch(deals=R3_DEAL)
    free.apply("king_of_hearts")
    assert free.asked == [1, 2, 3]
    answer_all_keep(free)
    assert free.phase == "play"

    forced = OracleMatch(deals=R3_DEAL)
    forced.hand = 16  # declarer (0 + 16) mod 4 = 0, its last declaration
    forced.penalty_picks[0], forced.koz_picks[0] = 1, 0
    forced.played = {**dict.fromkeys(ot.PENALTIES, 2), "king_of_hearts": 1}
    assert forced.legal_moves() == {"king_of_hearts"}
    forced.apply("king_of_hearts")
    assert forced.asked == [1, 2, 3, 0]
    for _ in range(3):
        forced.apply("keep")
    assert forced.current_player() == 0 and forced.legal_moves() == {"redeal", "keep"}
    forced.apply("redeal")
    assert forced.deal_log[0].asked_by == 0 and forced.phase == "contract"


# Seat 1 holds 2D (f = 1), seat 3's only heart is AH.
R4_DEAL = fixed_deal(
    "AS 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "AD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
)


def test_r4_first_redeal_ends_the_round() -> None:
    match = OracleMatch(deals=first_of(R4_DEAL))
    assert match.declarer == 1
    match.apply("king_of_hearts")
    assert match.asked == [2, 3, 0]
    assert match.legal_moves() == {"keep"}
    match.apply("keep")
    assert match.current_player() == 3 and match.legal_moves() == {"redeal", "keep"}
    match.apply("redeal")
    assert match.phase == "contract" and match.deal_log[0].asked_by == 3
    assert match.queue == []  # seat 0 was never asked


def test_r5_at_the_cap() -> None:
    match = OracleMatch(deals=R2_DEAL)
    match.redeals = 3
    match.apply("king_of_hearts")
    assert match.phase == "play"
    seen = set()
    while match.hand == 0:
        seen |= match.legal_moves()
        match.apply(lowest_card(match))
    assert "redeal" not in seen

    queens = OracleMatch(VECTOR_KEY)
    queens.redeals = 3
    for move in GOLDEN:
        queens.apply(move)
    assert queens.sheet[0].points == [-100] * 4 and queens.deal_log[0].ended == "played"
    assert queens.hand == 1 and queens.phase == "contract" and queens.redeals == 0


ALL_HEARTS = suit_deal("HDCS")  # seat 0 all hearts, seat 1 holds 2D: f = 1


def test_r6_kupa_all_hearts() -> None:
    forced = OracleMatch(deals=ALL_HEARTS)
    forced.hand = 3  # declarer (1 + 3) mod 4 = 0
    forced.penalty_picks[0], forced.koz_picks[0] = 1, 0
    forced.played = {**dict.fromkeys(ot.PENALTIES, 2), "hearts": 1}
    for number in range(3):
        assert forced.legal_moves() == {"hearts"}
        forced.apply("hearts")
        assert forced.phase == "play" and forced.current_player() == 0
        assert forced.legal_moves() == {"AH", "redeal"}
        forced.apply("redeal")
        record = forced.deal_log[number]
        assert (record.ended, record.asked_by, record.reason) == (
            "redealt", 0, "kupa_all_hearts"
        )  # fmt: skip
        assert forced.phase == "contract" and forced.redeals == number + 1
    forced.apply("hearts")
    assert forced.legal_moves() == {"AH"}  # at the cap

    free = OracleMatch(deals=ALL_HEARTS)
    free.hand = 3
    assert len(free.legal_moves()) > 1
    free.apply("hearts")
    assert free.legal_moves() == {"AH"}


def test_r7_no_redeals_at_cap_zero() -> None:
    match = OracleMatch(deals=R2_DEAL, options={"max_redeals_per_hand": 0})
    match.apply("king_of_hearts")
    assert match.phase == "play"
    queens = OracleMatch(VECTOR_KEY, {"max_redeals_per_hand": 0})
    for move in GOLDEN:
        queens.apply(move)
    assert queens.sheet[0].points == [-100] * 4 and queens.hand == 1


def test_r8_deal_numbers_after_a_replay() -> None:
    match = OracleMatch(VECTOR_KEY)
    for move in GOLDEN:
        match.apply(move)
    while match.hand == 0:
        match.apply(lowest_card(match))
    assert match.sheet[0].deal == 1 and match.deal_number == 2
    rng = random.Random(8)
    while match.phase != "over":
        match.apply(rng.choice(sorted(match.legal_moves())))
    assert len(match.sheet) == 20
    assert match.deal_log[0].ended == "replayed"


def test_r9_announce_round() -> None:
    match = OracleMatch(
        deals=suit_deal("CSDH"), options={"king_feat": "announced", "first_four_penalties": False}
    )
    assert match.declarer == 2
    match.apply("trump:H")
    assert match.phase == "announce" and match.asked == [2, 3, 0, 1]
    assert match.current_player() == 2 and match.legal_moves() == {"king", "pass"}
    match.apply("pass")
    match.apply("king")
    assert match.phase == "play" and match.current_player() == 2 and match.announcer == 3
    assert match.queue == []


# ---------------------------------------------------------------------------------------------
# 6.6 the King feat

KING_STRINGS = [
    ("XXXXXXXXXX...", (9, False), (9, False)),
    ("XXXXXXXXXXXXX", (9, False), (9, False)),
    (".XXXXXXXXXX..", (10, False), (10, False)),
    ("...XXXXXXXXXX", (12, False), (12, False)),
    ("XXXXXXXXX.XXX", (11, False), (11, False)),
    (".XXXX.XXXXXXX", (12, False), (12, False)),
    (".XXXXX.XXXXX.", None, (12, True)),
    ("....XXXXXXXXX", None, (3, True)),
    ("X.X..XXXXXXXX", None, (4, True)),
    ("XX..XXXXXXXXX", (12, False), (12, False)),
]


def first_king_event(
    tricks: str, seat: int, variant: str, announcer: int | None
) -> tuple[int, tuple[int, bool]] | None:
    won, run = [0] * 4, [0] * 4
    others = [s for s in range(4) if s != seat]
    for number, mark in enumerate(tricks):
        taker = seat if mark == "X" else others[number % 3]
        for s in range(4):
            won[s] += s == taker
            run[s] = run[s] + 1 if s == taker else 0
        status = ot.king_status(won, run, number + 1, variant, announcer)
        if status is not None:
            return number, status
    return None


@pytest.mark.parametrize(("tricks", "plain", "announced"), KING_STRINGS)
def test_king_strings(
    tricks: str, plain: tuple[int, bool] | None, announced: tuple[int, bool]
) -> None:
    seat = 1
    got = first_king_event(tricks, seat, "plain", None)
    assert got == (None if plain is None else (plain[0], (seat, plain[1])))
    assert first_king_event(tricks, seat, "announced", seat) == (
        announced[0], (seat, announced[1])
    )  # fmt: skip
    # K3 and 4.6.2: without an announcement nobody makes King in the announced variant.
    assert first_king_event(tricks, seat, "announced", None) is None


def test_k1_plain_king_ends_the_match() -> None:
    match = OracleMatch(deals=suit_deal("CDSH"))  # f = 1; hand 13 is declared by seat 2
    match.hand = 13
    match.totals = [100, 700, -800, 0]
    match.apply("trump:S")
    while match.phase == "play":
        match.apply(lowest_card(match))
    assert match.deal_log[-1].takers == [2] * 10
    row = match.sheet[-1]
    assert (row.hand, row.declarer, row.contract, row.points, row.partial) == (
        13, 2, "trump:S", [0, 0, 500, 0], True
    )  # fmt: skip
    assert match.koz_picks[2] == 1
    assert match.result == {
        "end_reason": "king", "king_seat": 2, "totals": [100, 700, -300, 0],
        "outcome": ["batar", "batar", "cikar", "batar"], "winners": [2], "places": [2, 2, 1, 2],
    }  # fmt: skip


def test_k2_announced_king_fails() -> None:
    match = OracleMatch(
        deals=suit_deal("CDSH"), options={"king_feat": "announced", "first_four_penalties": False}
    )
    match.apply("trump:D")  # seat 1 holds every diamond and takes every trick
    for move in ("pass", "pass", "pass", "king"):
        match.apply(move)
    assert match.announcer == 0
    while match.phase == "play":
        match.apply(lowest_card(match))
    assert match.deal_log[-1].takers == [1] * 4  # impossible after trick 3
    assert match.sheet[-1].points == [0, 200, 0, 0] and match.sheet[-1].partial
    assert match.result == {
        "end_reason": "king_failed", "king_seat": 0, "totals": [0, 200, 0, 0],
        "outcome": ["batar", "cikar", "cikar", "cikar"], "winners": [1, 2, 3],
        "places": [4, 1, 1, 1],
    }  # fmt: skip


def test_k3_unannounced_thirteen_tricks_are_just_points() -> None:
    match = OracleMatch(
        deals=suit_deal("CDSH"), options={"king_feat": "announced", "first_four_penalties": False}
    )
    match.apply("trump:D")
    for _ in range(4):
        match.apply("pass")
    while match.hand == 0:
        match.apply(lowest_card(match))
    assert match.sheet[0].points == [0, 650, 0, 0] and not match.sheet[0].partial
    assert match.phase == "contract" and match.result is None


# ---------------------------------------------------------------------------------------------
# 6.7 results


@pytest.mark.parametrize(
    ("totals", "outcome", "winners", "places"),
    [
        ([1200, -300, 0, -900], "cbcb", [0, 2], [1, 3, 2, 4]),
        ([500, 500, -500, -500], "ccbb", [0, 1], [1, 1, 3, 3]),
        ([2600, -800, -900, -900], "cbbb", [0], [1, 2, 3, 3]),
    ],
)
def test_played_out_results(
    totals: list[int], outcome: str, winners: list[int], places: list[int]
) -> None:
    result = ot.played_out_result(totals)
    assert result["outcome"] == [{"c": "cikar", "b": "batar"}[o] for o in outcome]
    assert result["winners"] == winners and result["places"] == places
    assert result["end_reason"] == "played_out" and result["king_seat"] is None


# ---------------------------------------------------------------------------------------------
# 6.8 random matches

OPTION_SETS = [
    {"first_four_penalties": ffp, "king_feat": feat, "max_redeals_per_hand": cap}
    for ffp in (True, False)
    for feat in ("plain", "announced")
    for cap in (3, 0)
]


def random_move(match: OracleMatch, rng: random.Random) -> str:
    """Uniform over the legal moves, except that `king` is rare (an announcement ends the
    match) and an eligible seat asks for a redeal half the time."""
    legal = sorted(match.legal_moves())
    if match.phase == "announce":
        return "king" if rng.random() < 0.02 else "pass"
    if "redeal" in legal and match.phase == "redeal_offer":
        return rng.choice(["redeal", "keep"])
    return rng.choice(legal)


def longest_run(takers: list[int], seat: int) -> int:
    best = run = 0
    for taker in takers:
        run = run + 1 if taker == seat else 0
        best = max(best, run)
    return best


def has_king(takers: list[int]) -> bool:
    return any(takers.count(s) >= 11 or longest_run(takers, s) >= 10 for s in range(4))


def check_random_match(options: dict[str, object], seed: int) -> OracleMatch:
    rng = random.Random(seed)
    match = OracleMatch(rng.randbytes(32), options)
    dealt = [set(h) for h in match.holdings]
    while match.phase != "over":
        legal = match.legal_moves()
        assert legal, "never stuck"
        seat = match.current_player()
        assert seat is not None
        move = random_move(match, rng)
        if match.phase == "play" and move != "redeal":
            assert move in dealt[seat] and move in match.holdings[seat]
            if match.trick:
                led = ot.suit(match.trick[0][1])
                if any(ot.suit(c) == led for c in match.holdings[seat]):
                    assert ot.suit(move) == led
        before = match.deal_number
        match.apply(move)
        if match.phase != "over" and match.deal_number != before:
            dealt = [set(h) for h in match.holdings]

    result = match.result
    assert result is not None
    redeals = Counter(r.hand for r in match.deal_log if r.ended in ("redealt", "replayed"))
    assert max(redeals.values(), default=0) <= options["max_redeals_per_hand"]  # type: ignore[operator]
    assert [r.deal for r in match.deal_log] == list(range(len(match.deal_log)))
    for row in match.sheet:
        kind = "trump" if row.contract.startswith("trump:") else row.contract
        if not row.partial:
            assert sum(row.points) == ot.CONTRACT_TOTALS[kind]
    for record in match.deal_log:
        if record.ended == "played" and record.contract and record.contract.startswith("trump:"):
            takers = record.takers
            if options["king_feat"] == "plain":
                # King is found at the first trick that completes it, and only then.
                assert has_king(takers) == (len(takers) < 13)
                assert not has_king(takers[:-1])
    assert match.totals == [sum(r.points[s] for r in match.sheet) for s in range(4)]
    if result["end_reason"] == "played_out":
        assert len(match.sheet) == 20 and not any(r.partial for r in match.sheet)
        assert len(match.deal_log) == 20 + sum(redeals.values())
        per_contract = Counter(r.contract for r in match.sheet)
        assert all(per_contract[c] == 2 for c in ot.PENALTIES)
        assert sum(per_contract[c] for c in ot.KOZ) == 8
        assert match.penalty_picks == [0] * 4 and match.koz_picks == [0] * 4
        penalty = sum(sum(r.points) for r in match.sheet if r.contract in ot.PENALTIES)
        assert penalty == -5200 and sum(match.totals) == 0
        assert result["winners"]
        if options["first_four_penalties"]:
            assert all(r.contract in ot.PENALTIES for r in match.sheet[:4])
    else:
        assert match.sheet[-1].partial and match.sheet[-1].contract.startswith("trump:")
    return match


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_random_matches(options: dict[str, object]) -> None:
    ends: Counter[str] = Counter()
    for seed in range(30):
        ends[check_random_match(options, seed).result["end_reason"]] += 1  # type: ignore[index]
    assert ends["played_out"] > 0
    if options["king_feat"] == "announced":
        assert ends["king_failed"] > 0  # the announcement path was exercised
