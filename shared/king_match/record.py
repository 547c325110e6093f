"""The match record: everything about a match besides the engine state, as stored in Redis.

A match lives in one Redis hash: ``ver`` (the record version, +1 for every change), ``seq``
(the last event's sequence number), ``meta`` (this record as compact JSON) and ``state`` (the
engine's ``MatchState.to_bytes()``). The moves of the whole match are appended to a separate
string (``encode_move``), one byte each (``seat << 6 | action``) for actions below 63 and two
for the rest: the fairness transcript is rebuilt from them.

The record holds secrets (the server seed and the client seeds) that leave the server only in
the fairness transcript of an ended match; nothing here is ever sent to a client as it is.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Final

import orjson

if TYPE_CHECKING:
    from king_engine import GameState

MODES: Final = ("live", "computer")
BOT_LEVELS: Final = ("easy", "medium", "hard")
#: waiting: a live table that is not full; active: being played; finished: played out;
#: aborted: ended early (closed before the start, or abandoned).
STATUSES: Final = ("waiting", "active", "finished", "aborted")
ENDED: Final = frozenset({"finished", "aborted"})


@dataclass(slots=True)
class Seat:
    """Who sits on a seat, and their deal contribution."""

    player_id: str
    name: str
    is_bot: bool  # a bot: one of our server bots or a third-party bot account
    is_guest: bool = False  # a guest account (no log-in): shown as a guest wherever it sits
    server_bot: bool = False  # played by our bot workers
    level: str | None = None  # the server bot's level
    seed: str = ""  # client seed, hex (secret until the match ends)
    seed_source: str = "client"  # client | server (drawn for a client that sent none) | bot
    taken_over: bool = False  # a live player who forfeited: a bot finishes the seat
    forfeited: bool = False
    left_at_ms: int | None = None

    @property
    def automated(self) -> bool:
        """True when our bot workers move for this seat."""
        return self.server_bot or self.taken_over

    @property
    def played_by(self) -> str:
        """Who moves for this seat: ``player`` (its own player, a third-party bot included),
        ``computer`` (a computer opponent) or ``computer_after_forfeit`` (the player forfeited
        and a bot finishes the seat)."""
        if self.taken_over:
            return "computer_after_forfeit"
        return "computer" if self.server_bot else "player"


@dataclass(slots=True)
class MatchRecord:
    match_id: str
    mode: str
    ranked: bool
    ruleset: str
    hands: int
    creator_id: str
    server_seed: str  # hex, secret until the end
    server_commit: str
    created_ms: int
    status: str = "waiting"
    level: str | None = None  # bot level of a computer table
    options: dict[str, Any] | None = None  # the ruleset's options, checked; None: it has none
    seats: list[Seat | None] = field(default_factory=lambda: [None, None, None, None])
    started_ms: int | None = None
    ended_ms: int | None = None
    outcome: str | None = None  # finished | forfeit | aborted
    end_reason: str | None = None
    forfeits: list[int] = field(default_factory=list)  # seats in the order they left
    turn_started_ms: int | None = None
    deadline_ms: int | None = None
    #: Up to when the current turn has been given back the time the service was not serving
    #: (``lifecycle.give_back``); None: not yet, from the turn's start.
    clock_checked_ms: int | None = None
    reserves: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: The event log keeps the current hand and the one before it, each from the write that
    #: began it: older entries are trimmed at a new hand (``log_start`` is the first kept
    #: sequence number, ``hand_seq`` the first event of the write that began this hand).
    log_start: int = 1
    hand_seq: int = 1
    #: A quick-match table: the player id each seat is held for (only they may sit there).
    reserved: list[str] | None = None
    # Not part of the JSON: they live in their own hash fields.
    version: int = 0
    seq: int = 0

    # ------------------------------------------------------------------ queries

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    def seat_of(self, player_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.player_id == player_id and not seat.server_bot:
                return index
        return None

    def seat(self, index: int) -> Seat:
        seat = self.seats[index]
        if seat is None:
            raise LookupError(f"seat {index} is empty")
        return seat

    def player_to_act(self, state: GameState | None) -> int | None:
        """The seat whose own player may move now, or None.

        Nobody may before the start or after the end, and a seat a bot plays (a computer seat,
        or a player's seat after they forfeited) is moved by the bot workers only. The one rule
        for "who may act": the view's ``my_turn`` and legal moves, the stream's ``your_turn``
        and the move check all ask it.
        """
        if self.status != "active" or state is None:
            return None
        mover = state.current_player
        if mover is None or self.seat(mover).automated:
            return None
        return mover

    def free_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat is None]

    def human_ids(self) -> list[str]:
        return [s.player_id for s in self.seats if s is not None and not s.server_bot]

    # ------------------------------------------------------------------ text form

    def to_json(self) -> str:
        # By hand, not dataclasses.asdict: this runs on every write (asdict deep-copies).
        # Fields still at their default are left out (``from_json`` restores them): the
        # record is stored in every match hash, so its size is Redis memory.
        data = _without_defaults(self, _RECORD_FIELDS, _RECORD_DEFAULTS)
        data["seats"] = [
            None if seat is None else _without_defaults(seat, _SEAT_FIELDS, _SEAT_DEFAULTS)
            for seat in self.seats
        ]
        return orjson.dumps(data).decode()

    @classmethod
    def from_json(cls, text: str | bytes, version: int = 0, seq: int = 0) -> MatchRecord:
        data: dict[str, Any] = orjson.loads(text)
        seats: list[Seat | None] = [
            None if entry is None else Seat(**entry) for entry in data.pop("seats")
        ]
        record = cls(**data, seats=seats)
        record.version = version
        record.seq = seq
        return record


_SEAT_FIELDS: Final = tuple(f.name for f in fields(Seat))
_RECORD_FIELDS: Final = tuple(
    f.name for f in fields(MatchRecord) if f.name not in ("seats", "version", "seq")
)
_SEAT_DEFAULTS: Final = {f.name: f.default for f in fields(Seat) if f.default is not MISSING}
_RECORD_DEFAULTS: Final = {
    f.name: f.default for f in fields(MatchRecord) if f.default is not MISSING
}
_ABSENT: Final = object()


def _without_defaults(
    obj: object, names: tuple[str, ...], defaults: dict[str, object]
) -> dict[str, Any]:
    out = {}
    for name in names:
        value = getattr(obj, name)
        if defaults.get(name, _ABSENT) != value or type(value) is not type(defaults[name]):
            out[name] = value
    return out


_ESCAPE: Final = 63  # an action of 63 or more: this low half, then a byte of action - 63


def encode_move(seat: int, action: int) -> bytes:
    """A move in the match's move log: one byte for every card and contract (actions 0..61,
    as every log ever written), two for the later kinds (a phased ruleset's calls)."""
    if action < _ESCAPE:
        return bytes((seat << 6 | action,))
    return bytes((seat << 6 | _ESCAPE, action - _ESCAPE))


def decode_moves(data: bytes) -> list[tuple[int, int]]:
    """The (seat, action) pairs of a move log written by ``encode_move``."""
    moves = []
    position = 0
    while position < len(data):
        byte = data[position]
        seat, action = byte >> 6, byte & 63
        if action == _ESCAPE:
            position += 1
            action = _ESCAPE + data[position]
        moves.append((seat, action))
        position += 1
    return moves
