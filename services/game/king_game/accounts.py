"""Accounts and bearer tokens (Postgres schema ``game``).

Passwords are hashed with argon2id; a token is 32 random bytes (URL-safe text) of which only
the SHA-256 is stored, so a database leak gives no usable token. Looking a token up on every
request would cost a Postgres round trip per move, so a token's account is cached in Redis for
a few minutes, keyed by the token's hash; revoking a token deletes that cache entry at once.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import uuid
from dataclasses import asdict, dataclass

import psycopg
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from psycopg_pool import ConnectionPool
from redis import Redis

_hasher = PasswordHasher()
# Verifying against this keeps a login for an unknown name as slow as one with a wrong password.
_DUMMY_HASH = _hasher.hash("not a password")


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    is_guest: bool
    is_bot: bool


class AccountError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class Accounts:
    def __init__(self, pool: ConnectionPool, redis: Redis, prefix: str, cache_s: int) -> None:
        self.pool = pool
        self.redis = redis
        self.prefix = prefix
        self.cache_s = cache_s

    def _cache_key(self, digest: bytes) -> str:
        return f"{self.prefix}tok:{digest.hex()}"

    def create(self, name: str, password: str | None, is_bot: bool) -> tuple[Account, str]:
        account = Account(str(uuid.uuid4()), name, password is None, is_bot)
        hashed = _hasher.hash(password) if password is not None else None
        try:
            with self.pool.connection() as conn:
                conn.execute(
                    "INSERT INTO game.players (id, name, password_hash, is_guest, is_bot)"
                    " VALUES (%s, %s, %s, %s, %s)",
                    (account.id, name, hashed, account.is_guest, is_bot),
                )
                token = self._issue(conn, account.id)
        except psycopg.errors.UniqueViolation as exc:
            raise AccountError("name_taken", f"the name {name!r} is taken") from exc
        return account, token

    def _issue(self, conn: psycopg.Connection, player_id: str) -> str:  # type: ignore[type-arg]
        token = secrets.token_urlsafe(32)
        conn.execute(
            "INSERT INTO game.tokens (token_hash, player_id) VALUES (%s, %s)",
            (token_hash(token), player_id),
        )
        return token

    def login(self, name: str, password: str) -> tuple[Account, str]:
        with self.pool.connection() as conn:
            row = conn.execute(
                "SELECT id, name, password_hash, is_guest, is_bot FROM game.players"
                " WHERE lower(name) = lower(%s) AND password_hash IS NOT NULL",
                (name,),
            ).fetchone()
            stored = row[2] if row else _DUMMY_HASH
            try:
                _hasher.verify(stored, password)
                ok = row is not None
            except (VerificationError, InvalidHashError):
                ok = False
            if not ok or row is None:
                raise AccountError("invalid_credentials", "unknown name or wrong password")
            account = Account(str(row[0]), row[1], row[3], row[4])
            return account, self._issue(conn, account.id)

    def authenticate(self, token: str) -> Account | None:
        digest = token_hash(token)
        cached = self.redis.get(self._cache_key(digest))
        if cached is not None:
            return Account(**json.loads(cached))
        with self.pool.connection() as conn:
            row = conn.execute(
                "SELECT p.id, p.name, p.is_guest, p.is_bot FROM game.tokens t"
                " JOIN game.players p ON p.id = t.player_id"
                " WHERE t.token_hash = %s AND t.revoked_at IS NULL",
                (digest,),
            ).fetchone()
        if row is None:
            return None
        account = Account(str(row[0]), row[1], row[2], row[3])
        self.redis.set(self._cache_key(digest), json.dumps(asdict(account)), ex=self.cache_s)
        return account

    def revoke(self, token: str) -> None:
        digest = token_hash(token)
        with self.pool.connection() as conn:
            conn.execute(
                "UPDATE game.tokens SET revoked_at = now()"
                " WHERE token_hash = %s AND revoked_at IS NULL",
                (digest,),
            )
        self.redis.delete(self._cache_key(digest))
