"""A player's matches, as ``GET /v1/me/matches`` lists them: the entry point of a client that
reconnects. Active ones (waiting tables included) come where it is the player's turn first,
then by the nearest deadline (none: last); recent ones as the store keeps them."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .record import MatchRecord

if TYPE_CHECKING:
    from .store import MatchStore

#: Later than any deadline: a match without one sorts after those with one.
_NO_DEADLINE = 2**62


class MyMatch(NamedTuple):
    record: MatchRecord
    seat: int | None
    my_turn: bool


def my_matches(store: MatchStore, player_id: str) -> tuple[list[MyMatch], list[MyMatch]]:
    """(the player's active matches, most urgent first; their recently ended ones)."""
    active, recent = store.player_matches(player_id)
    rows = []
    for record in active:
        _, state = store.load(record.match_id)
        seat = record.seat_of(player_id)
        rows.append(MyMatch(record, seat, seat is not None and record.player_to_act(state) == seat))
    return urgent_first(rows), [MyMatch(r, r.seat_of(player_id), False) for r in recent]


def urgent_first(rows: list[MyMatch]) -> list[MyMatch]:
    """The player's turn first, then the nearest deadline; otherwise in the given order."""
    return sorted(rows, key=lambda row: (not row.my_turn, row.record.deadline_ms or _NO_DEADLINE))
