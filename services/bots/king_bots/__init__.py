"""King (Rıfkı) computer opponents.

``king_bots.policies.decide(view, level, seed)`` is the single entry point: a pure function of
one seat's view (and a seed) that returns a legal engine move.
"""

from .policies import BOT_RULESETS, LEVELS, decide

__all__ = ["BOT_RULESETS", "LEVELS", "decide"]
