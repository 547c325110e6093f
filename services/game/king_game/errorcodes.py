"""Every error code the game service knows: the one table of each code's HTTP status and what it
means.

The app's error handler answers a coded error (``king_engine.KingError``: the engine's, the
match layer's, the accounts') with its status from here; ``Problem`` takes its status from
here; each view's ``@problems`` decorator documents the codes it may answer under their
statuses from here, and the error table of ``docs/game-api.md`` is ``markdown_table()``
(``python -m king_game.errorcodes`` prints it). So moving a code to another status here moves
it everywhere.

A few codes are raised below the HTTP edge but never sent under their own name (``sent_as``):
``match_not_found`` is answered as ``not_found``; the rest are translated by the layer that
raises them (a bad length into ``bad_table``) or cannot come from a request at all, so one that
reaches the edge is a bug, answered ``internal_error``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ErrorCode:
    status: int
    #: One line for the docs: when a client gets this code (and which fields tell more).
    when: str
    #: The code the client gets instead, for codes that are never sent under their own name.
    sent_as: str | None = None


def _internal(why: str) -> ErrorCode:
    return ErrorCode(500, why, sent_as="internal_error")


ERRORS: dict[str, ErrorCode] = {
    # the request itself
    "validation_failed": ErrorCode(
        422, "a body or query field is wrong: a loose type, a refused name (`errors` names it)"
    ),
    "bad_request": ErrorCode(400, "unreadable request: not JSON, or nested deeper than 16 levels"),
    "payload_too_large": ErrorCode(413, "body over `GAME_MAX_BODY_BYTES` (16 KB)"),
    "request_timeout": ErrorCode(
        408, "the headers or the body came too slowly (`GUNICORN_HEADER_TIMEOUT`, `_BODY_TIMEOUT`)"
    ),
    "uri_too_long": ErrorCode(414, "the request line is too long"),
    "request_header_fields_too_large": ErrorCode(431, "the header section is too large"),
    "unsupported_media_type": ErrorCode(415, "a body that is not `application/json`"),
    "method_not_allowed": ErrorCode(405, "the path has no such method (`Allow` lists them)"),
    "not_found": ErrorCode(404, "no such table/match/route"),
    "rate_limited": ErrorCode(429, "over a limit; `Retry-After` says when to retry"),
    # who is asking
    "unauthenticated": ErrorCode(401, "no token, unknown or revoked token"),
    "token_expired": ErrorCode(
        401, "the token was not used for `GAME_TOKEN_LIFETIME_S` (30 days): log in again"
    ),
    "invalid_credentials": ErrorCode(401, "wrong name or password at log-in"),
    "forbidden": ErrorCode(
        403, "an action the caller may not take (joining a computer table, a bot in quick match)"
    ),
    "not_seated": ErrorCode(403, "reading or acting on a match you do not sit at"),
    "name_taken": ErrorCode(
        409, "a registered player holds the name (case-insensitive), for a sign-up or a guest"
    ),
    # tables
    "bad_table": ErrorCode(422, "impossible table settings (`errors` names the field)"),
    "bad_seed": ErrorCode(422, "client seed is not 64 hex characters (`errors.client_seed`)"),
    "seed_before_commit": ErrorCode(
        422,
        "a `client_seed` (or `sit: true`) sent with table creation: sit through `/seats` after "
        "reading `server_commit`",
    ),
    "seat_taken": ErrorCode(409, "the chosen seat is taken (`details.free_seats`)"),
    "table_full": ErrorCode(409, "no free seat / the match has started"),
    "already_seated": ErrorCode(409, "you already sit at this table"),
    "table_started": ErrorCode(409, "leaving after the start (resign instead)"),
    "seat_reserved": ErrorCode(409, "a quick-match table's seats are held for its four players"),
    # quick match
    "already_queued": ErrorCode(409, "you wait in another pool: leave it first"),
    "already_playing": ErrorCode(409, "you play a live match: finish or resign it first"),
    "table_found": ErrorCode(409, "a table awaits you: confirm it or leave quick match"),
    "no_table_found": ErrorCode(409, "confirming while no table awaits you"),
    "table_expired": ErrorCode(409, "the found table was closed before you confirmed it"),
    # play
    "not_your_turn": ErrorCode(409, "another seat is to move (`details.turn`)"),
    "wrong_phase": ErrorCode(409, "a card during the contract choice or the reverse"),
    "match_not_started": ErrorCode(409, "the match has not started yet"),
    "match_not_over": ErrorCode(409, "too early: seeds are revealed at the end"),
    "match_over": ErrorCode(409, "the match has ended"),
    "seat_forfeited": ErrorCode(409, "you forfeited; a bot plays your seat"),
    "stale_version": ErrorCode(409, "your `version` is old (`current_version`)"),
    "card_not_in_hand": ErrorCode(422, "you do not hold that card"),
    "illegal_card": ErrorCode(
        422,
        "the card breaks a rule (`details.rule`: follow_suit, penalty_discard, "
        "hearts_not_broken, must_trump, must_overtrump, no_trump_first_trick, trump_not_broken)",
    ),
    "contract_unavailable": ErrorCode(
        422, "quota or cap used up (`details.reason`, `details.allowed`)"
    ),
    # traditional's refusals, each with its own code (`details.allowed` lists the picks)
    "contract_cap_reached": ErrorCode(422, "traditional: that penalty was played twice already"),
    "no_penalty_picks_left": ErrorCode(422, "traditional: your three penalty picks are used"),
    "no_koz_picks_left": ErrorCode(422, "traditional: your two Koz picks are used"),
    "koz_not_yet": ErrorCode(422, "traditional: the first four hands are penalties"),
    "penalty_required_after_redeal": ErrorCode(
        422, "traditional: a redealt hand must be a penalty"
    ),
    "not_eligible_for_redeal": ErrorCode(422, "traditional: you may not ask for a redeal now"),
    "illegal_call": ErrorCode(422, "konturlu: that call is not yours to make (`details.reason`)"),
    "pass_not_allowed": ErrorCode(422, "konturlu: the server passes for you in Dürt"),
    "already_passed": ErrorCode(409, "international: you passed; you bid no more this auction"),
    "bid_too_low": ErrorCode(422, "international: a bid must beat the top bid"),
    "match_not_allowed": ErrorCode(422, "international: only a seat with priority may match"),
    "bid_off_ladder": ErrorCode(422, "international: that bid is not on this deck's ladder"),
    "accept_not_allowed": ErrorCode(422, "international: there is no bid to accept"),
    "refuse_not_allowed": ErrorCode(422, "international: the top bid cannot be refused"),
    "annul_not_allowed": ErrorCode(422, "international: the bids are not poor enough to annul"),
    "ultimatum_too_low": ErrorCode(422, "international: an ultimatum must beat the top bid"),
    "contract_not_allowed": ErrorCode(422, "international: you may not name that contract"),
    "bad_move": ErrorCode(422, "the move does not parse (`errors.move`)"),
    "bad_card": ErrorCode(422, "not a card code such as `QH` (`errors.move`)"),
    "bad_suit": ErrorCode(422, "not a suit: C, D, H or S (`errors.move`)"),
    "unknown_contract": ErrorCode(422, "not a contract name (`errors.move`)"),
    "trump_required": ErrorCode(422, "Koz (trump) without a trump suit"),
    "trump_not_allowed": ErrorCode(422, "a trump suit with a penalty contract"),
    "idempotency_key_reused": ErrorCode(422, "same key, different request"),
    # the service
    "busy": ErrorCode(503, "too many concurrent writers on one match; retry"),
    "service_unavailable": ErrorCode(503, "Redis or Postgres is down; `Retry-After` says when"),
    "internal_error": ErrorCode(500, "a bug on our side"),
    # raised below the edge, never sent under their own name
    "match_not_found": ErrorCode(404, "the match layer's name for no such match", "not_found"),
    "not_bot_seat": _internal("a bot turn for a seat no bot plays (bot jobs only)"),
    "unknown_ruleset": _internal("translated into bad_table by the table and quick-match checks"),
    "bad_option": _internal("a ruleset option; tables take none (the table schema refuses it)"),
    "bad_match_length": _internal("translated into bad_table by the table and quick-match checks"),
    "bad_match_id": _internal("a match id that is not a UUID (the store's ids always are)"),
    "bad_seat": _internal("a seat outside 0..3 (seats come from the match record)"),
    "bad_state": _internal("a stored match state that does not decode"),
}


def status_of(code: str) -> int:
    """The HTTP status of ``code`` (KeyError for a code not in the table)."""
    return ERRORS[code].status


def sent(code: str) -> str:
    """The code a client gets for ``code``."""
    return ERRORS[code].sent_as or code


def markdown_table() -> str:
    """The error table of docs/game-api.md: every code a client can get, in the table's order."""
    rows = ["| code | status | when |", "|---|---|---|"]
    rows += [
        f"| `{code}` | {entry.status} | {entry.when} |"
        for code, entry in ERRORS.items()
        if entry.sent_as is None
    ]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
