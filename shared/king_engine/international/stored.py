"""The stored form of an ``international`` state (FAMILY-PROTOCOL.md, format 3).

Layout: ``_HEAD`` (format 3, ruleset id 4, this layout's number, the deck option, the annul
condition, the first dealer), the 32-byte match key, the players' moves as (seat, action)
in u16s (``seat << 9 | action``; the engine's auto moves are not stored, the replay makes them
again), the forfeit marks as (seat, version), and ``_FACTS`` (version, hand, phase, totals).

Loading replays the moves through the checked path and checks the facts: a stored state is
never trusted, and anything malformed or inconsistent is ``BadInput("bad_state")``.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Final

from ..deal import deal_hand, opening_draw
from ..errors import BadInput, IllegalMove
from .moves import move_of_action
from .rules import ANNUL_CONDITIONS
from .state import PHASES, InternationalState

if TYPE_CHECKING:
    from .ruleset import InternationalRuleset


def encode(state: InternationalState) -> bytes:
    """The bytes of ``state``."""
    parts = [
        _HEAD.pack(
            OWN_STATE_FORMAT,
            state.ruleset.id,
            _LAYOUT,
            0 if state.values.size == 52 else 1,
            ANNUL_CONDITIONS.index(state.annul_condition),
            state.first,
        ),
        state.match_key,
        struct.pack(">H", len(state.log)),
        b"".join(struct.pack(">H", seat << 9 | action) for seat, action in state.log),
        bytes((len(state.forfeits),)),
        b"".join(
            struct.pack(">BI", seat, at)
            for seat, at in zip(state.forfeits, state.forfeit_at, strict=True)
        ),
        _FACTS.pack(state.version, state.hand_index, PHASES.index(state.phase), *state.totals),
    ]
    return b"".join(parts)


OWN_STATE_FORMAT: Final = 3
_LAYOUT: Final = 1  # this module's layout of the rest
_HEAD: Final = struct.Struct(">BBBBBB")
_FACTS: Final = struct.Struct(">IBBiiii")


def decode(ruleset: InternationalRuleset, data: bytes) -> InternationalState:
    """The inverse of ``to_bytes``, replayed through the checked path; anything malformed or
    inconsistent raises ``BadInput("bad_state")``."""
    try:
        return _decode(ruleset, data)
    except BadInput as exc:
        if exc.code == "bad_state":
            raise
        raise BadInput("bad_state", f"the stored moves do not replay: {exc.message}") from exc
    except IllegalMove as exc:
        raise BadInput("bad_state", f"the stored moves do not replay: {exc.message}") from exc
    except (struct.error, IndexError, ValueError, KeyError, TypeError) as exc:
        raise BadInput("bad_state", f"not a serialised international state: {exc}") from exc


def _decode(ruleset: InternationalRuleset, data: bytes) -> InternationalState:
    if not isinstance(data, bytes):
        raise BadInput("bad_state", "a stored state is bytes")
    fmt, rid, layout, deck, annul, first = _HEAD.unpack_from(data, 0)
    if fmt != OWN_STATE_FORMAT or rid != ruleset.id or layout != _LAYOUT:
        raise BadInput("bad_state", "not an international state of this layout")
    at = _HEAD.size
    key = data[at : at + 32]
    if len(key) != 32:
        raise BadInput("bad_state", "truncated match key")
    at += 32
    (count,) = struct.unpack_from(">H", data, at)
    at += 2
    moves = []
    for _ in range(count):
        (word,) = struct.unpack_from(">H", data, at)
        at += 2
        moves.append((word >> 9, word & 0x1FF))
    marks = data[at]
    at += 1
    forfeits = []
    for _ in range(marks):
        seat, version = struct.unpack_from(">BI", data, at)
        at += 5
        forfeits.append((seat, version))
    facts = _FACTS.unpack_from(data, at)
    if at + _FACTS.size != len(data):
        raise BadInput("bad_state", "trailing bytes after the state")
    options = ruleset.check_options(
        {"deck": (52, 32)[deck], "annul_condition": ANNUL_CONDITIONS[annul]}
    )
    if first != opening_draw(key).winner:
        raise BadInput("bad_state", "the first dealer is not the opening draw's winner")
    state = InternationalState.start(ruleset, key, options, deal_hand, first)
    pending = list(forfeits)
    for seat, action in moves:
        while pending and pending[0][1] == state.version:
            state.forfeit(pending.pop(0)[0])
        state.apply(seat, move_of_action(action))
    while pending and pending[0][1] == state.version:
        state.forfeit(pending.pop(0)[0])
    if pending or [(s, v) for s, v in zip(state.forfeits, state.forfeit_at, strict=True)] != (
        forfeits
    ):
        raise BadInput("bad_state", "the forfeit marks do not fit the moves")
    want = (state.version, state.hand_index, PHASES.index(state.phase), *state.totals)
    if tuple(facts) != want:
        raise BadInput("bad_state", "the replay does not reach the stored facts")
    return state
