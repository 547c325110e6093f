"""Accounts and bearer tokens (Postgres schema ``game``).

Passwords are hashed with argon2id; a token is 32 random bytes (URL-safe text) of which only
the SHA-256 is stored, so a database leak gives no usable token.

Looking a token up on every request would cost a Postgres round trip per move, so a token's
account is cached at two levels, keyed by the token's hash: in Redis for a few minutes (shared
by every copy of the service), and in the process itself for ``local_cache_s`` seconds (no
round trip at all on the hot path). Revoking a token deletes the Redis entry and publishes the
hash on ``<prefix>revoked``; every process drops it from its own cache when the message
arrives (the game service's Pub/Sub listener, ``king_match.notify``), and clears its whole
cache when that listener had to reconnect (it may have missed a message). The local TTL bounds
what is left: a revocation is seen everywhere within milliseconds, and in the worst case within
``local_cache_s``.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

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


_LOCAL_MAX = 100_000


class Accounts:
    def __init__(
        self,
        pool: ConnectionPool,
        redis: Redis,
        prefix: str,
        cache_s: int,
        local_cache_s: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pool = pool
        self.redis = redis
        self.prefix = prefix
        self.cache_s = cache_s
        self.local_cache_s = local_cache_s
        self.clock = clock
        self._local: dict[bytes, tuple[Account, float]] = {}
        self._lock = threading.Lock()
        # +1 on every forget: a lookup that started before a revocation must not cache.
        self._generation = 0

    @property
    def revoked_channel(self) -> str:
        return f"{self.prefix}revoked"

    def _cache_key(self, digest: bytes) -> str:
        return f"{self.prefix}tok:{digest.hex()}"

    def forget(self, digest_hex: str | None) -> None:
        """Drop one token (by its hash, hex) from this process's cache; None: all of them.
        Called by the Pub/Sub listener."""
        with self._lock:
            self._generation += 1
            if digest_hex is None:
                self._local.clear()
            else:
                self._local.pop(bytes.fromhex(digest_hex), None)

    def _remember(self, digest: bytes, account: Account, generation: int) -> None:
        if self.local_cache_s <= 0:
            return
        with self._lock:
            if generation != self._generation:
                return
            if len(self._local) >= _LOCAL_MAX:
                self._local.clear()
            self._local[digest] = (account, self.clock() + self.local_cache_s)

    def create(self, name: str, password: str | None, is_bot: bool) -> tuple[Account, str]:
        account = Account(str(uuid.uuid4()), name, password is None, is_bot)
        hashed = _hasher.hash(password) if password is not None else None
        try:
            with self.pool.connection() as conn:
                # Registered names are unique (the index); a guest may share a name with other
                # guests, never with a registered player (case-insensitive).
                if password is None:
                    registered = conn.execute(
                        "SELECT 1 FROM game.players"
                        " WHERE lower(name) = lower(%s) AND password_hash IS NOT NULL",
                        (name,),
                    ).fetchone()
                    if registered is not None:
                        raise AccountError("name_taken", f"the name {name!r} is taken")
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
        local = self._local.get(digest)
        if local is not None and local[1] > self.clock():
            return local[0]
        generation = self._generation
        cached = self.redis.get(self._cache_key(digest))
        if cached is not None:
            account = _account_from_cache(cached)
            self._remember(digest, account, generation)
            return account
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
        self.redis.set(self._cache_key(digest), _cache_text(account), ex=self.cache_s)
        self._remember(digest, account, generation)
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
        self.forget(digest.hex())
        self.redis.publish(self.revoked_channel, digest.hex())


def _cache_text(account: Account) -> str:
    """The Redis cache entry of a token's account: compact, one per connected player."""
    return f"{account.id}|{int(account.is_guest)}{int(account.is_bot)}|{account.name}"


def _account_from_cache(raw: bytes | str) -> Account:
    text = raw.decode() if isinstance(raw, bytes) else raw
    ident, flags, name = text.split("|", 2)
    return Account(ident, name, flags[0] == "1", flags[1] == "1")
