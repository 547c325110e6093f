"""The challenge phase of a konturlu hand (RULES-konturlu.md §3): two rounds of calls and
the pair relation they leave.

* Round 1 (kontur): d+1, d+2, d+3 speak once each (the declarer d does not). A call is
  ``iyi``, or a kontur on one or two other seats (``kontur:X``), on all three (``masa``) or on
  both non-declarers (``haric``). In Koz and Dürt only the declarer may be konturred. A named
  list equal to ``masa`` or ``haric`` is recorded as that word (D8).
* Automatic sür: every mutual kontur of round 1 is sürülü at once (§3.4, D14).
* Round 2 (sür): d, d+1, d+2, d+3, each once, but only a seat with something to answer,
  A(s) = the seats that konturred s and were not konturred back; the others are skipped
  (D15). A call is ``iyi`` or ``sur:Y`` for a non-empty Y ⊆ A(s).
* The relation of each pair (§3.6): none (m = 0), kontur / çakılı (1), sür / sürülü (2).

Seat sets are 4-bit masks (bit s = seat s). Calls are (word, mask) with word one of
``iyi kontur masa haric sur``; ``call_text`` gives the canonical text.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from ..errors import BadInput, IllegalMove

SEATS: Final = 4
ALL_SEATS: Final = 0b1111
IYI: Final = "iyi"
KONTUR: Final = "kontur"
MASA: Final = "masa"
HARIC: Final = "haric"
SUR: Final = "sur"

NONE, CAKILI, SURULU = 0, 1, 2
_PAIRS: Final = tuple(combinations(range(SEATS), 2))


def seats_of(mask: int) -> list[int]:
    return [s for s in range(SEATS) if mask >> s & 1]


def format_seats(mask: int) -> str:
    """``0b0101`` -> ``"0,2"`` (ascending, comma-separated, no spaces)."""
    return ",".join(str(s) for s in seats_of(mask))


def parse_seats(text: str) -> int:
    """``"2,0"`` -> ``0b0101``; repeated, unknown or no seats are ``BadInput("bad_move")``."""
    mask = 0
    parts = text.split(",")
    for part in parts:
        part = part.strip()
        if len(part) != 1 or part not in "0123":
            raise BadInput("bad_move", f"{text!r} is not a list of seats 0..3")
        bit = 1 << int(part)
        if mask & bit:
            raise BadInput("bad_move", f"seat {part} is named twice in {text!r}")
        mask |= bit
    return mask


def others(seat: int) -> int:
    """o(s): the three other seats."""
    return ALL_SEATS & ~(1 << seat)


def non_declarers(seat: int, declarer: int) -> int:
    """nd(s): the two other seats that are not the declarer."""
    return others(seat) & ~(1 << declarer)


def call_text(word: str, mask: int) -> str:
    """The canonical text of a call: ``iyi``, ``masa``, ``haric``, ``kontur:0,2``, ``sur:1``."""
    if word in (IYI, MASA, HARIC):
        return word
    return f"{word}:{format_seats(mask)}"


def _by_size(mask: int) -> list[int]:
    """The non-empty subsets of ``mask``: singles ascending, then pairs, then larger (§3.5)."""
    seats = seats_of(mask)
    subsets = []
    for size in range(1, len(seats) + 1):
        for combo in combinations(seats, size):
            subsets.append(sum(1 << s for s in combo))
    return subsets


def round1_calls(speaker: int, declarer: int, penalty: bool) -> list[tuple[str, int]]:
    """The canonical round-1 calls of ``speaker`` in the spec's order (§3.3): penalty
    contracts ``iyi``, the three single seats, the two pairs with d, ``masa``, ``haric``;
    Koz and Dürt ``iyi``, ``kontur:d``. (``boz`` is the state's: it needs the cards.)"""
    if not penalty:
        return [(IYI, 0), (KONTUR, 1 << declarer)]
    singles = [(KONTUR, 1 << s) for s in seats_of(others(speaker))]
    with_declarer = [
        (KONTUR, (1 << declarer) | (1 << s)) for s in seats_of(non_declarers(speaker, declarer))
    ]
    return [
        (IYI, 0),
        *singles,
        *with_declarer,
        (MASA, others(speaker)),
        (HARIC, non_declarers(speaker, declarer)),
    ]


def round2_calls(answerable: int) -> list[tuple[str, int]]:
    """``iyi`` then ``sur:Y`` for every non-empty Y ⊆ A(s) (§3.5): 2^|A(s)| calls."""
    return [(IYI, 0), *((SUR, y) for y in _by_size(answerable))]


class Challenge:
    """The calls of one hand so far and the relation they make.

    ``kontur[a]``: the seats a konturred in round 1; ``sur[a]``: the seats a is sürülü with
    (symmetric; ``auto`` the part made by §3.4). ``queue``: the speakers still to come in
    this round, the first of them to move; ``round`` 1, 2, or 0 once the phase is over.
    """

    __slots__ = ("auto", "calls", "declarer", "kontur", "penalty", "queue", "round", "sur")

    def __init__(self, declarer: int, penalty: bool) -> None:
        self.declarer = declarer
        self.penalty = penalty
        self.kontur = [0, 0, 0, 0]
        self.sur = [0, 0, 0, 0]
        self.auto = [0, 0, 0, 0]
        self.calls: list[tuple[int, int, str, int]] = []  # (round, seat, word, mask)
        self.round = 1
        self.queue = [(declarer + k) % SEATS for k in (1, 2, 3)]

    def copy(self) -> Challenge:
        other = Challenge.__new__(Challenge)
        other.declarer, other.penalty, other.round = self.declarer, self.penalty, self.round
        other.kontur, other.sur, other.auto = self.kontur[:], self.sur[:], self.auto[:]
        other.calls, other.queue = self.calls[:], self.queue[:]
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Challenge):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in Challenge.__slots__)

    __hash__ = None  # type: ignore[assignment]

    @property
    def to_move(self) -> int | None:
        return self.queue[0] if self.queue else None

    @property
    def over(self) -> bool:
        return self.round == 0

    def answerable(self, seat: int) -> int:
        """A(s): the seats that konturred ``seat`` and that it did not kontur back."""
        mask = 0
        for a in range(SEATS):
            if self.kontur[a] >> seat & 1 and not self.kontur[seat] >> a & 1:
                mask |= 1 << a
        return mask

    def legal_calls(self) -> list[tuple[str, int]]:
        seat = self.to_move
        if seat is None:
            return []
        if self.round == 1:
            return round1_calls(seat, self.declarer, self.penalty)
        return round2_calls(self.answerable(seat))

    def canonical(self, seat: int, word: str, mask: int) -> tuple[str, int]:
        """The canonical form of a call by the mover ``seat``, or ``IllegalMove``.

        Round 1: a ``kontur:`` list naming all three others is ``masa``, the two
        non-declarers ``haric`` (penalty contracts; D8). Round 2: ``sur:Y`` needs Y ⊆ A(s).
        """
        d = self.declarer
        if self.round == 1:
            if word == SUR:
                raise IllegalMove("wrong_phase", "sür is a round-2 call", round=1)
            if word == IYI:
                return IYI, 0
            if word == MASA:
                mask = others(seat)
            elif word == HARIC:
                mask = non_declarers(seat, d)
            if mask >> seat & 1:
                raise IllegalMove("illegal_call", "a seat cannot kontur itself", reason="own_seat")
            if not self.penalty:
                if word != KONTUR or mask != 1 << d:
                    raise IllegalMove(
                        "illegal_call",
                        "in Koz and Dürt only the declarer may be konturred",
                        reason="declarer_only",
                    )
                return KONTUR, mask
            if mask == others(seat):
                return MASA, mask
            if mask == non_declarers(seat, d):
                return HARIC, mask
            return KONTUR, mask
        if word != SUR and word != IYI:
            raise IllegalMove("wrong_phase", "round 2 takes only iyi or sür", round=2)
        if word == IYI:
            return IYI, 0
        if mask & ~self.answerable(seat):
            raise IllegalMove(
                "illegal_call",
                f"sür answers a kontur: {format_seats(mask & ~self.answerable(seat))} did not "
                f"kontur seat {seat} (or was konturred back)",
                reason="not_konturred",
            )
        return SUR, mask

    def apply(self, word: str, mask: int) -> list[tuple[int, int]]:
        """Record the mover's canonical call (trusted). Returns the pairs made sürülü
        automatically when this call closes round 1 (§3.4), else []."""
        seat = self.queue.pop(0)
        self.calls.append((self.round, seat, word, mask))
        auto: list[tuple[int, int]] = []
        if self.round == 1:
            self.kontur[seat] = mask
            if not self.queue:
                for a, b in _PAIRS:
                    if self.kontur[a] >> b & 1 and self.kontur[b] >> a & 1:
                        self._make_sur(a, b)
                        self.auto[a] |= 1 << b
                        self.auto[b] |= 1 << a
                        auto.append((a, b))
                self.round = 2
                self.queue = [
                    s
                    for s in ((self.declarer + k) % SEATS for k in range(SEATS))
                    if self.answerable(s)
                ]
        elif word == SUR:
            for other in seats_of(mask):
                self._make_sur(seat, other)
        if self.round == 2 and not self.queue:
            self.round = 0
        return auto

    def _make_sur(self, a: int, b: int) -> None:
        self.sur[a] |= 1 << b
        self.sur[b] |= 1 << a

    def relation(self, a: int, b: int) -> int:
        """m(a, b): 0 none, 1 kontur (çakılı), 2 sür (sürülü) (§3.6)."""
        if self.sur[a] >> b & 1:
            return SURULU
        if self.kontur[a] >> b & 1 or self.kontur[b] >> a & 1:
            return CAKILI
        return NONE

    def multipliers(self) -> dict[tuple[int, int], int]:
        """{(a, b): m} for the pairs with a relation, a < b."""
        pairs = {}
        for a, b in _PAIRS:
            m = self.relation(a, b)
            if m:
                pairs[(a, b)] = m
        return pairs

    def pair_table(self) -> dict[str, str]:
        """Appendix A's pair table: ``"a-b"`` -> ``kontur``, ``sur`` or ``sur_auto``."""
        table = {}
        for a, b in _PAIRS:
            m = self.relation(a, b)
            if m == CAKILI:
                table[f"{a}-{b}"] = "kontur"
            elif m == SURULU:
                table[f"{a}-{b}"] = "sur_auto" if self.auto[a] >> b & 1 else "sur"
        return table

    def to_dict(self) -> dict[str, Any]:
        """The public challenge state (§8.3, Appendix A)."""
        # Round 2's speakers still to come with what each can answer (the current one first).
        pending = (
            {str(s): seats_of(self.answerable(s)) for s in self.queue} if self.round == 2 else {}
        )
        return {
            "round": self.round,
            "to_move": self.to_move,
            "speakers": self.queue[:],
            "calls": [
                {"round": r, "seat": s, "call": call_text(w, m), "targets": seats_of(m)}
                for r, s, w, m in self.calls
            ],
            "kontur": [[a, b] for a in range(SEATS) for b in seats_of(self.kontur[a])],
            "pairs": self.pair_table(),
            "pending": pending,
        }


__all__ = [
    "CAKILI",
    "HARIC",
    "IYI",
    "KONTUR",
    "MASA",
    "NONE",
    "SUR",
    "SURULU",
    "Challenge",
    "call_text",
    "format_seats",
    "non_declarers",
    "others",
    "parse_seats",
    "round1_calls",
    "round2_calls",
    "seats_of",
]
