"""The bots of ``international``: auction, contract choice and card play, from the seat's view.

* **Cards**: ``international_play.choose_card`` at every level (easy plays a random legal
  card 30 % of the time).
* **Valuing the right to name the contract** (bids, the auctioneer's decision, an ultimatum
  answer, the contract): medium and hard deal the unseen cards at random to the other seats
  (``WORLDS`` worlds for medium, ``HARD_WORLDS`` for hard) and play each positive contract out
  with the heuristic, the dealer leading; a contract is worth the mean score it gives this seat.
  Easy counts its sure tricks instead (aces, guarded kings, trump length) with noise.
* **Bidding**: a bidder raises (or matches) to the cheapest bid that still leaves it more than
  it expects without the right (``OUTSIDE_SHARE`` of a hand's plus points); the auctioneer takes
  the best of selling at the top bid, playing himself and annulling; an ultimatum is answered
  the same way. Bids carry only sign and number (D26), so nothing private leaks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from king_engine.cards import SUIT_CHARS, SUIT_MASK, parse_card, rank_of

from .international_play import cards_of, choose_card, play_out, sample_hands

WORLDS: Final = 30
HARD_WORLDS: Final = 150
EASY_NOISE: Final = 0.3
#: What a seat expects from a positive hand it does not name, as a share of the hand's plus
#: points (325 or 320): a non-declarer takes about a fifth of the tricks.
OUTSIDE_SHARE: Final = 0.2
#: A bid must leave at least this many points over not buying (bids are a gamble on the play).
MARGIN: Final = 10


@dataclass(frozen=True, slots=True)
class Deck:
    """The deck option's numbers (R5.2)."""

    size: int
    tricks: int
    plus_unit: int
    minus_unit: int
    minus_start: int
    annul_dealer: int

    @property
    def cards(self) -> int:
        low = 0 if self.size == 52 else 5  # the 32 cards are 7..A
        return sum(1 << (s * 13 + r) for s in range(4) for r in range(low, 13))


DECKS: Final = {
    52: Deck(52, 13, 25, 75, 325, 100),
    32: Deck(32, 8, 40, 120, 320, 95),
}


def bid_value(bid: str, deck: Deck) -> int:
    """What a bid (``+3``, ``-1``) pays."""
    number = int(bid[1:])
    return number * (deck.minus_unit if bid[0] == "-" else deck.plus_unit)


def contract_trump(contract: str) -> int:
    return SUIT_CHARS.index(contract[-1]) if contract.startswith("trump:") else -1


def base_score(contract: str, tricks: float, deck: Deck) -> float:
    """This seat's base score (R2.7) for taking ``tricks`` under a positive contract."""
    if contract == "minus":
        return deck.minus_start - deck.minus_unit * tricks
    return deck.plus_unit * tricks


POSITIVE: Final = ("trump:S", "trump:H", "trump:D", "trump:C", "notrump", "minus")


def simulated_values(
    me: int, mine: int, dealer: int, deck: Deck, worlds: int, rng: random.Random
) -> dict[str, float]:
    """Each positive contract's mean base score for ``me`` when ``me`` names it, over
    ``worlds`` random deals of the cards ``me`` does not hold, the dealer leading."""
    unseen = deck.cards & ~mine
    sizes = [deck.tricks] * 4
    totals = dict.fromkeys(POSITIVE, 0.0)
    for _ in range(worlds):
        hands = sample_hands(me, mine, unseen, sizes, rng)
        for contract in POSITIVE:
            taken = play_out(hands, dealer, contract, contract_trump(contract), deck.tricks)
            totals[contract] += base_score(contract, taken[me], deck)
    return {contract: total / worlds for contract, total in totals.items()}


def estimated_values(mine: int, deck: Deck, rng: random.Random) -> dict[str, float]:
    """The easy bot's count: aces, kings with a guard, and length in the trump suit."""
    values: dict[str, float] = {}
    for contract in POSITIVE:
        trump = contract_trump(contract)
        sure = 0.0
        for suit in range(4):
            held = [rank_of(card) for card in cards_of(mine & SUIT_MASK[suit])]
            sure += sum(1 for rank in held if rank == 12)
            sure += sum(0.6 for rank in held if rank == 11 and len(held) >= 2)
            if suit == trump:
                sure += max(0, len(held) - 3) * 0.8
        if contract == "minus":
            sure = deck.tricks / 4 + (sure - 2) * 0.7
        noisy = max(0.0, sure + rng.uniform(-1.0, 1.0))
        values[contract] = base_score(contract, noisy, deck)
    return values


def _values(view: dict[str, Any], level: str, rng: random.Random) -> dict[str, float]:
    deck = DECKS[int(view.get("deck", 52))]
    mine = _mask(view["my_cards"])
    if level == "easy":
        return estimated_values(mine, deck, rng)
    worlds = HARD_WORLDS if level == "hard" else WORLDS
    return simulated_values(int(view["seat"]), mine, int(view["dealer"]), deck, worlds, rng)


def _mask(codes: Sequence[str]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << parse_card(code)
    return mask


def best_for(values: dict[str, float], family: str) -> float:
    """The best value among the contracts a buyer of a ``plus`` or ``minus`` bid may name."""
    if family == "minus":
        return values["minus"]
    return max(value for contract, value in values.items() if contract != "minus")


def choose_bid(legal: Sequence[str], values: dict[str, float], deck: Deck) -> str:
    """The cheapest legal bid that leaves more than not buying, else ``pass``."""
    outside = OUTSIDE_SHARE * deck.plus_unit * deck.tricks
    bids = [move for move in legal if move.startswith("bid:")]
    for move in sorted(bids, key=lambda m: bid_value(m[4:], deck)):
        bid = move[4:]
        family = "minus" if bid[0] == "-" else "plus"
        if best_for(values, family) - bid_value(bid, deck) > outside + MARGIN:
            return move
    return "pass"


def choose_decision(
    legal: Sequence[str], values: dict[str, float], top: str | None, deck: Deck
) -> str:
    """The auctioneer's decision: sell at the top bid, play himself, or annul."""
    outside = OUTSIDE_SHARE * deck.plus_unit * deck.tricks
    options: dict[str, float] = {}
    if "accept" in legal and top is not None:
        options["accept"] = bid_value(top, deck) + outside
    if "refuse" in legal:
        options["refuse"] = max(values.values())
    if "annul" in legal:
        options["annul"] = float(deck.annul_dealer)
    if not options:
        return legal[0]
    return max(options, key=lambda move: options[move])


def choose_answer(values: dict[str, float], demand: str, deck: Deck) -> str:
    """``take`` an ultimatum when the right is worth its price to this seat."""
    outside = OUTSIDE_SHARE * deck.plus_unit * deck.tricks
    family = "minus" if demand[0] == "-" else "plus"
    gain = best_for(values, family) - bid_value(demand, deck)
    return "take" if gain > outside + MARGIN else "decline"


def choose_contract(legal: Sequence[str], values: dict[str, float]) -> str:
    return max(legal, key=lambda move: values.get(move.removeprefix("contract:"), float("-inf")))


def decide(view: dict[str, Any], level: str, seed: int) -> str:
    """The move (text form) of the bot of ``level`` in the seat view ``view``."""
    rng = random.Random(seed)
    legal: list[str] = list(view["legal_moves"])
    if len(legal) == 1:
        return legal[0]
    deck = DECKS[int(view.get("deck", 52))]
    phase = view.get("phase")
    if phase == "play":
        return _card(view, legal, level, rng)
    values = _values(view, level, rng)
    if phase == "bidding":
        return choose_bid(legal, values, deck)
    if phase == "decision":
        return choose_decision(legal, values, view.get("top_bid"), deck)
    if phase == "ultimatum":
        demand = (view.get("ultimatum") or {}).get("demand")
        return choose_answer(values, demand, deck) if demand else "decline"
    if phase == "contract":
        return choose_contract(legal, values)
    return rng.choice(legal)


def _card(view: dict[str, Any], legal: list[str], level: str, rng: random.Random) -> str:
    if level == "easy" and rng.random() < EASY_NOISE:
        return rng.choice(legal)
    contract = str(view.get("contract") or "")
    trick = [parse_card(code) for code in _trick_cards(view)]
    played = _mask(view.get("played_cards") or [])
    legal_mask = _mask(legal)
    card = choose_card(legal_mask, trick, contract, contract_trump(contract), played)
    return _code(card, legal)


def _trick_cards(view: dict[str, Any]) -> list[str]:
    trick = view.get("current_trick") or []
    return [entry["card"] if isinstance(entry, dict) else entry[1] for entry in trick]


def _code(card: int, legal: list[str]) -> str:
    for move in legal:
        if parse_card(move) == card:
            return move
    return legal[0]


__all__ = ["decide"]
