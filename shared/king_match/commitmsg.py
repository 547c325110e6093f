"""The message every commit publishes on its match's channel (``keys.Keys.channel``).

It carries the change itself, so a process's followers need no round trip to learn it::

    "<first seq> <last seq> <seat whose player may move, or -1> <new version>\\n<record JSON>\\n
     <engine state, hex>\\n<seq> <event>\\n<seq> <event>..."

The entries are the ones the commit appended to the match's log (events in their stored form,
``eventcodec``); the record and state let the follower whose turn it now is render its view,
and let the next write start from them (``latest.py``). The writer encodes it (``encode``), the
commit script publishes it as it is, the notifier decodes it (``decode``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import eventcodec


@dataclass(frozen=True, slots=True)
class CommitMessage:
    first: int  #: the seq of its first event
    last: int  #: ... and of its last
    turn: int | None  #: the seat whose player may move after it (``player_to_act``)
    version: int  #: the match's version after it
    meta: str  #: the record's JSON
    state_hex: str  #: the engine state, hex ("" before the start)
    entries: list[str]  #: "<seq> <event>" each

    def events(self) -> list[dict[str, Any]]:
        """The entries as the events clients see (each with its ``seq``)."""
        return [eventcodec.log_entry(entry) for entry in self.entries]


def encode(message: CommitMessage) -> str:
    turn = -1 if message.turn is None else message.turn
    head = f"{message.first} {message.last} {turn} {message.version}"
    return "\n".join((head, message.meta, message.state_hex, *message.entries))


def decode(text: str) -> CommitMessage:
    """The message ``encode`` wrote; ``ValueError`` for anything else."""
    head, meta, state_hex, body = text.split("\n", 3)
    first, last, turn, version = (int(part) for part in head.split())
    return CommitMessage(
        first, last, None if turn < 0 else turn, version, meta, state_hex, body.split("\n")
    )
