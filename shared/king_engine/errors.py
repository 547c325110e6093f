"""The engine's one error hierarchy, and the base of every coded error above it.

Every error carries a stable machine-readable ``code`` (part of the public API: clients switch
on it) and a message that names the offending input. The match layer's ``MatchError`` and the
game service's ``AccountError`` derive from ``KingError`` too, so the HTTP edge maps every code
to its status in one place; the engine knows nothing about HTTP or the layers above it.
"""

from __future__ import annotations

from typing import Any


class KingError(Exception):
    """Base class of every coded error: ``code`` is stable, ``message`` is for people,
    ``details`` for programs."""

    code: str = "king_error"

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class BadInput(KingError):
    """Input that does not parse: a bad card code, suit, move text or serialised state."""


class ConfigError(KingError):
    """A match that cannot be set up: unknown ruleset (``unknown_ruleset``), bad length
    (``bad_match_length``), a bad ruleset option (``bad_option``), bad deal keys."""


class IllegalMove(KingError):
    """A well-formed move that the rules do not allow now.

    Codes: ``not_your_turn``, ``wrong_phase``, ``match_over``, ``card_not_in_hand``,
    ``illegal_card`` (with ``details["rule"]`` naming the rule), ``contract_unavailable``
    (with ``details["reason"]``: ``quota``, ``cap`` or ``trump_quota``), ``trump_required``,
    ``trump_not_allowed``; in ``traditional`` a refused contract has its own code
    (``contract_cap_reached``, ``no_penalty_picks_left``, ``no_koz_picks_left``, ``koz_not_yet``,
    ``penalty_required_after_redeal``), a refused ``redeal`` ``not_eligible_for_redeal`` and
    a forfeited seat's ``king`` ``seat_forfeited``.
    """


#: Codes raised by the engine.
CODES = (
    "not_your_turn",
    "wrong_phase",
    "match_over",
    "card_not_in_hand",
    "illegal_card",
    "contract_unavailable",
    "trump_required",
    "trump_not_allowed",
    "bad_move",
    "bad_card",
    "bad_suit",
    "unknown_contract",
    "bad_seat",
    "bad_seed",
    "bad_match_id",
    "bad_state",
    "unknown_ruleset",
    "bad_match_length",
    "bad_option",
    # traditional (RULES-traditional.md §1.8, §3.8): why a contract or a call is refused
    "contract_cap_reached",
    "no_penalty_picks_left",
    "no_koz_picks_left",
    "koz_not_yet",
    "penalty_required_after_redeal",
    "not_eligible_for_redeal",
    "seat_forfeited",  # a forfeited seat announcing King (§4.5)
    # konturlu (RULES-konturlu.md §3, §4): a call the speaker may not make; a Dürt pass sent
    "illegal_call",
    "pass_not_allowed",
    # international (RULES-international.md §3): why an auction move or a contract is refused
    "already_passed",
    "bid_too_low",
    "match_not_allowed",
    "bid_off_ladder",
    "accept_not_allowed",
    "refuse_not_allowed",
    "annul_not_allowed",
    "ultimatum_too_low",
    "contract_not_allowed",
)

# The rules a card can break, reported as details["rule"] of an ``illegal_card`` error.
RULE_FOLLOW_SUIT = "follow_suit"
RULE_PENALTY_DISCARD = "penalty_discard"
RULE_HEARTS_NOT_BROKEN = "hearts_not_broken"
RULE_MUST_TRUMP = "must_trump"
RULE_MUST_OVERTRUMP = "must_overtrump"
RULE_NO_TRUMP_FIRST_TRICK = "no_trump_first_trick"
RULE_TRUMP_NOT_BROKEN = "trump_not_broken"
# konturlu: Kupa's leader with only hearts leads the highest; Rıfkı's void player plays a heart;
# a Dürt card must open its suit at the named rank or extend a run.
RULE_HIGHEST_HEART = "highest_heart"
RULE_MUST_PLAY_HEART = "must_play_heart"
RULE_DURT_LAYOUT = "durt_layout"
# international: no heart lead unless only hearts (hands 1 and 4), K♥ never led unless the last
# card, and a void player holding K♥ plays it (hand 4).
RULE_HEART_LEAD = "heart_lead"
RULE_KING_OF_HEARTS_LEAD = "king_of_hearts_lead"
RULE_MUST_PLAY_KING_OF_HEARTS = "must_play_king_of_hearts"

ILLEGAL_CARD_RULES = (
    RULE_FOLLOW_SUIT,
    RULE_PENALTY_DISCARD,
    RULE_HEARTS_NOT_BROKEN,
    RULE_MUST_TRUMP,
    RULE_MUST_OVERTRUMP,
    RULE_NO_TRUMP_FIRST_TRICK,
    RULE_TRUMP_NOT_BROKEN,
    RULE_HIGHEST_HEART,
    RULE_MUST_PLAY_HEART,
    RULE_DURT_LAYOUT,
    RULE_HEART_LEAD,
    RULE_KING_OF_HEARTS_LEAD,
    RULE_MUST_PLAY_KING_OF_HEARTS,
)
