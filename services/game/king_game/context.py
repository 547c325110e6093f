"""Per-app objects the views share, and the request's caller."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, g, request
from redis import Redis

from king_game.accounts import Account, AccountError, Accounts
from king_game.config import Settings
from king_game.follows import Follows
from king_game.problems import Problem
from king_game.ratings import RatingLookup
from king_match import MatchStore, MoveRate, Player
from king_match.quickmatch import QuickMatch


@dataclass(slots=True)
class GameContext:
    settings: Settings
    store: MatchStore
    accounts: Accounts
    redis: Redis
    #: The open streams and long-polls by token, which a revocation ends.
    follows: Follows
    #: The per-player move limit the store counts (None: rate limits are off).
    move_rate: MoveRate | None = None
    quick: QuickMatch | None = None
    ratings: RatingLookup | None = None


def game() -> GameContext:
    context: GameContext = current_app.extensions["king_game"]
    return context


def bearer_token() -> str | None:
    return token_of(request.headers.get("Authorization", ""))


def token_of(authorization: str) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header's value, else None."""
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def current_account() -> Account:
    """The caller's account; 401 ``unauthenticated`` without a valid, unrevoked token."""
    account: Account | None = g.get("account")
    if account is not None:
        return account
    token = bearer_token()
    if token is None:
        raise Problem(
            "unauthenticated",
            "a bearer token is required (Authorization: Bearer <token>)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if "account" not in g:  # (the rate limiter may have looked the token up already)
        account = authenticated(token)
    if account is None:
        raise Problem(
            "unauthenticated",
            "the token is unknown or revoked",
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        )
    g.account = account
    return account


def authenticated(token: str) -> Account | None:
    """The token's account (None: unknown or revoked); 401 ``token_expired`` if it expired."""
    try:
        return game().accounts.authenticate(token)
    except AccountError as exc:
        raise Problem(
            exc.code,
            exc.message,
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        ) from exc


def current_player() -> Player:
    account = current_account()
    return Player(account.id, account.name, account.is_bot, account.is_guest)
