"""Idempotency-Key requests: the first answer to a key is kept with the match and replayed.

The answer lives in the match hash, field ``i:<who>``: one per player, the answer to their
latest keyed request (a client retries a request until it gets an answer before it sends the
next, so the latest is the one a retry is about). The commit script writes it atomically with
the change, so there is no separate claim: of two copies of one request running at once, one
commits and the other fails the version check, reloads, finds the answer and replays it. A
refused request's error goes to ``f:<who>`` (never over a later success). Both live and die with
the match: keys cost no Redis round trip on the way in and no memory beyond a few small fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from king_engine import KingError

from . import eventcodec
from .errors import MatchError

ANSWER_FIELD = "i:"
FAILURE_FIELD = "f:"
#: Refusals not kept: they say nothing about the request itself, a retry may succeed.
_NOT_KEPT = frozenset({"idempotency_key_reused", "rate_limited", "busy", "match_not_found"})


@dataclass(slots=True)
class MoveResult:
    """The answer to an applied write (also what an idempotent retry gets back)."""

    match_id: str
    version: int
    seat: int | None
    move: str | None
    events: list[dict[str, Any]]
    replayed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "version": self.version,
            "seat": self.seat,
            "move": self.move,
            "events": self.events,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], replayed: bool = False) -> MoveResult:
        return cls(
            match_id=data["match_id"],
            version=data["version"],
            seat=data["seat"],
            move=data["move"],
            events=data["events"],
            replayed=replayed,
        )


@dataclass(frozen=True, slots=True)
class Idem:
    """A keyed request: ``who`` (player or bot seat), the client's key, and a fingerprint of
    the request, so a key reused for another request is refused."""

    match_id: str
    who: str
    key: str
    fingerprint: str

    @classmethod
    def of(cls, match_id: str, who: str, key: str | None, fingerprint: str) -> Idem | None:
        return cls(match_id, who, key, fingerprint) if key else None

    @property
    def field(self) -> str:
        return ANSWER_FIELD + self.who

    @property
    def failure_field(self) -> str:
        return FAILURE_FIELD + self.who

    def answer(self, result: MoveResult, entries: list[str]) -> bytes:
        """What the commit keeps in ``field``: the result with its events in their stored
        form (the last of the commit's log entries), so a replay needs nothing else, even once
        the log has moved on."""
        slim: dict[str, Any] = {"version": result.version, "seat": result.seat}
        slim["move"] = result.move
        count = len(result.events)
        slim["events"] = entries[len(entries) - count :] if count else []
        return orjson.dumps({"key": self.key, "fp": self.fingerprint, "ok": True, "result": slim})

    def refusal(self, exc: MatchError | KingError) -> str | None:
        """What to keep in ``failure_field`` for a refused request; None: keep nothing."""
        if exc.code in _NOT_KEPT or exc.details.get("replayed"):
            return None
        error = {"code": exc.code, "message": exc.message, "details": exc.details}
        stored = {"key": self.key, "fp": self.fingerprint, "ok": False, "error": error}
        return json.dumps(stored, default=str)

    def stored_answer(self, success: Any, failure: Any) -> MoveResult | None:
        """The first answer to this key, from the loaded ``i:``/``f:`` fields: the result to
        replay, None when the key is new; a stored refusal is raised again."""
        for raw in (success, failure):
            if raw is None:
                continue
            stored: dict[str, Any] = orjson.loads(raw)
            if stored.get("key") != self.key:
                continue
            if stored.get("fp") != self.fingerprint:
                raise MatchError(
                    "idempotency_key_reused",
                    "this Idempotency-Key was used for a different request",
                )
            if stored.get("ok"):
                result = dict(stored["result"])
                result["match_id"] = self.match_id
                result["events"] = [eventcodec.log_entry(entry) for entry in result["events"]]
                return MoveResult.from_dict(result, replayed=True)
            error = stored["error"]
            raise MatchError(error["code"], error["message"], replayed=True, **error["details"])
        return None
