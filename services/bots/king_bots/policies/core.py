"""Shared helpers for the policies: card tables and the "position" a card choice looks at.

A card decision needs the same few numbers whether it is made from a ``SeatView`` (the real
move) or from a simulated ``MatchState`` (a playout inside the hard bot's search):

* ``hand`` / ``legal`` — the mover's cards and the cards it may play (masks);
* ``contract`` / ``trump`` — the hand's contract id and trump suit (-1 for none);
* ``trick_count`` / ``led`` / ``best`` / ``trick`` — cards already in the current trick, the
  led suit, the card winning it so far and the mask of the trick's cards;
* ``earlier`` / ``trick_no`` — cards of the completed tricks of this hand and their number;
* ``seat`` / ``voids`` — the mover's seat and, in Koz only, what the plays of this hand showed
  about the suits each seat is out of (``voids_of_plays``; 0 in the penalty contracts, which do
  not use it). Whether a discard also shows "no trump" depends on the hand rules: only where a
  void player must trump (``must_ruff``; not in ``traditional``, whose ruff is free).

``position_of_view`` derives them from a view; ``position_of_state`` from a state, reading only
public information plus the mover's own hand (a playout's mover is whoever is to play).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

from king_engine import CONTRACTS, MatchState, SeatView, get_ruleset
from king_engine.cards import CARD_SUIT, FULL_DECK, SUIT_MASK
from king_engine.contracts import TRUMP
from king_engine.rulesets import HandRules

RANK: Final = tuple(c % 13 for c in range(52))
# PENALTY[contract][card]: what taking ``card`` costs under ``contract`` (a positive number).
PENALTY: Final = tuple(
    tuple(-spec.per_card if spec.card_mask >> c & 1 else 0 for c in range(52)) for spec in CONTRACTS
)
PENALTY_MASK: Final = tuple(spec.card_mask for spec in CONTRACTS)
# What each penalty card of a contract costs: every card of its mask costs the same.
PENALTY_UNIT: Final = tuple(-spec.per_card for spec in CONTRACTS)
LOW_MASK: Final = tuple((1 << c) - 1 for c in range(52))  # cards with a lower id than c
ABOVE_MASK: Final = tuple(FULL_DECK & ~((2 << c) - 1) for c in range(52))  # a higher id than c
SUIT_OF: Final = CARD_SUIT


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def higher_in_suit(mask: int, card: int) -> int:
    """The cards of ``mask`` in ``card``'s suit that outrank it."""
    return mask & SUIT_MASK[CARD_SUIT[card]] & ~LOW_MASK[card] & ~(1 << card)


def lower_in_suit(mask: int, card: int) -> int:
    return mask & SUIT_MASK[CARD_SUIT[card]] & LOW_MASK[card]


class Position(NamedTuple):
    hand: int
    legal: int
    contract: int
    trump: int
    trick_count: int
    led: int
    best: int
    trick: int
    earlier: int
    trick_no: int
    seat: int = -1
    voids: int = 0  # bit 4 * seat + suit: that seat is known to hold no card of that suit

    @property
    def unseen(self) -> int:
        """Cards the mover has not seen: held by the other three seats."""
        return FULL_DECK & ~(self.earlier | self.trick | self.hand)


def must_ruff(rules: HandRules) -> bool:
    """Whether a void player must trump under these Koz rules (a discard then shows no trump)."""
    return bool(rules.discard_mask & rules.trump_mask)


def void_bits(seat: int, card: int, led: int, trump: int, trick_no: int, ruff: bool = True) -> int:
    """What playing ``card`` on a trick led in suit ``led`` shows about ``seat``'s hand (Koz).

    Not following shows a void in the led suit; where a void player must trump (``ruff``), not
    following with a non-trump also shows that the seat holds no trump. In the first trick that
    second inference is skipped (classic20 forbids discarding a trump there)."""
    suit = CARD_SUIT[card]
    if led < 0 or suit == led:
        return 0
    bits = 1 << (4 * seat + led)
    if ruff and suit != trump and trump >= 0 and trick_no > 0:
        bits |= 1 << (4 * seat + trump)
    return bits


def voids_of_plays(plays: Iterable[tuple[int, int]], trump: int, ruff: bool = True) -> int:
    """Void bits (see ``Position.voids``) from this hand's (seat, card) plays in order."""
    voids = 0
    led = -1
    for index, (seat, card) in enumerate(plays):
        if index % 4 == 0:
            led = CARD_SUIT[card]
        else:
            voids |= void_bits(seat, card, led, trump, index // 4, ruff)
    return voids


def trick_state(plays: tuple[tuple[int, int], ...], trump: int) -> tuple[int, int, int, int]:
    """(led suit, best card, best seat, trick mask) of a partial trick."""
    led = best = best_seat = -1
    trick = 0
    for seat, card in plays:
        trick |= 1 << card
        if best < 0:
            led, best, best_seat = CARD_SUIT[card], card, seat
        elif CARD_SUIT[card] == CARD_SUIT[best]:
            if card > best:
                best, best_seat = card, seat
        elif CARD_SUIT[card] == trump:
            best, best_seat = card, seat
    return led, best, best_seat, trick


def position_of_view(view: SeatView) -> Position:
    current = view.current_trick
    plays = current.plays if current else ()
    led, best, _, trick = trick_state(plays, view.trump)
    completed = sum(1 for t in view.tricks if t.winner is not None)
    voids = 0
    if view.contract == TRUMP:
        rules = get_ruleset(view.ruleset).hand_rules(view.contract, view.trump)
        plays_so_far = (p for t in view.tricks for p in t.plays)
        voids = voids_of_plays(plays_so_far, view.trump, must_ruff(rules))
    return Position(
        view.hand,
        view.legal_cards,
        view.contract,
        view.trump,
        len(plays),
        led,
        best,
        trick,
        view.played & ~trick,
        completed,
        view.seat,
        voids,
    )


def position_of_state(state: MatchState) -> Position:
    rules = state.rules
    assert rules is not None
    hand = state.hands[state.turn]
    legal = rules.legal(hand, state.led, state.trick, state.earlier, state.trick_no)
    voids = 0
    if state.contract == TRUMP:
        plays = ((p >> 6, p & 63) for p in state.plays)
        voids = voids_of_plays(plays, state.trump, must_ruff(rules))
    return Position(
        hand,
        legal,
        state.contract,
        state.trump,
        state.trick_count,
        state.led,
        state.best,
        state.trick,
        state.earlier,
        state.trick_no,
        state.turn,
        voids,
    )
