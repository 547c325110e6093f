"""The bots of ``international``: auction, contract choice and card play, from the seat's view.

* **Valuing a positive hand** (medium, hard): deal the cards this seat does not hold at random to
  the other seats (``WORLDS``) and play each of the six positive contracts out with the
  heuristic card play, the dealer leading (R1.4). That gives, per world and contract, all four
  seats' base scores (R2.7); the play does not depend on who declared, so one table answers
  every question of the auction (``Valuation``):

  - a contract is worth this seat's mean score under it; the right is worth the best contract
    its family allows (a plus bid names a plus contract, a minus bid plays minus: R3.9);
  - not buying is worth this seat's mean score when the auctioneer plays himself, naming the
    contract that is best for him in each world;
  - a bidder bids the cheapest legal bid that still leaves more than not buying, else passes;
  - the auctioneer takes the best of accepting (the price plus his score when the holder names
    the holder's best contract), refusing (his best contract), annulling (R3.8) and each
    ultimatum (taken in a world by the first seat, in priority order, for which it pays there);
  - an ultimatum is taken when the right is worth its price to this seat.

  The worlds are drawn from a seed made of the view's own facts (cards, seat, dealer, deck), so
  every decision of one auction reads the same table, and the table is cached.
* **Easy** counts sure tricks (aces, guarded kings, trump length) with noise instead, and plays
  a random legal card 30 % of the time, else the heuristic.
* **Card play**: medium plays ``heuristic_card``. Hard samples worlds consistent with what the
  view shows (own cards, the trick in progress, the last trick, the penalty cards taken, the
  card counts, voids shown in those two tricks), tries every legal card in each and plays the
  rest of the hand out with the heuristic; it plays the card with the best mean score.

The view holds only the current and the last trick (R7.2), so a stateless bot cannot count the
cards of earlier tricks: the sampling puts them among the unseen cards it leaves unplaced.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from king_engine.cards import HEARTS, KING_OF_HEARTS, SUIT_CHARS, SUIT_MASK, parse_card
from king_engine.international.rules import (
    ALL_POSITIVE_CONTRACTS,
    BID_TEXTS,
    DECK_VALUES,
    MINUS,
    NO_HEARTS,
    NO_KING_OF_HEARTS,
    PLUS_CONTRACTS,
    DeckValues,
    trump_of,
)

from .core import cards as cards_of
from .international_play import heuristic_card, play_rest, sample_world

#: Worlds a hand valuation plays out (each world plays all six contracts).
WORLDS: Final = {"medium": 32, "hard": 128}
#: Playouts the hard bot spends on one card decision, spread over its legal cards.
HARD_PLAYOUTS: Final = 400
HARD_MIN_WORLDS: Final = 16
HARD_MAX_WORLDS: Final = 60
EASY_NOISE: Final = 0.3
#: Easy's guess of what a seat gets from a positive hand it does not name: a fifth of the
#: hand's plus points.
OUTSIDE_SHARE: Final = 0.2
#: Points a purchase must leave over not buying (the valuation is an estimate).
MARGIN: Final = 5


def bid_value(bid: str, values: DeckValues) -> int:
    """What a bid (``+3``, ``-1``) pays (R3.2, R5.2)."""
    return values.bid_value(BID_TEXTS.index(bid))


def family_contracts(bid: str) -> tuple[str, ...]:
    """The contracts a buyer at ``bid`` may name (R3.9)."""
    return (MINUS,) if bid.startswith("-") else PLUS_CONTRACTS


def _mask(codes: Sequence[str]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << parse_card(code)
    return mask


# ------------------------------------------------------------------ valuation


World = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]


@lru_cache(maxsize=1024)
def world_scores(me: int, mine: int, dealer: int, deck: int, worlds: int) -> tuple[World, ...]:
    """Per world (the other hands drawn at random): each seat's pick of contract, by the
    count of its own cards (``count_values``), as (any contract, plus contract) indices, and
    per contract of ``ALL_POSITIVE_CONTRACTS`` the four seats' base scores when it is played
    out, the dealer leading."""
    values = DECK_VALUES[deck]
    rng = random.Random(f"international-value:{me}:{mine}:{dealer}:{deck}:{worlds}")
    pool = values.cards & ~mine
    counts = [values.tricks] * 4
    table = []
    for _ in range(worlds):
        hands = sample_world(me, pool, counts, [0, 0, 0, 0], rng)
        hands[me] = mine
        row = []
        for contract in ALL_POSITIVE_CONTRACTS:
            points = play_rest(contract, trump_of(contract), values, hands, (), dealer, 0)
            if contract == MINUS:
                points = [values.positive_total + p for p in points]
            row.append(tuple(points))
        picks = []
        for hand in hands:
            count = count_values(hand, values)
            picks.append(max(_PICK_ORDER, key=count.__getitem__))
            picks.append(max(_PICK_ORDER[:-1], key=count.__getitem__))
        table.append((tuple(picks), tuple(row)))
    return tuple(table)


_INDEX: Final = {contract: i for i, contract in enumerate(ALL_POSITIVE_CONTRACTS)}
#: The order ties are broken in when a seat picks by its count: no-trump before a trump suit
#: it holds no length in, the minus deal last (it is the last entry, left out for a plus buyer).
_PICK_ORDER: Final = (4, 0, 1, 2, 3, 5)


@dataclass(frozen=True, slots=True)
class Valuation:
    """What one seat's simulation says about a positive hand (see the module docstring)."""

    me: int
    dealer: int
    values: DeckValues
    table: tuple[World, ...]

    def mean(self, seat: int, contract: str) -> float:
        c = _INDEX[contract]
        return sum(row[c][seat] for _, row in self.table) / len(self.table)

    def right(self, seat: int, family: Sequence[str]) -> float:
        """The best mean score ``seat`` gets naming a contract of ``family``."""
        return max(self.mean(seat, contract) for contract in family)

    @staticmethod
    def _pick(picks: tuple[int, ...], seat: int, family: Sequence[str]) -> int:
        """The contract index ``seat`` names among ``family`` (all six, the plus five, or
        minus alone) in the world whose picks are ``picks``."""
        if len(family) == 1:
            return _INDEX[family[0]]
        return picks[2 * seat + (family == PLUS_CONTRACTS)]

    def declared_by(self, declarer: int, family: Sequence[str], seat: int) -> float:
        """``seat``'s mean score when ``declarer`` names, in each world, the contract of
        ``family`` its own cards' count picks."""
        total = 0
        for picks, row in self.table:
            total += row[self._pick(picks, declarer, family)][seat]
        return total / len(self.table)

    def outside(self, seat: int) -> float:
        """``seat``'s mean score when the auctioneer plays himself."""
        return self.declared_by(self.dealer, ALL_POSITIVE_CONTRACTS, seat)

    def surplus(self, seat: int, bid: str) -> float:
        """What buying at ``bid`` leaves ``seat`` over not buying."""
        return (
            self.right(seat, family_contracts(bid))
            - bid_value(bid, self.values)
            - self.outside(seat)
        )

    def ultimatum(self, demand: str) -> float:
        """The auctioneer's mean score after demanding ``demand`` (R3.7): in each world the first
        seat in priority order for which the purchase pays there takes it; if none does, he
        plays his best contract."""
        dealer = self.dealer
        family = family_contracts(demand)
        price = bid_value(demand, self.values)
        own = _INDEX[max(ALL_POSITIVE_CONTRACTS, key=lambda c: self.mean(dealer, c))]
        total = 0.0
        for picks, row in self.table:
            score = float(row[own][dealer])
            for step in (1, 2, 3):
                seat = (dealer + step) & 3
                bought = self._pick(picks, seat, family)
                if row[bought][seat] - price > row[own][seat] + MARGIN:
                    score = price + row[bought][dealer]
                    break
            total += score
        return total / len(self.table)


def valuation(view: dict[str, Any], worlds: int) -> Valuation:
    me = int(view["seat"])
    dealer = int(view["dealer"])
    deck = int(view["deck"])
    table = world_scores(me, _mask(view["my_cards"]), dealer, deck, worlds)
    return Valuation(me, dealer, DECK_VALUES[deck], table)


def choose_bid(legal: Sequence[str], value: Valuation) -> str:
    """The cheapest legal bid that still leaves more than not buying (at equal price the one
    that leaves more), else ``pass``."""
    best: tuple[float, float, str] | None = None
    for move in legal:
        if not move.startswith("bid:"):
            continue
        bid = move[4:]
        surplus = value.surplus(value.me, bid)
        if surplus > MARGIN:
            key = (bid_value(bid, value.values), -surplus, move)
            if best is None or key < best:
                best = key
    return best[2] if best is not None else "pass"


def decision_values(
    legal: Sequence[str], value: Valuation, top: str | None, holder: int | None
) -> dict[str, float]:
    """The auctioneer's mean score after each legal decision (``holder`` holds ``top``)."""
    dealer = value.dealer
    options: dict[str, float] = {}
    for move in legal:
        if move == "accept" and top is not None and holder is not None:
            family = family_contracts(top)
            options[move] = bid_value(top, value.values) + value.declared_by(holder, family, dealer)
        elif move == "refuse":
            options[move] = value.right(dealer, ALL_POSITIVE_CONTRACTS)
        elif move == "annul":
            options[move] = float(value.values.annul_auctioneer)
        elif move.startswith("ultimatum:"):
            options[move] = value.ultimatum(move[10:]) - MARGIN
    return options


def choose_answer(value: Valuation, demand: str) -> str:
    """``take`` an ultimatum when the right is worth its price to this seat."""
    return "take" if value.surplus(value.me, demand) > MARGIN else "decline"


def choose_contract(legal: Sequence[str], value: Valuation) -> str:
    return max(legal, key=lambda move: value.mean(value.me, move.removeprefix("contract:")))


# ------------------------------------------------------------------ easy's count


def count_values(hand: int, values: DeckValues) -> tuple[float, ...]:
    """A count of what each contract of ``ALL_POSITIVE_CONTRACTS`` is worth to ``hand``: aces,
    kings with a guard and length in the trump suit as tricks; for the minus deal, a quarter of
    the tricks moved by the count."""
    out = []
    for contract in ALL_POSITIVE_CONTRACTS:
        trump = trump_of(contract)
        sure = 0.0
        for suit in range(4):
            ranks = [card % 13 for card in cards_of(hand & SUIT_MASK[suit])]
            sure += ranks.count(12)
            sure += 0.6 * (11 in ranks and len(ranks) >= 2)
            if suit == trump:
                sure += max(0, len(ranks) - 3) * 0.8
        if contract == MINUS:
            taken = max(0.0, values.tricks / 4 + (sure - 2) * 0.7)
            out.append(values.positive_total - values.minus_unit * taken)
        else:
            out.append(values.plus_unit * sure)
    return tuple(out)


def estimated_values(mine: int, values: DeckValues, rng: random.Random) -> dict[str, float]:
    """Easy's count per contract (``count_values``) with up to a trick of noise."""
    return {
        contract: value + rng.uniform(-1.0, 1.0) * values.plus_unit
        for contract, value in zip(ALL_POSITIVE_CONTRACTS, count_values(mine, values), strict=True)
    }


def _easy_auction(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    values = DECK_VALUES[int(view["deck"])]
    guess = estimated_values(_mask(view["my_cards"]), values, rng)
    outside = OUTSIDE_SHARE * values.positive_total
    phase = view["phase"]

    def gain(bid: str) -> float:
        best = max(guess[c] for c in family_contracts(bid))
        return best - bid_value(bid, values) - outside

    if phase == "bidding":
        bids = [m for m in legal if m.startswith("bid:") and gain(m[4:]) > MARGIN]
        return min(bids, key=lambda m: bid_value(m[4:], values)) if bids else "pass"
    if phase == "decision":
        top = view.get("top_bid")
        options = {"refuse": max(guess.values()), "annul": float(values.annul_auctioneer)}
        if top is not None:
            options["accept"] = bid_value(top, values) + outside
        return max((m for m in legal if m in options), key=options.__getitem__, default=legal[0])
    if phase == "ultimatum":
        return "take" if gain(view["ultimatum"]["demand"]) > MARGIN else "decline"
    return max(legal, key=lambda m: guess.get(m.removeprefix("contract:"), float("-inf")))


# ------------------------------------------------------------------ card play


@dataclass(frozen=True, slots=True)
class Table:
    """The play facts a card decision reads from the view."""

    me: int
    contract: str
    trump: int
    values: DeckValues
    mine: int
    legal: int
    trick: list[tuple[int, int]]
    last: list[tuple[int, int]]
    gone: int
    taken_penalty: int
    trick_no: int
    counts: list[int]


def table_of(view: dict[str, Any]) -> Table:
    trump = view.get("trump")
    taken_penalty = 0
    for codes in view.get("penalty_cards_taken") or []:
        taken_penalty |= _mask(codes)
    last = [(int(e["seat"]), parse_card(e["card"])) for e in view.get("last_trick") or []]
    gone = taken_penalty
    for _, card in last:
        gone |= 1 << card
    return Table(
        me=int(view["seat"]),
        contract=str(view["contract"]),
        trump=SUIT_CHARS.index(trump) if trump else -1,
        values=DECK_VALUES[int(view["deck"])],
        mine=_mask(view["my_cards"]),
        legal=_mask(view["legal_moves"]),
        trick=[(int(e["seat"]), parse_card(e["card"])) for e in view.get("trick") or []],
        last=last,
        gone=gone,
        taken_penalty=taken_penalty,
        trick_no=int(view["trick_no"]),
        counts=[int(c) for c in view["card_counts"]],
    )


def medium_card(table: Table) -> int:
    return heuristic_card(
        table.contract,
        table.trump,
        table.legal,
        [card for _, card in table.trick],
        table.gone,
        table.trick_no,
        table.values.tricks,
    )


_NOT_HEARTS: Final = ~SUIT_MASK[HEARTS]


def shown_voids(table: Table) -> list[int]:
    """Per seat, the cards the two visible tricks prove it does not hold: the led suit when it
    did not follow; K♥ when it was void in ``no_king_of_hearts`` and did not play it (R1.8);
    every non-heart when it led a heart in ``no_hearts``/``no_king_of_hearts`` (R1.6, R1.7).
    A void stays a void: cards only leave a hand."""
    voids = [0, 0, 0, 0]
    heart_lead_rule = table.contract in (NO_HEARTS, NO_KING_OF_HEARTS)
    for trick in (table.last, table.trick):
        if not trick:
            continue
        leader, first = trick[0]
        led = SUIT_MASK[first // 13]
        if heart_lead_rule and first // 13 == HEARTS:
            voids[leader] |= _NOT_HEARTS & table.values.cards
        for seat, card in trick[1:]:
            if not led >> card & 1:
                voids[seat] |= led
                if table.contract == NO_KING_OF_HEARTS and card != KING_OF_HEARTS:
                    voids[seat] |= 1 << KING_OF_HEARTS
    return voids


def hard_card(table: Table, rng: random.Random) -> int:
    """The legal card with the best mean score over worlds consistent with the view, the rest
    of the hand played out with the heuristic (ties: the heuristic's own card)."""
    candidates = cards_of(table.legal)
    default = medium_card(table)
    if len(candidates) == 1:
        return candidates[0]
    seen = table.mine | table.gone
    for _, card in table.trick:
        seen |= 1 << card
    pool = table.values.cards & ~seen
    voids = shown_voids(table)
    worlds = max(HARD_MIN_WORLDS, min(HARD_MAX_WORLDS, HARD_PLAYOUTS // len(candidates)))
    totals = dict.fromkeys(candidates, 0)
    me = table.me
    for _ in range(worlds):
        hands = sample_world(me, pool, table.counts, voids, rng)
        for card in candidates:
            hands[me] = table.mine ^ (1 << card)
            trick = [*table.trick, (me, card)]
            points = play_rest(
                table.contract,
                table.trump,
                table.values,
                hands,
                trick,
                (me + 1) & 3,
                table.trick_no,
                table.gone,
                table.taken_penalty,
            )
            totals[card] += points[me]
    return max(candidates, key=lambda c: (totals[c], c == default))


# ------------------------------------------------------------------ entry point


def decide(view: dict[str, Any], level: str, seed: int) -> str:
    """The move (text form) of the bot of ``level`` in the seat view ``view``."""
    legal: list[str] = list(view["legal_moves"])
    if len(legal) == 1:
        return legal[0]
    rng = random.Random(seed)
    phase = view["phase"]
    if phase == "play":
        table = table_of(view)
        if level == "easy":
            card = rng.choice(cards_of(table.legal)) if rng.random() < EASY_NOISE else None
            card = medium_card(table) if card is None else card
        elif level == "hard":
            card = hard_card(table, rng)
        else:
            card = medium_card(table)
        return next(move for move in legal if parse_card(move) == card)
    if level == "easy":
        return _easy_auction(view, legal, rng)
    value = valuation(view, WORLDS["hard" if level == "hard" else "medium"])
    if phase == "bidding":
        return choose_bid(legal, value)
    if phase == "decision":
        holder = view.get("top_holder")
        options = decision_values(legal, value, view.get("top_bid"), holder)
        return max(legal, key=lambda move: options.get(move, float("-inf")))
    if phase == "ultimatum":
        return choose_answer(value, view["ultimatum"]["demand"])
    return choose_contract(legal, value)


__all__ = ["decide"]
