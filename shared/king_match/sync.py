"""Locks and waiters that suit the process: threads, or gevent's greenlets.

Under gevent's monkey-patching (the game service's workers) a waiter is gevent's event, and a
lock is a plain, unpatched OS lock: the match layer holds its locks only for a few dictionary
operations, never across a greenlet switch (``tests/match/test_latest.py`` checks it for the
latest-commit cache), so such a lock is never contended and costs next to nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol


class Waiter(Protocol):
    def set(self) -> None: ...

    def wait(self, timeout: float | None = None) -> bool: ...


def primitives() -> tuple[Callable[[], Any], Callable[[], Waiter]]:
    """(lock factory, waiter factory) for this process (see the module docstring)."""
    try:
        from gevent import monkey
    except ImportError:
        return threading.Lock, threading.Event
    if not monkey.is_module_patched("threading"):
        return threading.Lock, threading.Event
    from gevent.event import Event

    return monkey.get_original("_thread", "allocate_lock"), Event
