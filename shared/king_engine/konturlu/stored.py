"""The stored form of a konturlu state (format 3, "own state").

Layout: 3, the ruleset id, the number of hands, the options (none), the 32-byte match key,
every player action (varints), then facts the replay must reach again (version, first
declarer, hand, deal number, totals) and the forfeit marks (seat and the version at which it
was marked). Loading replays the moves through the checked path and compares the facts: a
stored state is never trusted, and anything malformed is ``BadInput("bad_state")``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..codec import varint
from ..deal import deal_hand
from ..errors import BadInput

if TYPE_CHECKING:
    from .ruleset import KonturluRuleset
    from .state import KonturluState


def encode(state: KonturluState) -> bytes:
    """The bytes of ``state``."""
    if state.dealer is not deal_hand:
        raise BadInput("bad_state", "a state on forced deals (a test's) is not serialisable")
    parts = [bytes((OWN_STATE_FORMAT, state.ruleset.id, state.num_hands, 0)), state.match_key]
    parts.append(varint(len(state.log)))
    parts.extend(varint(a) for a in state.log)
    parts.append(varint(state.version))
    parts.append(bytes((state.first,)))
    parts.append(varint(state.hand_index))
    parts.append(varint(state.deal_no))
    parts.extend(varint(_zigzag(t)) for t in state.totals)
    parts.append(bytes((len(state.forfeits),)))
    for seat, at in zip(state.forfeits, state.forfeit_at, strict=True):
        parts.append(bytes((seat,)) + varint(at))
    return b"".join(parts)


def decode(ruleset: KonturluRuleset, data: bytes) -> KonturluState:
    """The inverse of ``encode``: the moves are replayed, each checked legal, and the stored
    facts compared; ``BadInput("bad_state")`` otherwise."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise BadInput("bad_state", "a stored state is bytes")
    reader = _Reader(bytes(data))
    if reader.byte() != OWN_STATE_FORMAT or reader.byte() != ruleset.id:
        raise BadInput("bad_state", "not a stored konturlu state")
    num_hands = reader.byte()
    if num_hands not in ruleset.lengths or reader.byte() != len(ruleset.option_specs):
        raise BadInput("bad_state", "bad match length or options")
    key = reader.take(32)
    state = ruleset.new_state(num_hands, key, {}, deal_hand)
    actions = [reader.varint() for _ in range(reader.varint())]
    version, first = reader.varint(), reader.byte()
    hand, deal_no = reader.varint(), reader.varint()
    totals = [_unzigzag(reader.varint()) for _ in range(4)]
    marks = []
    for _ in range(reader.byte()):
        seat = reader.byte()
        marks.append((reader.varint(), seat))
    if reader.at != len(reader.data):
        raise BadInput("bad_state", "trailing bytes after the stored state")
    if marks != sorted(marks, key=lambda m: m[0]) or any(s > 3 for _, s in marks):
        raise BadInput("bad_state", "bad forfeit marks")
    pending = list(marks)
    try:
        for index, action in enumerate(actions):
            while pending and pending[0][0] == index:
                state.forfeit(pending.pop(0)[1])
            if state.is_over or action not in state.legal_actions():
                raise BadInput("bad_state", "the stored moves do not replay")
            state.apply_action(action)
        while pending and pending[0][0] == len(actions):
            state.forfeit(pending.pop(0)[1])
    except AssertionError as exc:
        raise BadInput("bad_state", f"the stored moves do not replay: {exc}") from exc
    if (
        pending
        or state.forfeits != tuple(s for _, s in marks)
        or state.forfeit_at != tuple(at for at, _ in marks)
        or (version, first, hand, deal_no, totals)
        != (state.version, state.first, state.hand_index, state.deal_no, state.totals)
    ):
        raise BadInput("bad_state", "the stored facts are not the replay's")
    return state


OWN_STATE_FORMAT: Final = 3


def _zigzag(value: int) -> int:
    return value * 2 if value >= 0 else -value * 2 - 1


def _unzigzag(value: int) -> int:
    return value // 2 if value % 2 == 0 else -(value + 1) // 2


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise BadInput("bad_state", "the stored state is cut short")
        value = self.data[self.at]
        self.at += 1
        return value

    def varint(self) -> int:
        value = shift = 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7
            if shift > 35:
                raise BadInput("bad_state", "a varint is too long")

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise BadInput("bad_state", "the stored state is cut short")
        chunk = self.data[self.at : self.at + n]
        self.at += n
        return chunk
