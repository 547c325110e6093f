"""Settings from the environment, with defaults that work on a developer's machine."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Any

from king_match import MatchSettings
from king_match.quickmatch import QuickSettings, Window

DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/king_game"


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    match: MatchSettings = field(default_factory=MatchSettings)
    #: Largest request body accepted (bytes); a move is under 200.
    max_body_bytes: int = 16 * 1024
    #: Flask-Limiter limits. Moves are generous: a fast client must never lose on time.
    rate_default: str = "600/minute"
    rate_moves: str = "1200/minute"
    rate_per_address: str = "6000/minute"
    rate_signup: str = "30/hour"
    rate_login: str = "60/minute"
    #: Failed log-ins per account (any address). A short window: whoever sends wrong
    #: passwords for an account can keep its log-in refused only while they keep doing so.
    rate_login_account: str = "10/minute"
    rate_limits_enabled: bool = True
    longpoll_max_s: float = 25.0
    stream_heartbeat_s: float = 15.0
    stream_max_s: float = 600.0
    token_cache_s: int = 300
    #: Seconds a process keeps a token's account in memory (revocations are broadcast, so
    #: this only bounds a missed broadcast); 0 turns the in-process cache off. As long as the
    #: Redis entry: a live player moves every 10-40 s, so a shorter time made most moves look
    #: the token up in Redis again (at 1,000 matches, 4 % of the workers' CPU).
    token_local_cache_s: float = 300.0
    #: A token not used for this long expires (401 ``token_expired``); each use slides it
    #: forward (30 days).
    token_lifetime_s: float = 30 * 86400.0
    #: How often a token in use is renewed in Postgres: at most once per this interval (a day),
    #: so that sliding the expiry costs no write per request.
    token_renew_s: float = 86400.0
    embedded_sweeper: bool = False
    #: Answer well-formed moves in the WSGI shortcut (``king_game.shortcut``) rather than
    #: through Flask's dispatch; the answers are the same, the CPU about a fifth less.
    moves_shortcut: bool = True
    db_pool_max: int = 10
    redis_pool_max: int = 200
    #: Longest wait for a Postgres connection: past it (Postgres down, or every connection
    #: busy) the request answers 503 ``service_unavailable`` instead of hanging.
    db_timeout_s: float = 10.0
    #: Socket timeout of Redis commands (the match store's and the rate limiter's): a Redis
    #: that stops answering costs a request this long, then 503 ``service_unavailable``.
    redis_timeout_s: float = 5.0
    #: The rating service, asked for a player's rating when they join quick match.
    rating_url: str = "http://127.0.0.1:8002"
    rating_cache_s: int = 300
    quickmatch: QuickSettings = field(default_factory=QuickSettings)
    #: How often a quick-match stream checks the player's state (and runs a pairing pass).
    quickmatch_tick_s: float = 1.0

    @property
    def redis_url(self) -> str:
        return self.match.redis_url

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        return cls(
            database_url=env.get("DATABASE_URL", DEFAULT_DATABASE_URL),
            match=MatchSettings.from_env(),
            max_body_bytes=int(env.get("GAME_MAX_BODY_BYTES", str(16 * 1024))),
            rate_default=env.get("GAME_RATE_DEFAULT", "600/minute"),
            rate_moves=env.get("GAME_RATE_MOVES", "1200/minute"),
            rate_per_address=env.get("GAME_RATE_PER_ADDRESS", "6000/minute"),
            rate_signup=env.get("GAME_RATE_SIGNUP", "30/hour"),
            rate_login=env.get("GAME_RATE_LOGIN", "60/minute"),
            rate_login_account=env.get("GAME_RATE_LOGIN_ACCOUNT", "10/minute"),
            rate_limits_enabled=env.get("GAME_RATE_LIMITS", "on") != "off",
            longpoll_max_s=float(env.get("GAME_LONGPOLL_MAX_S", "25")),
            stream_heartbeat_s=float(env.get("GAME_STREAM_HEARTBEAT_S", "15")),
            stream_max_s=float(env.get("GAME_STREAM_MAX_S", "600")),
            token_cache_s=int(env.get("GAME_TOKEN_CACHE_S", "300")),
            token_local_cache_s=float(env.get("GAME_TOKEN_LOCAL_CACHE_S", "300")),
            token_lifetime_s=float(env.get("GAME_TOKEN_LIFETIME_S", _default("token_lifetime_s"))),
            token_renew_s=float(env.get("GAME_TOKEN_RENEW_S", _default("token_renew_s"))),
            embedded_sweeper=env.get("GAME_EMBEDDED_SWEEPER", "off") == "on",
            moves_shortcut=env.get("GAME_MOVES_SHORTCUT", "on") != "off",
            db_pool_max=int(env.get("GAME_DB_POOL_MAX", "10")),
            redis_pool_max=int(env.get("GAME_REDIS_POOL_MAX", "200")),
            db_timeout_s=float(env.get("GAME_DB_TIMEOUT_S", "10")),
            redis_timeout_s=float(env.get("GAME_REDIS_TIMEOUT_S", "5")),
            rating_url=env.get("KING_RATING_URL", "http://127.0.0.1:8002"),
            rating_cache_s=int(env.get("GAME_RATING_CACHE_S", "300")),
            quickmatch=QuickSettings(
                window=Window(
                    base=float(env.get("GAME_QM_WINDOW_START", "100")),
                    growth_per_s=float(env.get("GAME_QM_WINDOW_GROWTH", "5")),
                    cap=float(env.get("GAME_QM_WINDOW_CAP", "400")),
                ),
                stale_ms=int(env.get("GAME_QM_STALE_MS", "20000")),
                confirm_ms=int(env.get("GAME_QM_CONFIRM_MS", "15000")),
            ),
        )


def _default(name: str) -> Any:
    """A setting's default as the class above writes it (once)."""
    return next(item.default for item in fields(Settings) if item.name == name)
