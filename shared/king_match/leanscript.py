"""A Lua script called on the hot path with as little client work as the protocol allows.

Every move is one ``EVALSHA`` (the commit, ``commit.py``), with some twenty arguments. Through
redis-py's ``Script`` the call passes the command layer (argument filtering, a retry wrapper,
observability hooks, a pool that checks each connection) and its general-purpose encoder; on
the game service's workers that cost several times the round trip itself. ``LeanScript`` writes
the command packed in one ``join`` and reads the reply with the connection's own parser:
timeouts, errors and reconnects stay redis-py's.

Connections: the pool's checkout polls the socket (is there unread data, is it still open?),
which on a gevent worker costs more than packing the command. ``LeanScript`` keeps a few
connections it has used in a small reserve of its own (a list: taking and giving back are
single steps, so greenlets and threads cannot interleave inside them) and takes the pool's
path only when the reserve is empty or full. A reserved connection skips that poll, so it may
have died while it waited (a Redis restart); then the call goes once more, on a connection from
the pool. That is safe for the scripts we run this way: the commit applies only at the version
it expects (a second run of a commit that did land finds the match moved on, and the caller's
replay finds the stored answer), and the counted load only reads and counts.

What it leaves out on purpose: blind retries. A commit whose reply was lost on a connection the
pool had just checked is not sent again; the caller sees the ``ConnectionError`` (and the client
retries its request, with its Idempotency-Key). A server that lost the script (``NOSCRIPT``,
after a restart or ``SCRIPT FLUSH``) gets it through redis-py's ``Script``, which loads it and
runs the call.

This class is the one place that uses redis-py below its command layer (inline, on the hot
path; docs/library-seams.md): ``Redis.connection`` (set only for a single-connection client),
``connection_pool.get_connection()`` and ``release``, and a connection's
``send_packed_command(..., check_health=False)`` and ``read_response()``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import Any

from redis import Redis
from redis.exceptions import ConnectionError, NoScriptError

from .keys import is_cluster

#: Connections a script keeps between calls (about the calls in flight at once per process).
RESERVE = 8


@cache
def lua_source(name: str) -> str:
    """The source of the match layer's script ``lua/<name>.lua``."""
    return files(__package__).joinpath("lua", f"{name}.lua").read_text(encoding="utf-8")


def pack(args: Sequence[str | bytes | int]) -> bytes:
    """One command in RESP: ``*<n>`` then ``$<len>`` and the bytes of each argument."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


class LeanScript:
    def __init__(self, redis: Redis, source: str, reserve: int = RESERVE) -> None:
        self.redis = redis
        self.script = redis.register_script(source)
        self.reserve: list[Any] = []
        self.reserve_size = reserve
        self.pid = os.getpid()
        self.cluster = is_cluster(redis)

    def __call__(self, keys: Sequence[str], args: Sequence[str | bytes | int]) -> Any:
        redis = self.redis
        if self.cluster or redis.connection is not None:
            # A cluster client routes by key slot, a single-connection client has its own path.
            return self.script(keys=keys, args=args)
        command = pack(("EVALSHA", self.script.sha, len(keys), *keys, *args))
        reserve = self.reserve
        if self.pid != os.getpid():  # forked: those sockets are the parent's
            reserve.clear()
            self.pid = os.getpid()
        self.cluster = is_cluster(redis)
        if reserve:
            try:
                return self._run(reserve.pop(), command, keys, args)
            except ConnectionError:
                pass  # it may have died while it waited: once more on a checked connection
        return self._run(redis.connection_pool.get_connection(), command, keys, args)

    def _run(
        self,
        connection: Any,
        command: bytes,
        keys: Sequence[str],
        args: Sequence[str | bytes | int],
    ) -> Any:
        """Send and read on ``connection``: back to the reserve after a reply, to the pool after
        anything else."""
        pool = self.redis.connection_pool
        try:
            connection.send_packed_command([command], check_health=False)
            reply = connection.read_response()
        except NoScriptError:
            # Rare (a restart). The reply was read, so the connection is fine: back to the pool,
            # from which redis-py's Script takes one to load the script and run the call.
            pool.release(connection)
            return self.script(keys=keys, args=args)
        except BaseException:
            pool.release(connection)  # disconnected, or mid-reply
            raise
        if len(self.reserve) < self.reserve_size:
            self.reserve.append(connection)
        else:
            pool.release(connection)
        return reply
