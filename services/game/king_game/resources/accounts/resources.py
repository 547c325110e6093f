"""Accounts and tokens: sign up (or play as a guest), log in, revoke a token, read "me"."""

from __future__ import annotations

from typing import Any, ClassVar

from flask.views import MethodView
from king_web.jsonbody import Blueprint

from king_game.accounts import Account
from king_game.context import bearer_token, current_account, game
from king_game.limits import (
    address_key,
    counts_against_limit,
    is_failed_login,
    limiter,
    login_account_key,
    login_account_limit,
    login_limit,
    signup_limit,
)
from king_game.problems import PUBLIC, problems
from king_game.resources import examples
from king_game.resources.accounts.schemas import (
    AccountCreateSchema,
    AccountSchema,
    LoginSchema,
    TokenSchema,
)

blp = Blueprint("accounts", __name__, url_prefix="/v1", description="Accounts and bearer tokens")


def _account(account: Account) -> dict[str, Any]:
    return {
        "id": account.id,
        "name": account.name,
        "is_guest": account.is_guest,
        "is_bot": account.is_bot,
    }


@blp.route("/accounts")
class AccountsView(MethodView):
    decorators: ClassVar[list[Any]] = [
        limiter.limit(signup_limit, key_func=address_key, deduct_when=counts_against_limit)
    ]

    @blp.doc(**PUBLIC)
    @blp.arguments(AccountCreateSchema, example=examples.SIGN_UP)
    @blp.response(201, TokenSchema, example=examples.TOKEN)
    @problems(blp, "name_taken", "validation_failed", "rate_limited")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create an account (name + password) or a guest (name only); returns a token."""
        account, token = game().accounts.create(body["name"], body["password"], body["is_bot"])
        return {"token": token, "account": _account(account)}


@blp.route("/tokens")
class TokensView(MethodView):
    decorators: ClassVar[list[Any]] = [
        limiter.limit(login_limit, key_func=address_key, deduct_when=counts_against_limit),
        # Per account, failures only: see king_game.limits.
        limiter.limit(login_account_limit, key_func=login_account_key, deduct_when=is_failed_login),
    ]

    @blp.doc(**PUBLIC)
    @blp.arguments(LoginSchema, example=examples.LOG_IN)
    @blp.response(201, TokenSchema, example=examples.TOKEN)
    @problems(blp, "invalid_credentials", "validation_failed", "rate_limited")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Log in: a new bearer token for a registered account."""
        account, token = game().accounts.login(body["name"], body["password"])
        return {"token": token, "account": _account(account)}


@blp.route("/tokens/current")
class CurrentTokenView(MethodView):
    @blp.response(204)
    @problems(blp, "unauthenticated")
    def delete(self) -> None:
        """Revoke the token this request carries; it stops working at once."""
        current_account()
        token = bearer_token()
        assert token is not None
        game().accounts.revoke(token)


@blp.route("/me")
class MeView(MethodView):
    @blp.response(200, AccountSchema, example=examples.ACCOUNT)
    @problems(blp, "unauthenticated")
    def get(self) -> dict[str, Any]:
        """The caller's account."""
        return _account(current_account())
