"""The ``international`` bots (RULES-international.md §1-§5) from the seat's view: every level
answers a legal move in every phase of whole matches on both decks, the answers are
deterministic, and the key decisions follow from the hand (a hand of honours bids, low cards buy
the minus deal, a weak hand passes over plus-only bids, the auctioneer annuls a poor auction
when annulling pays more, a void buyer names his long suit as trumps), plus the card-play
heuristics and the sampling of worlds."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from king_bots.arena_own import bid_study
from king_bots.policies import international
from king_bots.policies.international import shown_voids, table_of
from king_bots.policies.international_play import heuristic_card, sample_world
from king_bots.policies.own import decide_own
from king_engine.cards import SUIT_MASK, parse_card, parse_cards
from king_engine.international import (
    DECK_VALUES,
    InternationalState,
    new_international_match_on_deals_for_tests,
    parse_move,
)

LEVELS = ("easy", "medium", "hard")


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fewer worlds, so whole matches with hard seats run quickly; the code paths are the
    same."""
    monkeypatch.setitem(international.WORLDS, "medium", 8)
    monkeypatch.setitem(international.WORLDS, "hard", 12)
    monkeypatch.setattr(international, "HARD_PLAYOUTS", 24)
    monkeypatch.setattr(international, "HARD_MIN_WORLDS", 3)
    monkeypatch.setattr(international, "HARD_MAX_WORLDS", 6)


def cards(text: str) -> int:
    return parse_cards(text)


def random_deal(rng: random.Random, deck: int, fixed: dict[int, int] | None = None) -> list[int]:
    """Four hands: the ``fixed`` ones as given, the rest of the deck dealt at random."""
    values = DECK_VALUES[deck]
    fixed = fixed or {}
    taken = 0
    for mask in fixed.values():
        taken |= mask
    rest = [c for c in range(52) if values.cards >> c & 1 and not taken >> c & 1]
    rng.shuffle(rest)
    hands = []
    for seat in range(4):
        if seat in fixed:
            hands.append(fixed[seat])
            continue
        mask = 0
        for card in rest[: values.tricks]:
            mask |= 1 << card
        rest = rest[values.tricks :]
        hands.append(mask)
    return hands


def at_hand_six(fixed: dict[int, int], deck: int = 52) -> InternationalState:
    """A match (first dealer 0) played at random through the six negative hands, at the
    bidding of hand 6 (auctioneer seat 2, bidders 3, 0, 1), with the ``fixed`` hands dealt."""
    deals = {d: random_deal(random.Random(d), deck, fixed if d == 6 else None) for d in range(10)}
    state = new_international_match_on_deals_for_tests(deals.__getitem__, {"deck": deck})
    rng = random.Random(7)
    while state.hand_index < 6:
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.phase == "bidding" and state.dealer == 2 and state.turn == 3
    return state


def play(state: InternationalState, *moves: str) -> None:
    for text in moves:
        state.apply(state.turn, parse_move(text))


def answer(state: InternationalState, level: str, seed: int = 1) -> str:
    view = state.view(state.turn)
    move = decide_own(view, level, seed)
    assert move in view["legal_moves"]
    return move


# ------------------------------------------------------------------ whole matches


@pytest.mark.usefixtures("small_budget")
@pytest.mark.parametrize("deck", [52, 32])
@pytest.mark.parametrize("seed", [0, 1])
def test_every_level_answers_a_legal_move_through_whole_matches(deck: int, seed: int) -> None:
    """Every move of every seat, in every phase, is one of the view's legal moves and the
    checked path takes it; the match ends and sums to 0 (R1.1)."""
    levels = [LEVELS[(seat + seed) % 3] for seat in range(4)]
    rng = random.Random(seed)
    deals = {d: random_deal(rng, deck) for d in range(10)}
    state = new_international_match_on_deals_for_tests(
        deals.__getitem__, {"deck": deck}, first=seed
    )
    phases: dict[str, set[str]] = {level: set() for level in LEVELS}
    moves = 0
    while not state.is_over:
        seat = state.turn
        view = state.view(seat)
        move = decide_own(view, levels[seat], seed * 1000 + moves)
        assert move in view["legal_moves"]
        phases[levels[seat]].add(view["phase"])
        state.apply(seat, parse_move(move))
        moves += 1
    assert sum(state.totals) == 0
    for level in set(levels):
        assert {"play", "bidding"} <= phases[level]


@pytest.mark.usefixtures("small_budget")
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_answers_the_decision_the_ultimatum_and_the_contract(level: str) -> None:
    """R3.7/R3.9: the auctioneer's decision, an ultimatum answer by each seat (a seat that
    passed included) and the auctioneer's contract after all decline are legal answers."""
    state = at_hand_six({})
    play(state, "pass", "pass", "pass")
    assert state.phase == "decision"
    answer(state, level)
    play(state, "ultimatum:+8")
    for _ in range(3):
        assert state.phase == "ultimatum"
        answer(state, level)
        play(state, "decline")
    assert state.phase == "contract" and state.turn == 2
    assert answer(state, level).startswith("contract:")


# ------------------------------------------------------------------ determinism


def positions(count: int, seed: int) -> list[dict[str, Any]]:
    """Views of the seat to act at random points of random matches on both decks."""
    rng = random.Random(seed)
    views = []
    while len(views) < count:
        deck = rng.choice([52, 32])
        deals = {d: random_deal(rng, deck) for d in range(10)}
        state = new_international_match_on_deals_for_tests(deals.__getitem__, {"deck": deck})
        while not state.is_over and len(views) < count:
            if rng.random() < 0.05 or (state.phase != "play" and rng.random() < 0.5):
                views.append(state.view(state.turn))
            state.apply_action(rng.choice(state.legal_actions()))
    return views


@pytest.mark.usefixtures("small_budget")
@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_give_the_same_move(level: str) -> None:
    """Deterministic for a seed; a copy of the view (JSON round trip) gets the same move, with
    or without the valuation cache."""
    for index, view in enumerate(positions(20, 11)):
        first = decide_own(view, level, index)
        international.world_scores.cache_clear()
        assert decide_own(json.loads(json.dumps(view)), level, index) == first
        assert decide_own(view, level, index) == first


# ------------------------------------------------------------------ auction decisions

HONOURS = "AS KS QS JS AH KH QH AD KD QD AC KC QC"
LOW = "2S 3S 4S 5S 2H 3H 4H 2D 3D 4D 2C 3C 4C"
MIDDLE = "8S 9S TS JS 8H 9H TH 8D 9D TD 8C 9C TC"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_hand_of_honours_bids_plus(level: str) -> None:
    """The top three cards of every suit take nearly every trick at no-trump: worth far more
    than +1 (25), so the first bidder buys with a plus bid."""
    state = at_hand_six({3: cards(HONOURS)})
    assert answer(state, level).startswith("bid:+")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_hand_of_low_cards_buys_the_minus_deal(level: str) -> None:
    """R2.3: the lowest cards of every suit take no trick in the minus deal (325) and none in a
    plus contract: the cheapest minus bid, -1 (75), is its bid."""
    state = at_hand_six({3: cards(LOW)})
    assert answer(state, level) == "bid:-1"


@pytest.mark.parametrize("level", LEVELS)
def test_a_weak_hand_passes_when_only_plus_bids_are_left(level: str) -> None:
    """Over -2 the lowest-priority bidder may only bid +7 or +8 (R3.2, R3.4); low cards take
    no trick in a plus contract, so paying 175 or 200 for one loses: pass."""
    state = at_hand_six({1: cards(LOW)})
    play(state, "bid:-2", "pass")
    assert state.turn == 1
    assert state.view(1)["legal_moves"] == ["pass", "bid:+7", "bid:+8"]
    assert answer(state, level) == "pass"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_auctioneer_annuls_a_poor_auction_when_annulling_pays_more(level: str) -> None:
    """R3.8: with no card above the jack, any plus contract gives the auctioneer a trick or two
    and the minus deal makes his middle cards take tricks; a +1 sale pays only 25 on top.
    Annulling pays 100, so he annuls."""
    state = at_hand_six({2: cards(MIDDLE)})
    play(state, "bid:+1", "pass", "pass")
    assert state.phase == "decision" and "annul" in state.view(2)["legal_moves"]
    assert answer(state, level) == "annul"


def bought_at_plus_one(hand: str) -> InternationalState:
    state = at_hand_six({3: cards(hand)})
    play(state, "bid:+1", "pass", "pass", "accept")
    assert state.phase == "contract" and state.turn == 3
    return state


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_void_buyer_names_a_trump_suit_he_holds(level: str) -> None:
    """R1.4/R2.5: the dealer leads, and a buyer void in hearts and diamonds ruffs their leads
    with spades or clubs as trumps; at no-trump he would only discard, and with hearts or
    diamonds as trumps every ruff would be against him."""
    state = bought_at_plus_one("AS KS QS JS TS 9S 8S 2C 3C 4C 5C 6C 7C")
    assert answer(state, level) in ("contract:trump:S", "contract:trump:C")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_buyer_with_seven_top_spades_and_no_club_names_spades(level: str) -> None:
    """Seven top spades draw every trump and then ruff the clubs the others lead; at no-trump
    the clubs run against him, with a three-card trump suit his spades get ruffed."""
    state = bought_at_plus_one("AS KS QS JS TS 9S 8S AH KH QH AD KD QD")
    assert answer(state, level) == "contract:trump:S"


# ------------------------------------------------------------------ card play


def card(code: str) -> int:
    return parse_card(code)


def test_no_hearts_void_player_sheds_his_highest_heart() -> None:
    """R1.6 h1: a void player may throw anything; the heart he keeps could be charged later."""
    legal = cards("AH 3H KC")
    assert heuristic_card("no_hearts", -1, legal, [card("2S")], 0, 3, 13) == card("AH")


def test_no_queens_follower_drops_his_queen_under_a_king() -> None:
    """R1.6 h2: under the king of the led suit the queen loses the trick and is gone."""
    legal = cards("QS 2S")
    assert heuristic_card("no_queens", -1, legal, [card("KS")], 0, 0, 13) == card("QS")


def test_no_tricks_follower_ducks_with_his_highest_losing_card() -> None:
    """R1.6 h0: the 8 loses to the 9 and keeps the 2 for later."""
    legal = cards("TC 8C 2C")
    assert heuristic_card("no_tricks", -1, legal, [card("9C")], 0, 0, 13) == card("8C")


def test_no_last_two_spends_high_cards_while_the_tricks_are_free() -> None:
    """R1.6 h5: only the last two tricks cost; early on the ace is best played."""
    legal = cards("AC 2C")
    assert heuristic_card("no_last_two", -1, legal, [card("9C")], 0, 0, 13) == card("AC")
    assert heuristic_card("no_last_two", -1, legal, [card("9C")], 0, 11, 13) == card("2C")


def test_plus_last_seat_wins_as_cheaply_as_it_can() -> None:
    legal = cards("AC QC 2C")
    trick = [card("9C"), card("TC"), card("3C")]
    assert heuristic_card("notrump", -1, legal, trick, 0, 0, 13) == card("QC")


def test_plus_void_second_seat_ruffs_with_its_lowest_trump() -> None:
    """R2.5: a void player may trump; the 2 of trumps takes a club trick as well as the ace."""
    legal = cards("AH 2H 5D")
    hearts = 2
    assert heuristic_card("trump:H", hearts, legal, [card("KC")], 0, 0, 13) == card("2H")


def test_the_king_of_hearts_rules_hold_for_every_level() -> None:
    """R1.7/R1.8 through the view: a leader holding 4♥ and other suits may not lead a heart;
    a follower void in the led suit who holds K♥ plays it."""
    leader = cards("4H 9C 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS")
    follower = cards("KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD")

    def deals(d: int) -> list[int]:
        if d != 4:
            return random_deal(random.Random(d), 52)
        return random_deal(random.Random(d), 52, {0: leader, 1: follower})

    for level in LEVELS:
        state = new_international_match_on_deals_for_tests(deals, {"deck": 52})
        rng = random.Random(3)
        while state.hand_index < 4:
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.turn == 0 and state.contract == "no_king_of_hearts"
        lead = decide_own(state.view(0), level, 5)
        assert lead != "4H"
        state.apply(0, parse_move(lead))
        assert decide_own(state.view(1), level, 5) == "KH"


# ------------------------------------------------------------------ worlds


def test_sample_world_keeps_the_counts_the_pool_and_the_voids() -> None:
    rng = random.Random(4)
    for _ in range(200):
        me = rng.randrange(4)
        pool_cards = rng.sample(range(52), 39)
        pool = sum(1 << c for c in pool_cards)
        counts = [rng.randrange(5, 13) for _ in range(4)]
        counts[me] = 0
        voids = [0, 0, 0, 0]
        voids[(me + 1) & 3] = SUIT_MASK[rng.randrange(4)]
        hands = sample_world(me, pool, counts, voids, rng)
        assert hands[me] == 0
        union = 0
        for seat in range(4):
            if seat != me:
                assert hands[seat].bit_count() == counts[seat]
                assert not union & hands[seat]
                union |= hands[seat]
        assert union & ~pool == 0
        # The void can always be met here: 13 cards of a suit at most, plenty of room.
        assert not hands[(me + 1) & 3] & voids[(me + 1) & 3]


def test_shown_voids_read_the_visible_tricks() -> None:
    """A seat that did not follow the led suit holds none of it; in h4 such a seat also holds
    no K♥ (R1.8); a heart lead in h1/h4 shows a hand of hearts only (R1.6, R1.7)."""
    view = {
        "seat": 0,
        "contract": "no_king_of_hearts",
        "trump": None,
        "deck": 52,
        "my_cards": ["2C"],
        "legal_moves": ["2C"],
        "last_trick": [
            {"seat": 1, "card": "5S"},
            {"seat": 2, "card": "9D"},
            {"seat": 3, "card": "AS"},
            {"seat": 0, "card": "KS"},
        ],
        "trick": [{"seat": 3, "card": "4H"}],
        "trick_no": 5,
        "penalty_cards_taken": [[], [], [], []],
        "card_counts": [8, 8, 8, 7],
    }
    voids = shown_voids(table_of(view))
    assert voids[2] == SUIT_MASK[3] | 1 << card("KH")
    assert voids[3] == DECK_VALUES[52].cards & ~SUIT_MASK[2]
    assert voids[0] == voids[1] == 0


# ------------------------------------------------------------------ arena


def test_the_bid_study_reports_each_sale_at_its_ladder_price() -> None:
    """R3.2/R4.2: every sold hand of the arena's bid study is a positive hand, the buyer is
    not the auctioneer, and the price is the bid's ladder value (the score sheet's own
    payment: the buyer's final score is his base minus it)."""
    sales = bid_study("easy", 2, {"deck": 32}, value_worlds=8)
    assert sales
    ladder = {"+1": 40, "+2": 80, "+3": 120, "-1": 120, "+4": 160, "+5": 200}
    for sale in sales:
        assert 6 <= sale.hand <= 9
        assert sale.buyer != sale.dealer
        assert sale.paid == ladder[sale.price]
