"""Listings over many matches: the lobby's open tables and a player's matches. The indexes
they read (the lobby, a player's active and recent sets) are hints kept after each commit; the
match records are the truth, so an entry whose match is gone or has moved on is dropped here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import MatchError
from .reads import as_text
from .record import MatchRecord

if TYPE_CHECKING:
    from .store import MatchStore


def lobby(store: MatchStore, limit: int = 50) -> list[MatchRecord]:
    """Open live tables someone sits at, oldest first."""
    pipe = store.redis.pipeline(transaction=False)
    for index in store.keys.all_lobbies:
        pipe.zrange(index, 0, max(0, limit * 2 - 1), withscores=True)
    listed = sorted((score, as_text(raw)) for found in pipe.execute() for raw, score in found)
    records = []
    for _, match_id in listed[: limit * 2]:
        try:
            record, _, _ = store.reader.load(match_id)
        except MatchError:
            store.redis.zrem(store.keys.lobby(match_id), match_id)
            continue
        # A table nobody sits at yet (its creator has not joined) is not offered.
        if record.status == "waiting" and record.free_seats() and record.human_ids():
            records.append(record)
    return records[:limit]


def player_matches(
    store: MatchStore, player_id: str
) -> tuple[list[MatchRecord], list[MatchRecord]]:
    """(active or waiting matches, recently ended ones) of a player."""
    active: list[MatchRecord] = []
    recent: list[MatchRecord] = []
    active_key = store.keys.active(player_id)
    members: Any = store.redis.zrange(active_key, 0, -1)
    for raw in members:
        try:
            record, _ = store.load(as_text(raw))
        except MatchError:
            store.redis.zrem(active_key, raw)
            continue
        if record.ended:
            store.redis.zrem(active_key, raw)
            recent.append(record)
        elif record.seat_of(player_id) is not None:
            active.append(record)
    recent_ids: Any = store.redis.zrevrange(store.keys.recent(player_id), 0, 19)
    for raw in recent_ids:
        if any(r.match_id == as_text(raw) for r in recent):
            continue
        try:
            record, _, _ = store.reader.load(as_text(raw))
        except MatchError:
            continue
        recent.append(record)
    recent.sort(key=lambda r: r.ended_ms or 0, reverse=True)
    return active, recent
