"""§8 T1-T16: the match frame and the six negative hands (RULES-international.md §1)."""

from __future__ import annotations

import random

from king_engine.deal import DECK_32, deal_hand
from king_engine.international import new_international_match_on_deals_for_tests

from .helpers import match_at, planned_deal, play, play_plan, refused, scored, set_hands, texts


def test_t1_dealers_contracts_and_auctioneers() -> None:
    """T1: dealer(h) = (F + h) mod 4; the fixed order of h0..h5; auctioneers of h6..h9."""
    state = match_at(0)
    rng = random.Random(3)
    dealers, contracts, auctioneers = [], [], []
    while not state.is_over:
        h = state.hand_index
        if len(dealers) == h:
            dealers.append(state.dealer)
            view = state.view(None)
            contracts.append(view["contract"])
            auctioneers.append(view["auctioneer"])
        state.apply_action(rng.choice(state.legal_actions()))
    assert dealers == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert contracts[:6] == [
        "no_tricks",
        "no_hearts",
        "no_queens",
        "no_kings_jacks",
        "no_king_of_hearts",
        "no_last_two",
    ]
    assert auctioneers[6:] == [2, 3, 0, 1]


def test_t1_first_dealer_comes_from_the_opening_draw() -> None:
    """R1.2: FAIRNESS.md's tie vector: seat 1 wins the draw, so seat 1 deals hand 0."""
    from king_engine.international import INTERNATIONAL

    key = bytes.fromhex("25cc6a328d946fea69cfd20a6c98365b6d6d78791f091e6c2b80fb441645ecad")
    state = INTERNATIONAL.new_state(10, key, {}, deal_hand)
    assert state.first == 1 and state.dealer == 1 and state.turn == 1


def test_t2_the_dealer_leads_every_hand() -> None:
    """T2 (R1.4), both decks, the buyer's hands included."""
    for deck in (52, 32):
        for seed in range(4):
            state = match_at(0, options={"deck": deck}, first=seed % 4, seed=seed)
            rng = random.Random(seed)
            leaders = {}
            while not state.is_over:
                h = state.hand_index
                if state.view(None)["phase"] == "play" and h not in leaders:
                    leaders[h] = state.turn
                state.apply_action(rng.choice(state.legal_actions()))
            assert set(range(6)) <= set(leaders)  # (an annulled hand has no play)
            for h, leader in leaders.items():
                assert leader == (seed % 4 + h) % 4


def test_t3_negative_hand_sums() -> None:
    """T3: the negative hands sum to -260 -260 -200 -240 -160 -180 (-1300); with 32 cards to
    -320 -160 -200 -240 -160 -200 (-1280)."""
    want = {52: [-260, -260, -200, -240, -160, -180], 32: [-320, -160, -200, -240, -160, -200]}
    for deck, sums in want.items():
        for seed in range(150):
            state = match_at(6, options={"deck": deck}, seed=seed)
            assert [line["sum"] for line in state.sheet] == sums
            assert sum(state.totals) == sum(sums) == (-1300 if deck == 52 else -1280)


def test_t4_t5_heart_lead_in_no_hearts() -> None:
    """T4, T5 (h1): no heart lead unless the leader holds only hearts."""
    state = match_at(1)
    leader = state.turn
    set_hands(state, {leader: "2H 5H KS"})
    assert texts(state) == ["KS"]
    assert refused(state, leader, "2H").details["rule"] == "heart_lead"
    set_hands(state, {leader: "2H 5H"})
    assert texts(state) == ["2H", "5H"]


def test_t6_void_in_no_hearts_discards_freely() -> None:
    """T6: a spade is led; the void player holding {3H, 9D} may play either."""
    state = match_at(1)
    leader = state.turn
    set_hands(state, {leader: "AS 2C", (leader + 1) % 4: "3H 9D"})
    play(state, "AS")
    assert sorted(texts(state)) == ["3H", "9D"]


def test_t7_t8_t9_leads_in_no_king_of_hearts() -> None:
    """T7-T9 (R1.7): {KH 4H 9C} leads 9C; {KH 4H} leads 4H; {KH} leads KH."""
    state = match_at(4)
    leader = state.turn
    set_hands(state, {leader: "KH 4H 9C"})
    assert texts(state) == ["9C"]
    assert refused(state, leader, "KH").details["rule"] == "king_of_hearts_lead"
    assert refused(state, leader, "4H").details["rule"] == "heart_lead"
    set_hands(state, {leader: "KH 4H"})
    assert texts(state) == ["4H"]
    set_hands(state, {leader: "KH"})
    assert texts(state) == ["KH"]


def test_t10_void_player_must_play_the_king_of_hearts() -> None:
    """T10 (R1.8): a diamond is led; {KH 3H AC}, no diamond: KH only."""
    state = match_at(4)
    leader = state.turn
    set_hands(state, {leader: "5D 2C", (leader + 1) % 4: "KH 3H AC"})
    play(state, "5D")
    assert texts(state) == ["KH"]
    assert refused(state, (leader + 1) % 4, "AC").details["rule"] == "must_play_king_of_hearts"


def test_t11_following_hearts_never_forces_the_king() -> None:
    """T11: hearts are led; {KH 3H}: both legal."""
    state = match_at(4)
    leader = state.turn
    set_hands(state, {leader: "5H", (leader + 1) % 4: "KH 3H"})
    play(state, "5H")
    assert sorted(texts(state)) == ["3H", "KH"]


def test_t12_king_of_hearts_taken_ends_the_hand() -> None:
    """T12: K♥ falls in trick 5, won by seat 2: the hand ends there, 0 0 -160 0."""
    hands = [
        "AD KD QD JD 2C 4C 5C 6C 7C 8C 9C TC JC",
        "2S 3S 4S 5S 3C QC KC 2H 3H 4H 5H 6H 7H",
        "6S 7S 8S 9S AC TS JS QS KS AS 8H 9H TH",
        "2D 3D 4D 5D KH 6D 7D 8D 9D TD JH QH AH",
    ]
    from king_engine.cards import parse_cards

    state = match_at(4, [parse_cards(h) for h in hands])
    assert state.dealer == 0
    events = play(state, "AD 2S 6S 2D  KD 3S 7S 3D  QD 4S 8S 4D  JD 5S 9S 5D  2C 3C AC")
    assert state.hand_index == 4
    assert texts(state) == ["KH"]
    events = play(state, "KH")
    line = scored(events)
    assert line["tricks_played"] == 5
    assert line["points"] == [0, 0, -160, 0]
    assert state.hand_index == 5


def test_t13_thirteenth_heart_ends_no_hearts() -> None:
    """T13: all 13 hearts are taken by trick 9: the hand ends; the rest does not score."""
    from king_engine.cards import parse_cards

    spades = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    clubs = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"
    hands = [
        spades,
        clubs,
        "2H 3H 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D 7D",
        "9H TH JH QH KH AH 8D 9D TD JD QD KD AD",
    ]
    state = match_at(1, [parse_cards(h) for h in hands])
    assert state.turn == 1  # the dealer of h1
    seat2 = iter(["2H", "3H", "4H", "5H", "6H", "7H", "2D", "3D", "8H"])
    seat3 = iter(["9H", "TH", "JH", "QH", "KH", "AH", "8D", "9D", "TD"])
    lead = iter(["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C"])
    spade = iter(spades.split())
    events: list[dict[str, object]] = []
    for _ in range(9):
        events += play(state, f"{next(lead)} {next(seat2)} {next(seat3)} {next(spade)}")
    line = scored(events)
    assert line["tricks_played"] == 9
    assert line["points"] == [0, -260, 0, 0]
    assert state.hand_index == 2


def test_t14_last_two_tricks() -> None:
    """T14 (h5): seat 1 wins trick 12, seat 3 trick 13: 0 -90 0 -90, all 13 tricks played."""
    from king_engine.cards import card_of

    # Tricks 1..11: same-suit groups (clubs, diamonds, hearts three each, spades two), seat 0
    # winning them; the 8 cards left play tricks 12 and 13 as below.
    groups = [[card_of(s, r) for r in range(b, b + 4)] for s in range(3) for b in (0, 4, 8)]
    groups += [[card_of(3, r) for r in range(b, b + 4)] for b in (0, 4)]
    hands = [0, 0, 0, 0]
    tricks: list[list[int]] = []
    leader = 1  # the dealer of h5
    for group in groups:
        order = [(leader + i) % 4 for i in range(4)]
        rest = iter(group[:3])
        cards = [group[3] if s == 0 else next(rest) for s in order]
        for s, c in zip(order, cards, strict=True):
            hands[s] |= 1 << c
        tricks.append(cards)
        leader = 0
    from king_engine.cards import parse_cards

    end = {0: "JS AC", 1: "AS QS", 2: "AD AH", 3: "TS KS"}
    for seat, text in end.items():
        hands[seat] |= parse_cards(text)
    state = match_at(5, hands)
    from king_engine.cards import format_card

    for cards in tricks:
        play(state, " ".join(format_card(c) for c in cards))
    # trick 12, led by seat 0: JS, AS (seat 1 wins), AD (seat 2 void in spades), TS
    play(state, "JS AS AD TS")
    line = scored(play(state, "QS AH KS AC"))  # seat 1 leads QS, seat 3's KS takes it
    assert line["points"] == [0, -90, 0, -90]
    assert line["tricks_played"] == 13


def test_t15_no_tricks_scores_per_trick() -> None:
    """T15 (h0): tricks 4, 3, 5, 1: -80 -60 -100 -20 (Σ -260); no early end."""
    hands, plan = planned_deal([0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 2, 2], dealer=0)
    state = match_at(0, hands)
    line = scored(play_plan(state, plan))
    assert line["points"] == [-80, -60, -100, -20]
    assert line["tricks_played"] == 13


def test_t16_no_forced_discard_of_queens_or_kings() -> None:
    """T16 (h2, h3): a void player holding a queen or a king may play any card."""
    for hand_index, card in ((2, "QH"), (3, "KH")):
        state = match_at(hand_index)
        leader = state.turn
        set_hands(state, {leader: "5S 2C", (leader + 1) % 4: f"{card} 3D"})
        play(state, "5S")
        assert sorted(texts(state)) == sorted([card, "3D"])


def test_32_card_deal_is_the_fairness_deal() -> None:
    """R5.0: 8 cards each, the deck 7..A, deal d = deal_hand(key, d, DECK_32)."""
    key = bytes(range(32))
    state = new_international_match_on_deals_for_tests(
        lambda d: deal_hand(key, d, DECK_32), {"deck": 32}
    )
    assert [h.bit_count() for h in state.hands] == [8, 8, 8, 8]
    assert state.hands == deal_hand(key, 0, DECK_32)
