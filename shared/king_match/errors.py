"""Errors of the match layer, each with a stable ``code`` the HTTP edge maps to a status.

``MatchError`` is a ``KingError`` (the engine's base of coded errors), so ``except KingError``
catches the match layer's refusals too: catch ``MatchError`` first where the two differ. The
engine's own errors (``IllegalMove``, ``BadInput``) pass through unchanged: they already carry
stable codes (``not_your_turn``, ``illegal_card``, ``contract_unavailable`` ...).
"""

from __future__ import annotations

from king_engine.errors import KingError


class MatchError(KingError):
    """A request the match layer refuses; nothing was changed."""


class StaleVersion(MatchError):
    """The client's expected version is not the match's current version."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            "stale_version",
            f"the match is at version {current}, not {expected}; re-read it and retry",
            expected=expected,
            current_version=current,
        )
        self.current = current


class RateLimited(MatchError):
    """Too many moves in the current window (counted by the store's load, see ``MoveRate``)."""

    def __init__(self, limit: int, window_s: float, retry_after_ms: int) -> None:
        super().__init__(
            "rate_limited",
            f"more than {limit} moves in {window_s:g} s; retry after Retry-After seconds",
            limit=limit,
            retry_after_s=max(1, -(-retry_after_ms // 1000)),
        )


#: Codes raised by this package (the engine's codes come on top).
CODES = (
    "match_not_found",
    "stale_version",
    "seat_taken",
    "table_full",
    "already_seated",
    "not_seated",
    "table_started",
    "match_over",
    "seat_forfeited",
    "not_bot_seat",
    "idempotency_key_reused",
    "rate_limited",
    "busy",
    "bad_seed",
    "bad_table",
    "match_not_started",
    "match_not_over",
    "seat_reserved",
    "already_queued",
    "table_found",
    "no_table_found",
    "table_expired",
)
