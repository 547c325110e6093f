"""One stream's lines (``king_match.follow``): the events in order, a ``your_turn`` line with
the service's body each time the match comes to wait on the stream's seat (once a version),
and heartbeats while nothing happens."""

from __future__ import annotations

import json
from typing import Any

import pytest

from king_match.follow import stream_lines

from .test_notifier import play_one, started_match

pytestmark = pytest.mark.integration


def parsed(chunk: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in chunk.splitlines()]


def test_a_players_stream_announces_each_of_their_turns_once(notified_store):
    store = notified_store
    match_id = started_match(store)
    record, state = store.load(match_id)
    seat = record.player_to_act(state)
    assert seat is not None

    def render_turn(current, state, at: int) -> dict[str, Any]:
        return {"seat": at, "rendered": current.version}

    lines = stream_lines(
        store, match_id, 0, seat=seat, render_turn=render_turn, heartbeat_s=5, max_s=60
    )
    try:
        # Its turn already: announced before any event.
        assert parsed(next(lines)) == [
            {
                "type": "your_turn",
                "version": record.version,
                "match": {"seat": seat, "rendered": record.version},
            }
        ]
        # Then the events so far, without announcing that version again.
        assert [line["seq"] for line in parsed(next(lines))] == list(range(1, record.seq + 1))
        after = record.seq
        announced = [record.version]
        for _ in range(12):
            play_one(store, match_id)
            record, state = store.load(match_id)
            chunk = parsed(next(lines))
            events = [line for line in chunk if line["type"] != "your_turn"]
            turns = [line for line in chunk if line["type"] == "your_turn"]
            assert [e["seq"] for e in events] == list(range(after + 1, record.seq + 1))
            after = record.seq
            if record.player_to_act(state) == seat:
                assert turns == [
                    {
                        "type": "your_turn",
                        "version": record.version,
                        "match": {"seat": seat, "rendered": record.version},
                    }
                ]
                announced.append(record.version)
            else:
                assert turns == []
        assert len(announced) >= 2  # the seat's turn came round again at least once
    finally:
        lines.close()


def test_a_stream_without_a_seat_beats_while_nothing_happens(notified_store):
    store = notified_store
    match_id = started_match(store)
    record, _ = store.load(match_id)

    def render_turn(current, state, at: int) -> dict[str, Any]:
        raise AssertionError("a stream without a seat renders no turn")

    lines = stream_lines(
        store, match_id, 0, seat=None, render_turn=render_turn, heartbeat_s=0.2, max_s=60
    )
    try:
        first = parsed(next(lines))
        assert [e["seq"] for e in first] == list(range(1, record.seq + 1))
        beat = parsed(next(lines))
        assert [line["type"] for line in beat] == ["heartbeat"]
        assert abs(beat[0]["server_time_ms"] - store.now_ms()) < 5_000
    finally:
        lines.close()
