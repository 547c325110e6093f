"""Policies for the rulesets with their own state class (``konturlu``, ``international``).

They read the seat's JSON view (``state.view(seat)``: own cards, public facts and the legal
moves' text forms) and answer one of its ``legal_moves``. ``OWN_POLICIES`` names each
ruleset's policy; a ruleset without one gets the seeded random legal move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import international, konturlu

OwnPolicy = Callable[[dict[str, Any], str, int], str]

OWN_POLICIES: dict[str, OwnPolicy] = {
    "international": international.decide,
    "konturlu": konturlu.decide,
}


def decide_own(view: dict[str, Any], level: str, seed: int) -> str:
    """The move (text form) the bot of ``level`` plays in ``view``: one of its legal moves."""
    legal = view.get("legal_moves") or []
    if not legal:
        raise ValueError("the view has no legal move: not this seat's turn")
    policy = OWN_POLICIES.get(str(view.get("ruleset")))
    if policy is None:
        return str(random.Random(seed).choice(legal))
    return policy(view, level, seed)
