"""Bot policies: pure functions of a ``SeatView``.

``decide(view, level, seed, budget_s)`` returns a legal ``PlayCard``, ``ChooseContract`` or
``Call`` (the one-word moves of ``traditional``, see ``calls.py``) for the seat whose turn it
is. It reads nothing but the view (never another seat's cards), the level and the seed:

* ``easy`` — a crude rule with 30 % random legal cards; contracts by a quick hand estimate
  with noise;
* ``medium`` — per-contract heuristics (``heuristic.py``); contracts by a small simulation
  among the best-looking options;
* ``hard`` — determinized search (``search.py``) within ``budget_s`` seconds (default
  ``KING_BOTS_HARD_BUDGET_S`` or 0.55 s), its sampled worlds drawn by how likely the observed
  plays were in them (``HARD_TRUST``, ``HARD_STEPS``) and its endgame our best reply to the
  medium policy (``HARD_REPLY``).

The arena adds two specs that are no level here: ``hard_v1`` (the levers off: the hard bot as
it was before them) and ``omniscient`` (the ceiling, which needs the true hands;
``king_bots.arena``).

For the same view, level and seed the answer is the same, except that the hard bot under a
time budget may complete a different number of sampled worlds on a busier machine; ``Policy``
with ``worlds=`` gives the fixed-iteration mode (fully deterministic) used by the arena and the
tests.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

from king_engine import (
    PHASE_ANNOUNCE,
    PHASE_CONTRACT,
    PHASE_PLAY,
    PHASE_REDEAL_OFFER,
    Call,
    ChooseContract,
    Move,
    PlayCard,
    SeatView,
)
from king_engine.moves import REDEAL

from .calls import decide_call, wants_redeal
from .contracts import easy_contract, shortlist
from .core import cards, position_of_view
from .heuristic import easy_card, medium_card
from .search import Budget, evaluate_contracts, hard_card, hard_contract

LEVELS = ("easy", "medium", "hard")
# Every engine ruleset the policies play end to end (the game service serves a subset of them,
# ``king_match.served.SERVED_RULESETS``; the arena measures all of these).
BOT_RULESETS = ("standard", "classic20", "traditional")
DEFAULT_HARD_BUDGET_S = 0.55
MEDIUM_CONTRACT_KEEP = 3  # options the medium bot simulates
MEDIUM_CONTRACT_WORLDS = 3  # sampled deals per simulated option
# The hard search's levers (``search.hard_card``; docs/bots-arena.md has the figures): the
# chance its world chain gives that another seat played the medium policy's card, the chain's
# swaps between two worlds, and from how many cards in hand it plays the best reply to medium.
HARD_TRUST = 0.9
HARD_STEPS = 20
HARD_REPLY = 4


def hard_budget_s() -> float:
    """The hard bot's thinking time per move for this deployment (seconds)."""
    try:
        value = float(os.environ.get("KING_BOTS_HARD_BUDGET_S", DEFAULT_HARD_BUDGET_S))
    except ValueError:
        return DEFAULT_HARD_BUDGET_S
    return value if value > 0 else DEFAULT_HARD_BUDGET_S


@dataclass(frozen=True, slots=True)
class Policy:
    """A configured policy: ``level`` plus options.

    ``noise``: probability of replacing the card choice by a random legal card (the arena's
    "medium that plays a random card 20 % of the time"; easy has its own 30 % built in).
    ``worlds``: hard bot in fixed-iteration mode (sampled worlds per decision) instead of a
    time budget. ``budget_s``: hard bot's time budget (None: the deployment default).
    ``trust`` / ``steps`` / ``reply``: the hard search's levers (``search.hard_card``); None
    takes ``HARD_TRUST`` / ``HARD_STEPS`` / ``HARD_REPLY``, 0 turns one off (all three off:
    the arena's ``hard_v1``).
    """

    level: str
    noise: float = 0.0
    worlds: int | None = None
    budget_s: float | None = None
    trust: float | None = None
    steps: int | None = None
    reply: int | None = None

    def __post_init__(self) -> None:
        if self.level not in (*LEVELS, "random"):
            raise ValueError(f"unknown bot level {self.level!r} (one of {', '.join(LEVELS)})")
        if self.trust is not None and not 0.0 <= self.trust < 1.0:
            raise ValueError("trust must be in [0, 1)")
        if (self.steps or 0) < 0 or (self.reply or 0) < 0:
            raise ValueError("steps and reply must not be negative")

    def decide(self, view: SeatView, seed: int) -> Move:
        if not view.my_turn or view.phase not in _MOVING_PHASES:
            raise ValueError("it is not this seat's turn")
        rng = random.Random(seed)
        if view.phase == PHASE_CONTRACT:
            if not view.allowed_contracts:
                raise ValueError("no contract is allowed in this view")
            return self._contract(view, rng)
        if view.phase != PHASE_PLAY:
            if not view.calls:
                raise ValueError("no call is allowed in this view")
            if self.level == "random":
                return Call(rng.choice(view.calls))
            return decide_call(view, self.level, rng)
        if "redeal" in view.calls and wants_redeal(self.level, rng):
            return REDEAL  # the Kupa request: a 13-heart hand under a forced Kupa
        if not view.legal_cards:
            raise ValueError("no legal card in this view")
        if self.level == "random" or (self.noise and rng.random() < self.noise):
            return PlayCard(rng.choice(cards(view.legal_cards)))
        return PlayCard(self._card(view, rng))

    def _contract(self, view: SeatView, rng: random.Random) -> ChooseContract:
        level = self.level
        if level == "random":
            return rng.choice(view.allowed_contracts)
        if level == "easy":
            return easy_contract(view, rng)
        if level == "medium":
            options = shortlist(view, MEDIUM_CONTRACT_KEEP)
            if len(options) == 1:
                return options[0]
            values = evaluate_contracts(view, options, rng, Budget(None, MEDIUM_CONTRACT_WORLDS))
            return options[max(range(len(options)), key=lambda i: (values[i], -i))]
        budget = self.budget_s if self.budget_s is not None else hard_budget_s()
        return hard_contract(view, rng, budget, self.worlds)

    def _card(self, view: SeatView, rng: random.Random) -> int:
        level = self.level
        if level == "easy":
            return easy_card(position_of_view(view), rng)
        if level == "medium":
            return medium_card(position_of_view(view))
        budget = self.budget_s if self.budget_s is not None else hard_budget_s()
        return hard_card(
            view, rng, budget, self.worlds,
            trust=HARD_TRUST if self.trust is None else self.trust,
            steps=HARD_STEPS if self.steps is None else self.steps,
            reply=HARD_REPLY if self.reply is None else self.reply,
        )  # fmt: skip


_MOVING_PHASES = (PHASE_CONTRACT, PHASE_PLAY, PHASE_REDEAL_OFFER, PHASE_ANNOUNCE)


def decide(view: SeatView, level: str, seed: int, budget_s: float | None = None) -> Move:
    """A legal move for ``view.seat`` (whose turn it must be), deterministic given ``seed``.

    ``level`` is "easy", "medium" or "hard"; ``budget_s`` is the hard bot's thinking time
    (None: ``KING_BOTS_HARD_BUDGET_S`` or 0.55 s); the other levels ignore it.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    return Policy(level, budget_s=budget_s).decide(view, seed)


__all__ = [
    "BOT_RULESETS",
    "DEFAULT_HARD_BUDGET_S",
    "HARD_REPLY",
    "HARD_STEPS",
    "HARD_TRUST",
    "LEVELS",
    "Policy",
    "decide",
    "hard_budget_s",
]
