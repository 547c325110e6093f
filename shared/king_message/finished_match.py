"""The finished-match message: what the game service hands to the rating service.

When a match ends, the game service puts one of these on the RQ queue ``ratings`` (job
function ``king_rating.jobs.ingest_finished_match``, one JSON string argument, job id
``finished-match-<match_id>``). The rating service archives every message and rates only
ranked live matches; it knows nothing else about games.

The message is plain JSON so that neither side needs the other's code::

    {
      "schema_version": 1,
      "match_id": "6f1c...",            # UUID, the idempotency key
      "mode": "live" | "computer",
      "ranked": true,
      "ruleset": "standard",            # one of rulesets.RATED_RULESETS
      "hands": 20,                      # 8, 12 or 20
      "started_at": "2026-12-01T10:00:00Z",
      "ended_at": "2026-12-01T10:40:00Z",
      "outcome": "finished" | "forfeit" | "aborted",
      "players": [                      # exactly four, one per seat 0-3
        {"seat": 0, "player_id": "p1", "name": "Ayşe", "is_bot": false,
         "is_guest": false, "total": 120, "place": 1, "forfeited": false,
         "forfeit_order": null, "left_at": null},
        ...
      ],
      "fairness": {...}                 # the deal transcript, opaque here
    }

Places are the engine's places for the finished match, as competition ranks (a place shared by
n seats skips the next n-1, e.g. 1, 1, 3, 4). They usually follow the totals, but not always:
after a King in ``traditional`` the King maker is first and the other three share second (1, 2,
2, 2) whatever the totals, and after a failed announced King the other three share first and the
announcer is fourth (1, 1, 1, 4). So nothing here compares places with totals, and the ratings,
the weekly points and the winners all follow the places. A player who forfeited (lost on time or
resigned) is placed below every player who did not; ``forfeit_order`` counts forfeits from 1
(the first to leave has 1) and ``left_at`` is when they left. The winners
(``FinishedMatch.winners``) are the seats placed first that did not forfeit.

``ruleset`` is the engine's name of the ruleset. Ratings are kept per ruleset, for the names in
``rulesets.RATED_RULESETS``; the rating service refuses a rated match of any other ruleset.

Every field is bounded, far beyond what a real match reaches but short of what could stop the
rating service (a date near ``datetime``'s limits overflows its week arithmetic; a huge name or
transcript fills the archive): timestamps lie in [``EARLIEST``, ``LATEST``), ``player_id`` and
``name`` have at most ``MAX_ID_CHARS`` and ``MAX_NAME_CHARS`` characters, ``ruleset`` at most
``MAX_RULESET_CHARS``, a total is within ``±MAX_TOTAL``, and the message's JSON (so its
transcript above all) has at most ``MAX_MESSAGE_CHARS`` characters. A message outside them is
refused with a ``ValueError`` like any other malformed message. The size is checked where the
message is text: ``from_json`` refuses a longer text before parsing it, ``from_dict`` a dict
whose JSON is longer, and ``to_json`` will not write one; so a message read from the queue is
never serialized again just to measure it.

Only the standard library is used here, so any service (and any outside program) can build and
check a message.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Literal, TypeVar, cast

T = TypeVar("T")

__all__ = [
    "EARLIEST",
    "INGEST_JOB_FUNCTION",
    "LATEST",
    "MAX_ID_CHARS",
    "MAX_MESSAGE_CHARS",
    "MAX_NAME_CHARS",
    "MAX_RULESET_CHARS",
    "MAX_TOTAL",
    "RATINGS_QUEUE",
    "SCHEMA_VERSION",
    "FinishedMatch",
    "SeatResult",
    "format_utc",
    "job_id_for",
    "parse_utc",
]

#: Bumped when a field changes meaning; the rating service refuses versions it does not know.
SCHEMA_VERSION: Final = 1
#: The RQ queue the rating worker listens on.
RATINGS_QUEUE: Final = "ratings"
#: Import path of the job function the rating worker runs; producers enqueue it by name.
INGEST_JOB_FUNCTION: Final = "king_rating.jobs.ingest_finished_match"

Mode = Literal["live", "computer"]
Outcome = Literal["finished", "forfeit", "aborted"]

MODES: Final = ("live", "computer")
OUTCOMES: Final = ("finished", "forfeit", "aborted")
HANDS_CHOICES: Final = (8, 10, 12, 20, 32)  # every ruleset's match lengths
SEATS: Final = 4

# The bounds of a message (module docstring). A real match stays far inside them: names are at
# most 40 characters as typed (king_game.names.MAX_NAME), the longest transcript (32 hands of
# konturlu) is about 20 KB of JSON, and totals are hundreds of points.
#: No timestamp is earlier: the service did not exist before it.
EARLIEST: Final = datetime(2020, 1, 1, tzinfo=UTC)
#: Every timestamp is earlier: far from ``datetime.max``, so no week arithmetic overflows.
LATEST: Final = datetime(2100, 1, 1, tzinfo=UTC)
MAX_ID_CHARS: Final = 128
MAX_NAME_CHARS: Final = 128
MAX_RULESET_CHARS: Final = 64
#: A seat's total lies within ±MAX_TOTAL.
MAX_TOTAL: Final = 1_000_000
#: A message's JSON, in characters (``to_json``'s form; bytes for a ``bytes`` text).
MAX_MESSAGE_CHARS: Final = 256 * 1024


def job_id_for(match_id: str) -> str:
    """The deterministic RQ job id for a match (letters, digits and ``-`` only)."""
    return f"finished-match-{uuid.UUID(match_id)}"


def parse_utc(text: str) -> datetime:
    """Parse an ISO 8601 timestamp that carries a UTC offset; return it in UTC."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not an ISO 8601 timestamp: {text[:64]!r}") from exc
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"timestamp without a UTC offset: {text[:64]!r}")
    try:
        return moment.astimezone(UTC)
    except OverflowError as exc:  # 9999-12-31T23:59:59-01:00 is in year 10000 in UTC
        raise ValueError(f"timestamp out of range: {text[:64]!r}") from exc


def format_utc(moment: datetime) -> str:
    """The canonical text form: ISO 8601 in UTC with a ``Z``."""
    text = moment.astimezone(UTC).isoformat()
    return text.replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result at the end of the match."""

    seat: int
    player_id: str
    name: str
    is_bot: bool
    total: int
    place: int
    forfeited: bool = False
    forfeit_order: int | None = None
    left_at: str | None = None
    is_guest: bool = False


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A finished (or aborted) match as the rating service receives it."""

    match_id: str
    mode: Mode
    ranked: bool
    ruleset: str
    hands: int
    players: tuple[SeatResult, ...]
    started_at: str
    ended_at: str
    outcome: Outcome
    fairness: dict[str, Any] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION

    def __post_init__(self) -> None:
        self.validate()

    # ------------------------------------------------------------------ checks

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first thing wrong with this message."""
        if self.schema_version != SCHEMA_VERSION:
            raise ValueError(
                f"schema_version: unsupported version {self.schema_version!r}, "
                f"expected {SCHEMA_VERSION}"
            )
        try:
            canonical = str(uuid.UUID(self.match_id))
        except (TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"match_id: not a UUID: {self.match_id!r}") from exc
        if canonical != self.match_id.lower():
            raise ValueError(f"match_id: not a canonical UUID: {self.match_id!r}")
        if self.mode not in MODES:
            raise ValueError(f"mode: must be one of {MODES}, got {self.mode!r}")
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome: must be one of {OUTCOMES}, got {self.outcome!r}")
        _require_type("ranked", self.ranked, bool)
        _require_type("ruleset", self.ruleset, str)
        if not 1 <= len(self.ruleset) <= MAX_RULESET_CHARS:
            raise ValueError(f"ruleset: must be 1-{MAX_RULESET_CHARS} characters")
        _require_int("hands", self.hands)
        if self.hands not in HANDS_CHOICES:
            raise ValueError(f"hands: must be one of {HANDS_CHOICES}, got {self.hands!r}")
        started = _moment("started_at", self.started_at)
        ended = _moment("ended_at", self.ended_at)
        if ended < started:
            raise ValueError("ended_at: earlier than started_at")
        if not isinstance(self.fairness, dict):
            raise ValueError("fairness: must be a JSON object")
        self._validate_players()

    def _validate_players(self) -> None:
        if not isinstance(self.players, tuple) or len(self.players) != SEATS:
            raise ValueError(f"players: exactly {SEATS} seats are required")
        for index, seat in enumerate(self.players):
            where = f"players[{index}]"
            if not isinstance(seat, SeatResult):
                raise ValueError(f"{where}: not a seat entry")
            _require_int(f"{where}.seat", seat.seat)
            if seat.seat != index:
                raise ValueError(f"{where}.seat: seats must be listed 0-3 in order")
            _require_type(f"{where}.player_id", seat.player_id, str)
            if not 1 <= len(seat.player_id) <= MAX_ID_CHARS:
                raise ValueError(f"{where}.player_id: must be 1-{MAX_ID_CHARS} characters")
            _require_type(f"{where}.name", seat.name, str)
            if len(seat.name) > MAX_NAME_CHARS:
                raise ValueError(
                    f"{where}.name: at most {MAX_NAME_CHARS} characters, got {len(seat.name)}"
                )
            _require_type(f"{where}.is_bot", seat.is_bot, bool)
            _require_type(f"{where}.is_guest", seat.is_guest, bool)
            _require_int(f"{where}.total", seat.total)
            if not -MAX_TOTAL <= seat.total <= MAX_TOTAL:
                raise ValueError(f"{where}.total: must be within ±{MAX_TOTAL}")
            _require_int(f"{where}.place", seat.place)
            if not 1 <= seat.place <= SEATS:
                raise ValueError(f"{where}.place: must be 1-4")
            _require_type(f"{where}.forfeited", seat.forfeited, bool)
            if seat.forfeited:
                if seat.forfeit_order is None:
                    raise ValueError(f"{where}.forfeit_order: required for a forfeited seat")
                _require_int(f"{where}.forfeit_order", seat.forfeit_order)
                if not 1 <= seat.forfeit_order <= SEATS:
                    raise ValueError(f"{where}.forfeit_order: must be 1-4")
                if seat.left_at is not None:
                    _moment(f"{where}.left_at", seat.left_at)
            elif seat.forfeit_order is not None or seat.left_at is not None:
                raise ValueError(f"{where}: forfeit_order/left_at given for a seat that stayed")
        humans = [seat.player_id for seat in self.players if not seat.is_bot]
        if len(set(humans)) != len(humans):
            raise ValueError("players: the same player_id sits at two seats")
        orders = [seat.forfeit_order for seat in self.players if seat.forfeited]
        if len(set(orders)) != len(orders):
            raise ValueError("players: two seats share a forfeit_order")
        _check_places([seat.place for seat in self.players])
        stayed = [seat.place for seat in self.players if not seat.forfeited]
        left = [seat.place for seat in self.players if seat.forfeited]
        if stayed and left and min(left) <= max(stayed):
            raise ValueError("players: a forfeited seat must be placed below every other seat")

    # --------------------------------------------------------------- queries

    @property
    def ended(self) -> datetime:
        return parse_utc(self.ended_at)

    @property
    def started(self) -> datetime:
        return parse_utc(self.started_at)

    @property
    def winners(self) -> list[int]:
        """The seats that won: those placed first that did not forfeit (none when all did)."""
        return [p.seat for p in self.players if p.place == 1 and not p.forfeited]

    @property
    def is_rated(self) -> bool:
        """Only ranked live matches between four people that were played out are rated."""
        return (
            self.mode == "live"
            and self.ranked
            and self.outcome != "aborted"
            and not any(seat.is_bot for seat in self.players)
        )

    # ----------------------------------------------------------- text form

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = [asdict(seat) for seat in self.players]
        return data

    def to_json(self) -> str:
        """The message's JSON text; ``ValueError`` if longer than ``MAX_MESSAGE_CHARS``."""
        try:
            text = json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)
        except RecursionError as exc:
            raise ValueError("fairness: nested too deeply") from exc
        except (TypeError, ValueError) as exc:
            raise ValueError(f"message: not JSON ({exc})") from exc
        _check_size(len(text))
        return text

    @classmethod
    def from_dict(cls, data: object) -> FinishedMatch:
        """Build and validate a message from decoded JSON; ``ValueError`` if malformed."""
        try:
            size = len(json.dumps(data, ensure_ascii=False))
        except RecursionError as exc:
            raise ValueError("message: nested too deeply") from exc
        except (TypeError, ValueError) as exc:
            raise ValueError(f"message: not JSON ({exc})") from exc
        _check_size(size)
        return cls._from_decoded(data)

    @classmethod
    def _from_decoded(cls, data: object) -> FinishedMatch:
        """``from_dict`` without the size check (``from_json`` checked the text)."""
        if not isinstance(data, dict):
            raise ValueError("message: must be a JSON object")
        known = {
            "schema_version",
            "match_id",
            "mode",
            "ranked",
            "ruleset",
            "hands",
            "players",
            "started_at",
            "ended_at",
            "outcome",
            "fairness",
        }
        missing = sorted((known - {"fairness"}) - data.keys())
        if missing:
            raise ValueError(f"message: missing field(s) {', '.join(missing)}")
        unknown = sorted(data.keys() - known)
        if unknown:
            raise ValueError(f"message: unknown field(s) {', '.join(unknown)}")
        raw_players = data["players"]
        if not isinstance(raw_players, list):
            raise ValueError("players: must be a list")
        players = tuple(_seat_from_dict(index, entry) for index, entry in enumerate(raw_players))
        fairness = data.get("fairness", {})
        return cls(
            match_id=_require_type("match_id", data["match_id"], str),
            mode=cast(Mode, data["mode"]),
            ranked=data["ranked"],
            ruleset=data["ruleset"],
            hands=data["hands"],
            players=players,
            started_at=data["started_at"],
            ended_at=data["ended_at"],
            outcome=cast(Outcome, data["outcome"]),
            fairness=fairness,
            schema_version=data["schema_version"],
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> FinishedMatch:
        # Checked before parsing: a huge text costs its parse whatever it holds.
        if isinstance(text, str | bytes):
            _check_size(len(text))
        try:
            data = json.loads(text)
        except RecursionError as exc:
            raise ValueError("message: not valid JSON (nested too deeply)") from exc
        except (TypeError, ValueError) as exc:
            raise ValueError(f"message: not valid JSON ({exc})") from exc
        return cls._from_decoded(data)


_SEAT_FIELDS: Final = frozenset(
    {
        "seat",
        "player_id",
        "name",
        "is_bot",
        "is_guest",
        "total",
        "place",
        "forfeited",
        "forfeit_order",
        "left_at",
    }
)
_SEAT_REQUIRED: Final = frozenset({"seat", "player_id", "name", "is_bot", "total", "place"})


def _seat_from_dict(index: int, entry: object) -> SeatResult:
    where = f"players[{index}]"
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: must be a JSON object")
    missing = sorted(_SEAT_REQUIRED - entry.keys())
    if missing:
        raise ValueError(f"{where}: missing field(s) {', '.join(missing)}")
    unknown = sorted(entry.keys() - _SEAT_FIELDS)
    if unknown:
        raise ValueError(f"{where}: unknown field(s) {', '.join(unknown)}")
    return SeatResult(
        seat=entry["seat"],
        player_id=entry["player_id"],
        name=entry["name"],
        is_bot=entry["is_bot"],
        total=entry["total"],
        place=entry["place"],
        forfeited=entry.get("forfeited", False),
        forfeit_order=entry.get("forfeit_order"),
        left_at=entry.get("left_at"),
        is_guest=entry.get("is_guest", False),
    )


def _moment(name: str, value: object) -> datetime:
    """A timestamp field, parsed, inside [EARLIEST, LATEST)."""
    try:
        moment = parse_utc(_require_type(name, value, str))
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from exc
    if not EARLIEST <= moment < LATEST:
        raise ValueError(
            f"{name}: {format_utc(moment)} is outside [{format_utc(EARLIEST)}, "
            f"{format_utc(LATEST)})"
        )
    return moment


def _check_size(size: int) -> None:
    if size > MAX_MESSAGE_CHARS:
        raise ValueError(
            f"message: {size} characters of JSON, at most {MAX_MESSAGE_CHARS} "
            "(the fairness transcript is most of it)"
        )


def _require_type(name: str, value: object, kind: type[T]) -> T:
    if not isinstance(value, kind):
        raise ValueError(f"{name}: must be {kind.__name__}, got {type(value).__name__}")
    return value


def _require_int(name: str, value: object) -> int:
    # bool is an int subclass in Python, but true is not a number of hands.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}: must be an integer, got {type(value).__name__}")
    return value


def _check_places(places: list[int]) -> None:
    """Places must be competition ranks: a place shared by n seats skips the next n-1."""
    for place in set(places):
        better = sum(1 for other in places if other < place)
        if better != place - 1:
            raise ValueError(f"players: places {sorted(places)} are not competition ranks")
