"""A Lua script called on the hot path with as little client work as the protocol allows.

Every move is one ``EVALSHA`` (the commit, ``store.py``), with some twenty arguments. Through
redis-py's ``Script`` the call passes the command layer (argument filtering, a retry wrapper,
observability hooks, a pool that checks each connection) and its general-purpose encoder; on
the game service's workers that cost several times the round trip itself. ``LeanScript`` takes
a connection from the same pool, writes the command packed in one ``join`` and reads the reply
with the connection's own parser: timeouts, errors and reconnects stay redis-py's.

What it leaves out on purpose: retries. A commit whose reply was lost must not be sent again
blindly; the caller sees the ``ConnectionError`` (and the client retries its request, with its
Idempotency-Key). A server that lost the script (``NOSCRIPT``, after a restart or ``SCRIPT
FLUSH``) gets it through redis-py's ``Script``, which loads it and runs the call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis import Redis
from redis.exceptions import NoScriptError


def pack(args: Sequence[str | bytes | int]) -> bytes:
    """One command in RESP: ``*<n>`` then ``$<len>`` and the bytes of each argument."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


class LeanScript:
    def __init__(self, redis: Redis, source: str) -> None:
        self.redis = redis
        self.script = redis.register_script(source)

    def __call__(self, keys: Sequence[str], args: Sequence[str | bytes | int]) -> Any:
        redis = self.redis
        if redis.connection is not None:  # a single-connection client: its own path
            return self.script(keys=keys, args=args)
        pool = redis.connection_pool
        command = pack(("EVALSHA", self.script.sha, len(keys), *keys, *args))
        connection = pool.get_connection()
        try:
            connection.send_packed_command([command], check_health=False)  # type: ignore[no-untyped-call]
            return connection.read_response()
        except NoScriptError:
            pass  # the reply was read: the connection is fine
        finally:
            pool.release(connection)
        return self.script(keys=keys, args=args)
