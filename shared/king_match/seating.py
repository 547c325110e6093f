"""Tables and seats, with no Redis: a new table's record, who may sit where, leaving, and
closing a quick-match table nobody confirmed. Like ``lifecycle``, each rule works on a
``Change``; the writer commits it.

Fairness (FAIRNESS step 2): a table is created with its server seed and commitment and no
client seed; a seed is taken only from a player who sits, after the commitment was shown.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from king_engine import BadInput
from king_engine.errors import ConfigError

from . import fairness
from .errors import MatchError
from .lifecycle import Change, Player, abort_waiting, start
from .record import BOT_LEVELS, MODES, MatchRecord, Seat
from .served import served_ruleset


def new_table(
    creator: Player,
    now_ms: int,
    *,
    mode: str,
    ruleset: str,
    hands: int,
    level: str | None,
    seat: int | None,
    match_id: str | None,
    options: Mapping[str, Any] | None = None,
    preview: tuple[str, ...] = (),
) -> MatchRecord:
    """The record of a new table (``bad_table`` for a setting that is not offered, ``field``
    naming it). A computer table gets its three server bots now, on every seat but ``seat``."""
    if mode not in MODES:
        raise MatchError("bad_table", f"mode must be one of {', '.join(MODES)}", field="mode")
    try:
        rules = served_ruleset(ruleset, preview)
        rules.check_length(hands)
        checked = rules.check_options(options)
    except ConfigError as exc:
        field_name = {"unknown_ruleset": "ruleset", "bad_option": "options"}.get(exc.code, "hands")
        raise MatchError("bad_table", exc.message, field=field_name) from exc
    if mode == "computer":
        level = level or "easy"
        if level not in BOT_LEVELS:
            raise MatchError(
                "bad_table", f"level must be one of {', '.join(BOT_LEVELS)}", field="level"
            )
    else:
        level = None
    seat_index = 0 if seat is None else seat
    if not 0 <= seat_index < 4:
        raise MatchError("bad_table", "seat must be 0..3", field="seat")
    match_id = canonical_id(match_id) if match_id else str(uuid.uuid4())
    server_seed = fairness.draw_server_seed()
    record = MatchRecord(
        match_id=match_id,
        mode=mode,
        ranked=mode == "live",
        ruleset=ruleset,
        hands=hands,
        creator_id=creator.player_id,
        server_seed=server_seed,
        server_commit=fairness.commitment(match_id, server_seed),
        created_ms=now_ms,
        level=level,
        options=checked or None,
    )
    if mode == "computer":
        # Every server-side input (S and the bots' zero seeds) is fixed before the human's.
        for index in range(4):
            if index != seat_index:
                record.seats[index] = Seat(
                    player_id=f"bot-{level}",
                    name=f"Bot {index} ({level})",
                    is_bot=True,
                    server_bot=True,
                    level=level,
                    seed=fairness.BOT_SEED_HEX,
                    seed_source="bot",
                )
    return record


def reserved_table(
    match_id: str,
    server_seed: str,
    player_ids: list[str],
    now_ms: int,
    *,
    ruleset: str,
    hands: int,
    ranked: bool,
) -> MatchRecord:
    """The record of a quick-match table whose four seats are held for ``player_ids``."""
    served_ruleset(ruleset).check_length(hands)
    match_id = canonical_id(match_id)
    return MatchRecord(
        match_id=match_id,
        mode="live",
        ranked=ranked,
        ruleset=ruleset,
        hands=hands,
        creator_id=player_ids[0],
        server_seed=server_seed,
        server_commit=fairness.commitment(match_id, server_seed),
        created_ms=now_ms,
        reserved=list(player_ids),
    )


def created(change: Change) -> MatchRecord:
    """The first write of a table: its public facts, and a live open table in the lobby."""
    record = change.record
    change.emit(
        {
            "type": "table_created",
            "mode": record.mode,
            "ruleset": record.ruleset,
            "hands": record.hands,
            "server_commit": record.server_commit,
        }
    )
    if record.mode == "live" and record.reserved is None:
        change.lobby = str(record.created_ms)
    return record


def join(change: Change, player: Player, seat: int | None, seed: str, source: str) -> int:
    """Seat ``player`` on ``seat`` (None: the first free one, or the one held for them) with
    their deal seed; a full table starts. Returns the seat."""
    record = change.record
    if record.ended:
        raise MatchError("match_over", "this table's match has ended")
    if record.seat_of(player.player_id) is not None:
        raise MatchError("already_seated", "you already sit at this table")
    if record.status == "active":
        raise MatchError("table_full", "the match has started: the table is full")
    free = record.free_seats()
    if not free:
        raise MatchError("table_full", "every seat at this table is taken")
    if record.reserved is not None:
        if player.player_id not in record.reserved:
            raise MatchError("seat_reserved", "this table's seats are held for others")
        held = record.reserved.index(player.player_id)
        if seat is not None and seat != held:
            raise MatchError("seat_reserved", f"your seat at this table is {held}")
        chosen = held
    elif seat is None:
        chosen = free[0]
    elif not 0 <= seat < 4:
        raise MatchError("bad_table", "seat must be 0..3", field="seat")
    elif record.seats[seat] is not None:
        raise MatchError("seat_taken", f"seat {seat} is taken", free_seats=free)
    else:
        chosen = seat
    record.seats[chosen] = Seat(
        player_id=player.player_id,
        name=player.name,
        is_bot=player.is_bot,
        is_guest=player.is_guest,
        seed=seed,
        seed_source=source,
    )
    change.joined.append(player.player_id)
    change.emit(
        {
            "type": "seat_taken",
            "seat": chosen,
            "name": player.name,
            "is_bot": player.is_bot,
            "is_guest": player.is_guest,
        }
    )
    if not record.free_seats():
        start(change)
    return chosen


def leave(change: Change, player: Player) -> MatchRecord:
    """Stand up before the match starts; an empty table closes."""
    record = change.record
    index = record.seat_of(player.player_id)
    if index is None:
        raise MatchError("not_seated", "you do not sit at this table")
    if record.status != "waiting":
        raise MatchError("table_started", "the match has started: resign instead of leaving")
    record.seats[index] = None
    change.left.append(player.player_id)
    change.emit({"type": "seat_left", "seat": index})
    if not record.human_ids():
        abort_waiting(change, "closed")
        change.lobby = "rem"
    return record


def close_unconfirmed(change: Change) -> MatchRecord:
    """Abort a quick-match table that is still waiting; a started (or ended) one stays."""
    if change.record.status == "waiting":
        abort_waiting(change, "not_confirmed")
    return change.record


def seed_of(client_seed: str | None) -> tuple[str, str]:
    """(seed, source) of a player who sits: theirs, or one drawn for them (``bad_seed``
    unless 64 hex characters)."""
    if client_seed is None:
        return fairness.draw_client_seed(), "server"
    try:
        return fairness.normalise_seed(client_seed), "client"
    except BadInput as exc:
        raise MatchError("bad_seed", exc.message, field="client_seed") from exc


def check_client_seed(client_seed: str) -> None:
    """``bad_seed`` unless ``client_seed`` is 64 hex characters (the rule ``join`` applies)."""
    seed_of(client_seed)


def canonical_id(match_id: Any) -> str:
    """A match id in its one spelling (``match_not_found`` for anything but a UUID)."""
    try:
        return str(uuid.UUID(match_id))
    except (ValueError, AttributeError, TypeError) as exc:
        raise MatchError("match_not_found", f"no match or table {match_id!r}") from exc
