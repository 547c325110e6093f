"""Shared helpers for the policies: card tables and the "position" a card choice looks at.

A card decision needs the same few numbers whether it is made from a ``SeatView`` (the real
move) or from a simulated ``MatchState`` (a playout inside the hard bot's search):

* ``hand`` / ``legal`` — the mover's cards and the cards it may play (masks);
* ``contract`` / ``trump`` — the hand's contract id and trump suit (-1 for none);
* ``count`` / ``led`` / ``best`` / ``trick`` — cards already in the current trick, the led
  suit, the card winning it so far and the mask of the trick's cards;
* ``earlier`` / ``trick_no`` — cards of the completed tricks of this hand and their number.

``position_of_view`` derives them from a view; ``position_of_state`` from a state, reading only
public information plus the mover's own hand (a playout's mover is whoever is to play).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from king_engine import CONTRACTS, MatchState, SeatView
from king_engine.cards import CARD_SUIT, FULL_DECK, SUIT_MASK

RANK: Final = tuple(c % 13 for c in range(52))
# PENALTY[contract][card]: what taking ``card`` costs under ``contract`` (a positive number).
PENALTY: Final = tuple(
    tuple(-spec.per_card if spec.card_mask >> c & 1 else 0 for c in range(52)) for spec in CONTRACTS
)
PENALTY_MASK: Final = tuple(spec.card_mask for spec in CONTRACTS)
LOW_MASK: Final = tuple((1 << c) - 1 for c in range(52))  # cards with a lower id than c
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
    count: int
    led: int
    best: int
    trick: int
    earlier: int
    trick_no: int

    @property
    def unseen(self) -> int:
        """Cards the mover has not seen: held by the other three seats."""
        return FULL_DECK & ~(self.earlier | self.trick | self.hand)


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
    )


def position_of_state(state: MatchState) -> Position:
    rules = state.rules
    assert rules is not None
    hand = state.hands[state.turn]
    legal = rules.legal(hand, state.led, state.trick, state.earlier, state.trick_no)
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
    )
