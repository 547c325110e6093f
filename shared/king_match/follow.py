"""Following a match: the NDJSON lines of one stream (``GET /v1/matches/{id}/stream``).

A stream registers once with the store's notifier (``MatchStore.following``) and then waits
for the events after the last one it sent. Each wake-up becomes one chunk: a ``reset`` line
first if older events were trimmed, the events up to ``match_finished``, and, for a player's
own stream (``seat``), a private ``your_turn`` line when the match now waits on that seat at
a version not announced yet. When nothing happens for ``heartbeat_s`` a ``heartbeat`` line
goes out and the match is loaded (which applies a due timeout); the stream ends after the
final event, or after ``max_s``.

The service supplies the body of ``your_turn`` (``render_turn``: what its match view answers),
so this module knows nothing of HTTP. Lines are built as bytes: the stream is most of a
service's open connections.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import orjson

from .record import MatchRecord

if TYPE_CHECKING:
    from king_engine import GameState

    from .store import MatchStore

#: (the match, its engine state, the seat) -> the ``match`` of that seat's ``your_turn`` line.
RenderTurn = Callable[[MatchRecord, "GameState | None", int], dict[str, Any]]


def stream_lines(
    store: MatchStore,
    match_id: str,
    after: int,
    *,
    seat: int | None,
    render_turn: RenderTurn,
    heartbeat_s: float,
    max_s: float,
) -> Iterator[bytes]:
    """The stream's chunks of NDJSON lines after event ``after`` (``match_id`` as stored)."""
    announced = -1
    started = time.monotonic()
    first = True
    with store.following(match_id):
        if seat is not None:
            # It may be that seat's turn already.
            line, announced = _your_turn(store, match_id, seat, render_turn, -1, announced)
            if line:
                yield line
        while time.monotonic() - started < max_s:
            events = store.events(match_id, after, block_ms=int(heartbeat_s * 1000), following=True)
            chunk = []
            if first and events and events[0]["seq"] > after + 1:
                chunk.append(orjson.dumps({"type": "reset", "first_seq": events[0]["seq"]}))
            first = False
            if not events:
                heartbeat = {"type": "heartbeat", "server_time_ms": store.now_ms()}
                yield orjson.dumps(heartbeat) + b"\n"
                current, _ = store.load(match_id)  # applies a due timeout
                if current.ended and after >= current.seq:
                    return
                continue
            finished = False
            for event in events:
                chunk.append(orjson.dumps(event))
                after = event["seq"]
                if event["type"] == "match_finished":
                    finished = True
                    break
            # One write for everything this wake-up brought.
            text = b"\n".join(chunk) + b"\n"
            if seat is not None and not finished:
                line, announced = _your_turn(store, match_id, seat, render_turn, after, announced)
                text += line
            # The stream now waits, at 1,000 matches for seconds: keep nothing of this
            # wake-up's lists meanwhile (what outlives a young collection costs every later one).
            del events, chunk
            yield text
            if finished:
                return


def _your_turn(
    store: MatchStore,
    match_id: str,
    seat: int,
    render_turn: RenderTurn,
    after: int,
    announced: int,
) -> tuple[bytes, int]:
    """(the your_turn line, or b""; the version announced last): a line only when, right
    after event ``after``, it is ``seat``'s turn at a version other than ``announced``."""
    hint = store.turn_after(match_id, after)
    if hint is not None and (hint[0] != seat or hint[1] == announced):
        return b"", announced
    # The commit's own copy of the match when this process has it, else a load.
    current, state = store.snapshot_after(match_id, after) or store.load(match_id)
    if current.player_to_act(state) != seat or current.version == announced:
        return b"", announced
    line = {
        "type": "your_turn",
        "version": current.version,
        "match": render_turn(current, state, seat),
    }
    return orjson.dumps(line) + b"\n", current.version
