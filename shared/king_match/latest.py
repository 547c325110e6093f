"""The latest commit of each followed match, kept in the process for the write path.

The notifier (``notify.py``) hears every commit's message; for a match this process follows it
files the message's record and state here. A move on that match can then start from this copy
instead of loading the match (``writer.py``; the commit still checks the version, so a stale
copy costs a retry, never a wrong write), and the stream of the player whose turn it now is can
render their view from it.

The commit's state is decoded through the store's kept decoded states (``decoded.py``).
Bounded to the matches followed last.

Locking: one lock, held only for dictionary operations — never across a decode or anything
that could switch greenlets (``tests/match/test_latest.py`` fails if it is).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, NamedTuple

from .sync import primitives

#: Followed matches whose latest commit is kept (more than a process follows at full load).
COMMITS_KEEP = 4096


class LastCommit(NamedTuple):
    """What the latest commit message of a followed match said."""

    seq: int  #: its last event
    turn: int | None  #: the seat whose player may move after it (``player_to_act``)
    version: int
    meta: str  #: the record's JSON
    state_hex: str  #: the engine state, hex ("" before the start)


class LatestCommits:
    def __init__(self, new_lock: Callable[[], Any] | None = None) -> None:
        self.lock = (new_lock or primitives()[0])()
        #: match id -> its latest commit, oldest first.
        self.commits: dict[str, LastCommit] = {}

    # ------------------------------------------------------------------ commits

    def put(self, match_id: str, commit: LastCommit) -> None:
        """File ``commit`` as the match's latest (the notifier, for a followed match)."""
        with self.lock:
            file_newest(self.commits, match_id, commit, COMMITS_KEEP)

    def forget(self, match_id: str | None = None) -> None:
        """Drop a match's commit (it is no longer followed, or its message was unreadable);
        with no match, every match's (the notifier reconnected: messages may be lost)."""
        with self.lock:
            if match_id is None:
                self.commits.clear()
            else:
                self.commits.pop(match_id, None)

    def latest(self, match_id: str) -> LastCommit | None:
        """The latest commit known of a followed match (None: not followed, or not known
        since a reconnect). It may be stale: a write from it must check the version."""
        with self.lock:
            return self.commits.get(match_id)

    def after(self, match_id: str, seq: int) -> LastCommit | None:
        """The commit that wrote event ``seq``, when it is the latest known; else None."""
        last = self.latest(match_id)
        return last if last is not None and last.seq == seq else None


def file_newest(kept: dict[str, Any], match_id: str, value: Any, keep: int) -> None:
    """``kept[match_id] = value`` as the newest entry, dropping the oldest beyond ``keep``."""
    kept.pop(match_id, None)
    if len(kept) >= keep:
        with contextlib.suppress(StopIteration):
            del kept[next(iter(kept))]
    kept[match_id] = value
