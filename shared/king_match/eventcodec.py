"""Compact storage form of the public events in a match's log (a Redis list, ``keys.py``).

Clients see events as JSON objects (``{"type": "card_played", "hand": 3, ...}``). Stored as
such, a 20-hand match's log would take tens of kilobytes of Redis, so the three events that
make up almost all of it are stored as short dotted strings and everything else as JSON:

* ``p<hand>.<trick>.<seat>.<card>.<v>`` — card_played
* ``w<hand>.<trick>.<seat>.<points>.<c1><c2><c3><c4>.<v>`` — trick_won
* ``k<hand>.<seat>.<contract>.<trump or ->.<v>`` — contract_chosen
* ``j<json>`` — any other event

``decode(encode(e)) == e`` for every event the store emits (tested).
"""

from __future__ import annotations

import json
from typing import Any


def encode(event: dict[str, Any]) -> str:
    kind = event.get("type")
    keys = set(event)
    if kind == "card_played" and keys == {"type", "hand", "trick", "seat", "card", "v"}:
        return f"p{event['hand']}.{event['trick']}.{event['seat']}.{event['card']}.{event['v']}"
    if kind == "trick_won" and keys == {"type", "hand", "trick", "seat", "cards", "points", "v"}:
        cards = "".join(event["cards"])
        if len(cards) == 8:
            return (
                f"w{event['hand']}.{event['trick']}.{event['seat']}.{event['points']}."
                f"{cards}.{event['v']}"
            )
    if kind == "contract_chosen" and keys == {"type", "hand", "seat", "contract", "trump", "v"}:
        trump = event["trump"] or "-"
        return f"k{event['hand']}.{event['seat']}.{event['contract']}.{trump}.{event['v']}"
    return "j" + json.dumps(event, separators=(",", ":"))


def decode(text: str) -> dict[str, Any]:
    tag, body = text[0], text[1:]
    if tag == "j":
        data: dict[str, Any] = json.loads(body)
        return data
    parts = body.split(".")
    if tag == "p":
        hand, trick, seat, card, version = parts
        return {
            "type": "card_played",
            "hand": int(hand),
            "trick": int(trick),
            "seat": int(seat),
            "card": card,
            "v": int(version),
        }
    if tag == "w":
        hand, trick, seat, points, cards, version = parts
        return {
            "type": "trick_won",
            "hand": int(hand),
            "trick": int(trick),
            "seat": int(seat),
            "cards": [cards[i : i + 2] for i in range(0, 8, 2)],
            "points": int(points),
            "v": int(version),
        }
    if tag == "k":
        hand, seat, contract, trump, version = parts
        return {
            "type": "contract_chosen",
            "hand": int(hand),
            "seat": int(seat),
            "contract": contract,
            "trump": None if trump == "-" else trump,
            "v": int(version),
        }
    raise ValueError(f"unknown stored event {text[:20]!r}")


def log_entry(text: str) -> dict[str, Any]:
    """One log entry, ``"<seq> <event>"`` (``stamp``), as the event clients see."""
    seq, _, stored = text.partition(" ")
    event = decode(stored)
    event["seq"] = int(seq)
    return event


def stamp(events: list[dict[str, Any]], version: int, last_seq: int) -> list[str]:
    """The log entries of a commit's events: each event gets the commit's version ``v`` and
    its ``seq`` (numbered on from ``last_seq``), and its entry holds both."""
    entries = []
    for offset, event in enumerate(events, start=1):
        event["v"] = version
        event.pop("seq", None)  # (not part of the stored event: the entry's head)
        entries.append(f"{last_seq + offset} {encode(event)}")
        event["seq"] = last_seq + offset
    return entries
