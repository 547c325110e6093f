"""The latest-commit cache and the kept decoded states: bounded, copies only, and their lock
never held across a greenlet switch (under gevent the lock is a plain OS lock: a greenlet that
switched away holding it would block its whole worker on the next acquire)."""

from __future__ import annotations

import threading
from typing import Any

import gevent
import greenlet
import pytest

import king_match.decoded as decoded_module
import king_match.latest as latest_module
from king_engine import new_match
from king_match.decoded import DecodedStates
from king_match.latest import LastCommit, LatestCommits


class Contended(Exception):
    pass


class WatchedLock:
    """A lock that knows whether it is held, and refuses (instead of blocking the thread, as
    the real lock would) a greenlet that finds it taken."""

    def __init__(self) -> None:
        self.inner = threading.Lock()
        self.held = False

    def __enter__(self) -> None:
        if not self.inner.acquire(blocking=False):
            raise Contended
        self.held = True

    def __exit__(self, *exc: Any) -> None:
        self.held = False
        self.inner.release()


def state_hexes(count: int) -> list[str]:
    return [new_match("standard", 8, bytes([n]) * 32).to_bytes().hex() for n in range(count)]


def switches_while_held(cache_class: type[LatestCommits]) -> tuple[int, int]:
    """Work a cache from many greenlets that switch between every call: (switches seen,
    switches made while the cache's lock was held)."""
    locks: list[WatchedLock] = []

    def new_lock() -> WatchedLock:
        locks.append(WatchedLock())
        return locks[-1]

    cache = cache_class(new_lock)
    decoded = DecodedStates(new_lock)
    hexes = state_hexes(3)
    seen = [0, 0]

    def trace(event: str, args: Any) -> None:
        seen[0] += 1
        if any(lock.held for lock in locks):
            seen[1] += 1

    def work(n: int) -> None:
        match_id = f"m{n % 5}"
        for step in range(20):
            state_hex = hexes[(n + step) % 3]
            cache.put(match_id, LastCommit(step, None, step, "{}", state_hex))
            gevent.sleep(0)
            cache.latest(match_id)
            gevent.sleep(0)
            cache.after(match_id, step)
            gevent.sleep(0)
            decoded.state(match_id, bytes.fromhex(state_hex))
            gevent.sleep(0)
            if step % 7 == 0:
                cache.forget(match_id)
                gevent.sleep(0)

    previous = greenlet.settrace(trace)
    try:
        workers = [gevent.spawn(work, n) for n in range(10)]
        gevent.joinall(workers)
    finally:
        greenlet.settrace(previous)
    for worker in workers:
        if worker.exception is not None and not isinstance(worker.exception, Contended):
            raise worker.exception
    return seen[0], seen[1]


def test_the_lock_is_never_held_across_a_greenlet_switch():
    switches, held = switches_while_held(LatestCommits)
    assert switches > 100  # the greenlets did interleave
    assert held == 0


def test_the_check_sees_a_lock_held_across_a_switch():
    """The check above can fail: a cache that waits while holding its lock is caught."""

    class Careless(LatestCommits):
        def latest(self, match_id: str) -> LastCommit | None:
            with self.lock:
                gevent.sleep(0)  # e.g. a network call made under the lock
                return self.commits.get(match_id)

    _, held = switches_while_held(Careless)
    assert held > 0


def test_states_handed_out_are_copies():
    decoded = DecodedStates()
    data = bytes.fromhex(state_hexes(1)[0])
    for _ in range(2):  # the decode, then the kept state
        first = decoded.state("m", data)
        seat = first.current_player
        assert seat is not None
        first.apply(seat, first.legal_moves(seat)[0])
    again = decoded.state("m", data)
    assert again.to_bytes() == data  # the kept state did not change with the copies


@pytest.mark.parametrize("keep", [1, 3])
def test_both_caches_are_bounded_oldest_first(monkeypatch, keep):
    monkeypatch.setattr(latest_module, "COMMITS_KEEP", keep)
    monkeypatch.setattr(decoded_module, "DECODED_KEEP", keep)
    cache, decoded = LatestCommits(), DecodedStates()
    state_hex = state_hexes(1)[0]
    for n in range(5):
        cache.put(f"m{n}", LastCommit(n, None, n, "{}", state_hex))
        decoded.state(f"m{n}", bytes.fromhex(state_hex))
    assert list(cache.commits) == [f"m{n}" for n in range(5 - keep, 5)]
    assert list(decoded) == [f"m{n}" for n in range(5 - keep, 5)]
    cache.put("m0", LastCommit(9, None, 9, "{}", state_hex))
    assert list(cache.commits)[-1] == "m0"
    assert cache.after("m0", 9) is not None and cache.after("m0", 8) is None
    cache.forget()
    assert cache.latest("m0") is None
