"""Accounts and bearer tokens (Postgres schema ``game``).

Passwords are hashed with argon2id; a token is 32 random bytes (URL-safe text) of which only
the SHA-256 is stored, so a database leak gives no usable token.

Looking a token up on every request would cost a Postgres round trip per move, so a token's
account is cached at two levels, keyed by the token's hash: in Redis for ``cache_s`` seconds
(shared by every copy of the service), and in the process itself for ``local_cache_s`` seconds
(no round trip at all on the hot path). A token that is unknown or revoked is cached in Redis
too, as "no account", so a flood of invented tokens costs one Redis read each, not a query;
a token of another shape than the ones issued is refused without any lookup.

Revocation wins every race with a lookup:

* Redis: a lookup that misses *claims* the entry (a nonce, ``SET NX``) before it reads
  Postgres, and fills it only if its claim is still there (a compare-and-set script).
  Revoking updates Postgres, then overwrites the entry with "no account". A lookup that read
  Postgres before the update finds its claim gone and writes nothing; one that read after it
  saw the revocation.
* The process: revoking publishes the hash on ``<prefix>revoked``; every process drops it from
  its own cache when the message arrives (the game service's Pub/Sub listener,
  ``king_match.notify``), and clears its whole cache when that listener had to reconnect (it
  may have missed a message). A lookup that began before a message arrived does not put its
  answer in the process cache (``_generation``). A revocation is seen everywhere within
  milliseconds; ``local_cache_s`` bounds only a message lost without a reconnect. Whatever
  else must end with the token (its open streams and long-polls, ``king_game.follows``)
  listens to the same moment (``on_forget``).

A token expires once it has not been used for ``lifetime_s`` (30 days by default), and each
use slides that forward: Postgres keeps when the token was last *renewed* (``used_at``), and a
lookup that reaches Postgres (a cache miss, at most every ``cache_s`` + ``local_cache_s`` for a
token in use) renews it when that was more than ``renew_s`` ago (a day by default). So a token
in use costs one write a day, not one a request, and its expiry is always at least
``lifetime_s - renew_s`` away when a cache takes it, longer than any cache keeps it (checked
at start). An expired token is cached in Redis as such and refused with ``token_expired``.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import psycopg
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from psycopg_pool import ConnectionPool
from redis import Redis

from king_engine import KingError
from king_game.names import lookalike_key

_hasher = PasswordHasher()
# Verifying against this keeps a login for an unknown name as slow as one with a wrong password.
_DUMMY_HASH = _hasher.hash("not a password")


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    is_guest: bool
    is_bot: bool


class AccountError(KingError):
    """A sign-up, log-in or token refused: one of ``CODES``."""


#: Codes raised by this module.
CODES = ("name_taken", "invalid_credentials", "token_expired")


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


_LOCAL_MAX = 100_000
#: What ``secrets.token_urlsafe(32)`` gives: anything else was never issued.
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
#: The Redis entry of a token without an account (unknown, or revoked).
_NO_ACCOUNT = "-"
#: The Redis entry of a token that expired (unused for the lifetime).
_EXPIRED = "x"
#: The prefix of a lookup's claim on an empty entry, and how long a claim may stand (a lookup
#: that takes longer, or a process that died in one, leaves the entry to the next lookup).
_CLAIM = "?"
_CLAIM_S = 30
# Fill the entry (KEYS[1]) with ARGV[2] for ARGV[3] s only while it holds our claim ARGV[1].
_FILL_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
  return 1
end
return 0
"""


class Accounts:
    def __init__(
        self,
        pool: ConnectionPool,
        redis: Redis,
        prefix: str,
        cache_s: int,
        local_cache_s: float = 300.0,
        clock: Callable[[], float] = time.monotonic,
        *,
        lifetime_s: float = 30 * 86400,
        renew_s: float = 86400,
    ) -> None:
        # A token is renewed when a cache misses and takes it: it must then outlive the
        # caches' time, or a cache could answer for a token past its expiry.
        if renew_s + cache_s + max(local_cache_s, 0) >= lifetime_s:
            raise ValueError(
                f"a token's lifetime ({lifetime_s} s) must exceed its renewal interval "
                f"({renew_s} s) plus the token caches' times ({cache_s} s + {local_cache_s} s)"
            )
        self.pool = pool
        self.redis = redis
        self.prefix = prefix
        self.cache_s = cache_s
        self.local_cache_s = local_cache_s
        self.clock = clock
        self.lifetime = timedelta(seconds=lifetime_s)
        self.renew = timedelta(seconds=renew_s)
        self._on_forget: list[Callable[[str | None], None]] = []
        self._local: dict[bytes, tuple[Account, float]] = {}
        self._lock = threading.Lock()
        # +1 on every forget: a lookup that started before a revocation must not cache.
        self._generation = 0
        self._fill = redis.register_script(_FILL_SCRIPT)

    @property
    def revoked_channel(self) -> str:
        return f"{self.prefix}revoked"

    def _cache_key(self, digest: bytes) -> str:
        return f"{self.prefix}tok:{digest.hex()}"

    def on_forget(self, callback: Callable[[str | None], None]) -> None:
        """Call ``callback`` with every token hash (hex) ``forget`` drops (None: a message may
        have been missed), after it dropped it."""
        self._on_forget.append(callback)

    def forget(self, digest_hex: str | None) -> None:
        """Drop one token (by its hash, hex) from this process's cache; None: all of them.
        Called by the Pub/Sub listener, and by ``revoke`` for its own process."""
        with self._lock:
            self._generation += 1
            if digest_hex is None:
                self._local.clear()
            else:
                self._local.pop(bytes.fromhex(digest_hex), None)
        for callback in self._on_forget:
            callback(digest_hex)

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
        key = lookalike_key(name)
        try:
            with self.pool.connection() as conn:
                # Registered names are unique (the index, case-insensitive), and no name may
                # look like a registered one (the lookalike key, king_game.names); a guest may
                # share a name with other guests.
                registered = conn.execute(
                    "SELECT 1 FROM game.players WHERE password_hash IS NOT NULL"
                    " AND (lower(name) = lower(%s) OR name_key = %s) LIMIT 1",
                    (name, key),
                ).fetchone()
                if registered is not None:
                    raise AccountError("name_taken", f"the name {name!r} is taken")
                conn.execute(
                    "INSERT INTO game.players"
                    " (id, name, password_hash, is_guest, is_bot, name_key)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    (account.id, name, hashed, account.is_guest, is_bot, key),
                )
                token = self._issue(conn, account.id)
        except psycopg.errors.UniqueViolation as exc:
            raise AccountError("name_taken", f"the name {name!r} is taken") from exc
        return account, token

    def _issue(self, conn: psycopg.Connection, player_id: str) -> str:
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
        """The account of a valid token; None for a token unknown or revoked, AccountError
        ``token_expired`` for one unused for the lifetime."""
        if _TOKEN_SHAPE.fullmatch(token) is None:
            return None
        digest = token_hash(token)
        local = self._local.get(digest)
        if local is not None and local[1] > self.clock():
            return local[0]
        generation = self._generation
        key = self._cache_key(digest)
        raw = self.redis.get(key)
        cached = raw.decode() if isinstance(raw, bytes) else raw
        if cached == _NO_ACCOUNT:
            return None
        if cached == _EXPIRED:
            raise _expired()
        if cached is not None and not cached.startswith(_CLAIM):
            hit = _account_from_cache(cached)
            self._remember(digest, hit, generation)
            return hit
        # A miss: claim the entry first, so that a revocation during the query voids the
        # claim (another lookup's claim: read Postgres, leave the entry to that lookup).
        claim = _CLAIM + secrets.token_hex(8)
        claimed = cached is None and self.redis.set(key, claim, nx=True, ex=_CLAIM_S)
        found = self._lookup(digest)
        if claimed:
            value = found if isinstance(found, str) else _cache_text(found)
            self._fill(keys=[key], args=[claim, value, self.cache_s])
        if found == _EXPIRED:
            raise _expired()
        if isinstance(found, str):
            return None
        self._remember(digest, found, generation)
        return found

    def _lookup(self, digest: bytes) -> Account | str:
        """From Postgres: the account of an unrevoked, unexpired token (renewed if it was
        last renewed more than ``renew`` ago), else ``_NO_ACCOUNT`` or ``_EXPIRED``."""
        with self.pool.connection() as conn:
            row = conn.execute(
                "SELECT p.id, p.name, p.is_guest, p.is_bot,"
                " t.used_at <= now() - %s AS expired, t.used_at <= now() - %s AS due"
                " FROM game.tokens t JOIN game.players p ON p.id = t.player_id"
                " WHERE t.token_hash = %s AND t.revoked_at IS NULL",
                (self.lifetime, self.renew, digest),
            ).fetchone()
            if row is None:
                return _NO_ACCOUNT
            if row[4]:
                return _EXPIRED
            if row[5]:  # the sliding renewal: once per ``renew``, not once per request
                conn.execute(
                    "UPDATE game.tokens SET used_at = now()"
                    " WHERE token_hash = %s AND revoked_at IS NULL",
                    (digest,),
                )
        return Account(str(row[0]), row[1], row[2], row[3])

    def revoke(self, token: str) -> None:
        digest = token_hash(token)
        with self.pool.connection() as conn:
            conn.execute(
                "UPDATE game.tokens SET revoked_at = now()"
                " WHERE token_hash = %s AND revoked_at IS NULL",
                (digest,),
            )
        # Overwrite, not delete: this also voids the claim of a lookup that read Postgres
        # before the update (it then writes nothing), and answers later lookups from Redis.
        self.redis.set(self._cache_key(digest), _NO_ACCOUNT, ex=self.cache_s)
        self.forget(digest.hex())
        self.redis.publish(self.revoked_channel, digest.hex())


def _expired() -> AccountError:
    return AccountError(
        "token_expired", "the token expired (unused for too long): log in again for a new one"
    )


def _cache_text(account: Account) -> str:
    """The Redis cache entry of a token's account: compact, one per connected player."""
    return f"{account.id}|{int(account.is_guest)}{int(account.is_bot)}|{account.name}"


def _account_from_cache(raw: bytes | str) -> Account:
    text = raw.decode() if isinstance(raw, bytes) else raw
    ident, flags, name = text.split("|", 2)
    return Account(ident, name, flags[0] == "1", flags[1] == "1")
