"""The decoded states of the matches this process read or wrote last, kept for the next load.

A stored state is decoded through its ruleset's checked path. For the ``standard`` and
``classic20`` format that is a few tens of microseconds, but the rulesets stored as their whole
move log (``traditional``, ``konturlu``, ``international``) replay every move of the match on
each load, milliseconds late in a match, and a match is loaded several times a move (the
mover's write, the bots' view and write, the players' reads). So the last state of each
recently used match is kept decoded, keyed by its exact stored bytes, and handed out as a
private copy (``copy()``, microseconds): the same bytes always decode to the same state, so a
copy of the kept one is what a decode would give (``tests/match/test_decoded.py``).

Bounded to the matches used last. Locking: one lock, held only for dictionary operations,
never across a decode (``sync.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from king_engine import GameState, game_from_bytes

from .latest import file_newest
from .sync import primitives

#: Decoded states kept: the matches used last. Few on purpose: a kept state is tens of
#: objects, and keeping one for every match of a busy process adds to what each young garbage
#: collection walks (docs/performance.md).
DECODED_KEEP = 256


class DecodedStates:
    def __init__(self, new_lock: Callable[[], Any] | None = None) -> None:
        self.lock = (new_lock or primitives()[0])()
        #: match id -> (stored bytes, decoded state), least recently used first.
        self.kept: dict[str, tuple[bytes, GameState]] = {}

    def state(self, match_id: str, data: bytes) -> GameState:
        """A private copy of the state ``data`` holds (decoded, and checked, on a miss)."""
        with self.lock:
            known = self.kept.get(match_id)
        if known is not None and known[0] == data:
            self.keep(match_id, data, known[1])
            copy: GameState = known[1].copy()
            return copy
        state = game_from_bytes(data)
        self.keep(match_id, data, state.copy())
        return state

    def keep(self, match_id: str, data: bytes, state: GameState) -> None:
        """Keep ``state`` as what ``data`` decodes to: the caller's own copy (or the kept one),
        never changed again."""
        with self.lock:
            file_newest(self.kept, match_id, (data, state), DECODED_KEEP)

    def __iter__(self) -> Iterator[str]:
        """The match ids kept, least recently used first."""
        with self.lock:
            return iter(list(self.kept))
