"""JSON shapes of tables and matches as a given caller may see them.

A seat's view comes from the engine's ``view_for`` (own cards only), or from the state itself
for a ruleset with its own state class; everything else here is
public table information. Seeds are never rendered: the fairness endpoint reveals them, and
only once the match has ended.
"""

from __future__ import annotations

from typing import Any

from king_engine import GameState, MatchState, own_state, view_for
from king_match import MatchRecord
from king_match.lifecycle import standing
from king_match.settings import ClockSettings


def seats(record: MatchRecord) -> list[dict[str, Any] | None]:
    out: list[dict[str, Any] | None] = []
    for index, seat in enumerate(record.seats):
        if seat is None:
            out.append(None)
            continue
        out.append(
            {
                "seat": index,
                "player_id": None if seat.server_bot else seat.player_id,
                "name": seat.name,
                "is_bot": seat.is_bot,
                "is_guest": seat.is_guest,
                "automated": seat.automated,
                "played_by": seat.played_by,
                "forfeited": seat.forfeited,
            }
        )
    return out


def table(record: MatchRecord) -> dict[str, Any]:
    return {
        "id": record.match_id,
        "match_id": record.match_id,
        "mode": record.mode,
        "ranked": record.ranked,
        "ruleset": record.ruleset,
        "hands": record.hands,
        "level": record.level,
        "options": record.options or {},
        "status": record.status,
        "version": record.version,
        "server_commit": record.server_commit,
        "seats": seats(record),
        "free_seats": record.free_seats(),
        "created_at_ms": record.created_ms,
    }


def clock(record: MatchRecord, state: GameState | None, clocks: ClockSettings, now_ms: int) -> Any:
    if record.status != "active" or state is None or state.current_player is None:
        return {"server_time_ms": now_ms, "turn": None}
    mover = state.current_player
    reserves = list(record.reserves)
    started = record.turn_started_ms or now_ms
    if record.mode == "live" and not record.seat(mover).automated:
        over = now_ms - started - clocks.live_move_ms
        if over > 0:
            reserves[mover] = max(0, reserves[mover] - over)
    move_ms = clocks.live_move_ms if record.mode == "live" else clocks.computer_move_ms
    return {
        "server_time_ms": now_ms,
        "turn": mover,
        "turn_started_ms": started,
        "deadline_ms": record.deadline_ms,
        "move_ms": move_ms,
        "reserve_ms": reserves,
    }


def match(
    record: MatchRecord,
    state: GameState | None,
    seat: int,
    clocks: ClockSettings,
    now_ms: int,
) -> dict[str, Any]:
    body = table(record)
    body["seat"] = seat
    body["played_by"] = record.seat(seat).played_by
    body["clock"] = clock(record, state, clocks, now_ms)
    body["outcome"] = record.outcome
    body["forfeits"] = list(record.forfeits)
    if state is not None:
        if isinstance(state, MatchState):
            view = view_for(state, seat).to_dict()
        else:
            view = own_state(state).view(seat)
        view.pop("version", None)  # the engine's move count; the API's version is the record's
        my_turn = record.player_to_act(state) == seat
        if not my_turn:
            # The seat may be the engine's mover while a bot plays it: its moves are not ours.
            view["legal_cards"] = []
            view["allowed_contracts"] = []
            view["legal_moves"] = []
        body["view"] = view
        body["my_turn"] = my_turn
        if record.ended:
            result = standing(state, record)
            del result["totals"]  # the view has them
            body.update(result)
    else:
        body["view"] = None
        body["my_turn"] = False
    return body
