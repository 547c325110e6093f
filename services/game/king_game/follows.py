"""Streams and long-polls end when their token is revoked.

A follow (an NDJSON stream, a long-poll of the events) checks its token once, when it starts,
and may then stay open for minutes. While open it is filed here under its token's hash. When a
revocation reaches the process (``Accounts.revoke`` broadcasts it; every process's Pub/Sub
listener, and the revoking process itself, call ``Accounts.forget``, which calls
``Follows.revoked``), the follows of that token end at once: a stream sends nothing more and
closes, a long-poll answers 401 ``unauthenticated``.

The wait itself is the match layer's (``king_match.follow``, ``MatchStore.events``), which
wakes only for its match's commits. So the work is done by a helper (a greenlet under the
game worker's gevent, a thread otherwise) and the request waits for whichever comes first: the
helper's answer or the revocation. A stream's helper makes its next chunk only when the
request asks for it, so it never runs ahead of a slow client; a helper left behind (revoked,
or the client went away) stops at the end of its current wait (a heartbeat at most) and writes
to no one.

A stream also checks its token before each chunk it sends (``Accounts.authenticate``: the
process's cache, no round trip), so a revocation this process missed (its Pub/Sub connection
dropped; it then clears its token cache) still ends the stream at its next chunk. (An open
stream is a use of its token: these checks renew it as any request does.)
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from king_game.accounts import AccountError, Accounts, token_hash

T = TypeVar("T")

#: What the request's inbox may get besides a chunk or a result.
_ENDED = object()  # the token was revoked
_DONE = object()  # the stream's lines are over
#: What a stream's helper may be asked.
_NEXT = object()
_STOP = object()


class Revoked(Exception):
    """The token of a long-poll was revoked while it waited."""


class _Failed:
    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Follow:
    """One open follow: its inbox, where the helper's answers and a revocation arrive."""

    __slots__ = ("inbox",)

    def __init__(self) -> None:
        self.inbox: queue.Queue[Any] = queue.Queue()

    def end(self) -> None:
        self.inbox.put(_ENDED)


class Follows:
    """The open follows of one process, by token hash (hex)."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self._lock = threading.Lock()  # (held for a few dictionary operations only)
        self._open: dict[str, set[_Follow]] = {}
        accounts.on_forget(self.revoked)

    def revoked(self, digest_hex: str | None) -> None:
        """End the follows of a revoked token (None, a message may have been missed: each
        stream checks its token again at its next chunk)."""
        if digest_hex is None:
            return
        with self._lock:
            ending = list(self._open.get(digest_hex, ()))
        for follow in ending:
            follow.end()

    def open_count(self) -> int:
        with self._lock:
            return sum(len(follows) for follows in self._open.values())

    @contextmanager
    def _filed(self, token: str) -> Iterator[_Follow]:
        digest = token_hash(token).hex()
        follow = _Follow()
        with self._lock:
            self._open.setdefault(digest, set()).add(follow)
        try:
            yield follow
        finally:
            with self._lock:
                follows = self._open.get(digest)
                if follows is not None:
                    follows.discard(follow)
                    if not follows:
                        del self._open[digest]

    def call(self, token: str, work: Callable[[], T]) -> T:
        """``work()``'s result (a long-poll's wait), or ``Revoked`` as soon as ``token`` is
        revoked, whichever comes first."""
        with self._filed(token) as follow:
            if not self._valid(token):
                raise Revoked

            def helper() -> None:
                try:
                    follow.inbox.put(work())
                except BaseException as exc:  # re-raised in the request
                    follow.inbox.put(_Failed(exc))

            threading.Thread(target=helper, name="king-follow", daemon=True).start()
            answer = follow.inbox.get()
        if answer is _ENDED:
            raise Revoked
        if isinstance(answer, _Failed):
            raise answer.error
        result: T = answer
        return result

    def stream(self, token: str, chunks: Iterator[bytes]) -> Iterator[bytes]:
        """``chunks`` for as long as ``token`` holds: the stream ends, without another chunk,
        when the token is revoked (at once) or found revoked or expired (before a chunk)."""
        asks: queue.Queue[object] = queue.Queue()
        with self._filed(token) as follow:
            if not self._valid(token):
                return
            threading.Thread(
                target=_make_chunks,
                args=(chunks, asks, follow.inbox),
                name="king-stream",
                daemon=True,
            ).start()
            try:
                while True:
                    asks.put(_NEXT)
                    answer = follow.inbox.get()
                    if answer is _ENDED or answer is _DONE:
                        return
                    if isinstance(answer, _Failed):
                        raise answer.error
                    if not self._valid(token):
                        return
                    yield answer
            finally:
                asks.put(_STOP)

    def _valid(self, token: str) -> bool:
        """Whether ``token`` still holds (the process's cache: no round trip while it does).
        Also asked once a follow is filed: a revocation that came between the request's own
        check and the filing found nothing to end."""
        try:
            return self.accounts.authenticate(token) is not None
        except AccountError:  # expired
            return False


def _make_chunks(
    chunks: Iterator[bytes], asks: queue.Queue[object], answers: queue.Queue[Any]
) -> None:
    """A stream's helper: the next chunk each time it is asked, until told to stop."""
    try:
        while asks.get() is _NEXT:
            try:
                chunk = next(chunks)
            except StopIteration:
                answers.put(_DONE)
                return
            except BaseException as exc:  # re-raised in the request
                answers.put(_Failed(exc))
                return
            answers.put(chunk)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()  # (leaves the match's watch: king_match.follow)
