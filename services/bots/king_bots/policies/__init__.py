"""Bot policies: pure functions of a ``SeatView``.

``decide(view, level, seed, budget_s)`` returns a legal ``PlayCard`` or ``ChooseContract`` for
the seat whose turn it is. The result depends only on the view, the level and the seed.
"""

from __future__ import annotations

import random

from king_engine import ChooseContract, Move, PlayCard, SeatView
from king_engine.cards import cards_in

LEVELS = ("easy", "medium", "hard")


def decide(view: SeatView, level: str, seed: int, budget_s: float | None = None) -> Move:
    """A legal move for ``view.seat`` (whose turn it must be), deterministic given ``seed``."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    if not view.my_turn:
        raise ValueError("it is not this seat's turn")
    rng = random.Random(seed)
    if view.allowed_contracts:
        choice: ChooseContract = rng.choice(view.allowed_contracts)
        return choice
    cards = list(cards_in(view.legal_cards))
    if not cards:
        raise ValueError("no legal move in this view")
    return PlayCard(rng.choice(cards))
