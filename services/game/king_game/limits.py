"""Rate limits (Flask-Limiter, counters in Redis so every copy of the service shares them).

Each caller is counted by token (the hash of it, never the token) or, without one, by address;
every address also has an overall ceiling. Moves by a player (a valid token) get their own,
generous limit, per player: a fast client must never lose on time because of a limiter. The
match store counts it (same Redis, same fixed windows) inside the script that loads the match,
so the hottest endpoint pays no extra round trip for it; Flask-Limiter leaves those moves alone
(``_a_players_move``). A move without a valid token is limited like any other request (the
caller's limit and the address's ceiling). Log-ins are also limited per account, counting only
failures over a short window (``GAME_RATE_LOGIN_ACCOUNT``): guessing from many addresses is
slowed, and whoever floods an account with wrong passwords keeps its log-in refused only
while they keep failing (tokens already issued keep working).

A breach answers 429 problem+json with ``Retry-After``: the seconds until the breached
window ends (``king_web.problems``).

``X-RateLimit-*`` headers are off: each would cost another Redis round trip on every request
(the remaining count is read separately from the hit), and the 429 carries what a client needs.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import TYPE_CHECKING

from flask import Response, current_app, g, request
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.util import get_remote_address
from limits import parse

from king_game.context import bearer_token, game
from king_match import MoveRate

if TYPE_CHECKING:
    from king_game.config import Settings


def caller_key() -> str:
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return "tok:" + hashlib.sha256(header[7:].strip().encode()).hexdigest()[:16]
    return "addr:" + get_remote_address()


def address_key() -> str:
    return "addr:" + get_remote_address()


def login_account_key() -> str:
    """The account a log-in names (a hash of its folded name), for the per-account limit."""
    try:
        body = request.get_json(silent=True)
    except Exception:  # too large, or unreadable: the view refuses it, no failure is counted
        body = None
    name = body.get("name") if isinstance(body, dict) else None
    if not isinstance(name, str):
        return "acct:-"
    folded = unicodedata.normalize("NFKC", name).strip().casefold()
    return "acct:" + hashlib.sha256(folded.encode()).hexdigest()[:16]


def _setting(name: str) -> str:
    value: str = getattr(current_app.extensions["king_game"].settings, name)
    return value


def default_limit() -> str:
    return _setting("rate_default")


def counts_against_limit(response: Response) -> bool:
    """Whether a sign-up or log-in answer uses up the caller's allowance: refusals (4xx, a
    wrong password included) do, a 503 does not (a Postgres outage must not spend the hourly
    sign-ups of everyone behind an address)."""
    return response.status_code < 500


def is_failed_login(response: Response) -> bool:
    """Only wrong names or passwords count against an account's log-in limit."""
    return response.status_code == 401


def move_rate(settings: Settings) -> MoveRate | None:
    """The moves limit (``GAME_RATE_MOVES``, Flask-Limiter notation) for the match store,
    which counts moves per player in the round trip that loads the match."""
    if not settings.rate_limits_enabled:
        return None
    item = parse(settings.rate_moves)
    return MoveRate(item.amount, item.get_expiry() * 1000)


def address_limit() -> str:
    return _setting("rate_per_address")


def signup_limit() -> str:
    return _setting("rate_signup")


def login_limit() -> str:
    return _setting("rate_login")


def login_account_limit() -> str:
    return _setting("rate_login_account")


limiter = Limiter(
    key_func=caller_key,
    default_limits=[default_limit],
    application_limits=[ApplicationLimit(address_limit, key_function=address_key)],
    headers_enabled=False,
    strategy="fixed-window",
    key_prefix="king-game",
)


_MOVES_ENDPOINT = "matches.MovesView"


@limiter.request_filter
def _a_players_move() -> bool:
    """A move with a valid token skips Flask-Limiter: the match store counts it per player.
    The account found is kept for the view; any other move is limited like every request."""
    if request.endpoint != _MOVES_ENDPOINT:
        return False
    if "account" in g:
        return g.account is not None
    token = bearer_token()
    if token is None:
        return False
    try:
        g.account = game().accounts.authenticate(token)
    except Exception:  # Redis or Postgres down: the view answers 503
        return False
    return g.account is not None
