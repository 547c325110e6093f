"""LeanScript against a real Redis: the same answers as redis-py's Script, a lost script is
loaded again, and the connection goes back to the pool in every case."""

from __future__ import annotations

import uuid

import pytest
from redis import Redis
from redis.exceptions import NoScriptError, ResponseError

from king_match.leanscript import LeanScript, pack

pytestmark = pytest.mark.integration

ECHO = "return {KEYS[1], ARGV[1], ARGV[2], ARGV[3], #ARGV}"


def test_pack_is_the_protocol_redis_py_writes(redis):
    args = ("EVALSHA", "abc", 2, "k1", "ключ", b"\x00\r\n\xff", 12345, "")
    connection = redis.connection_pool.make_connection()
    assert pack(args) == b"".join(connection.pack_command(*args))


def test_answers_like_script_and_reloads_a_flushed_script(redis):
    key = f"lean:{uuid.uuid4().hex}"
    lean = LeanScript(redis, ECHO)
    args = ["ü", b"\x00\n\xfe", 42]
    expected = redis.register_script(ECHO)(keys=[key], args=args)
    assert lean([key], args) == expected
    assert expected[1] == "ü".encode() and expected[2] == b"\x00\n\xfe" and expected[4] == 3
    redis.script_flush()
    assert lean([key], args) == expected  # NOSCRIPT: loaded again by redis-py's Script
    assert redis.script_exists(lean.script.sha) == [True]


def test_errors_reach_the_caller_and_connections_return_to_the_pool(redis_url):
    client = Redis.from_url(redis_url, max_connections=2)
    failing = LeanScript(client, "return redis.error_reply('nope')")
    working = LeanScript(client, "return 7")
    for _ in range(5):  # more calls than connections: each one went back
        with pytest.raises(ResponseError, match="nope"):
            failing([], [])
        assert working([], []) == 7
    client.close()


def test_a_used_connection_is_kept_and_taken_again(redis_url):
    client = Redis.from_url(redis_url)
    lean = LeanScript(client, "return 1")
    assert lean([], []) == 1  # (loads the script)
    assert lean([], []) == 1
    kept = list(lean.reserve)
    assert len(kept) == 1
    for _ in range(3):
        assert lean([], []) == 1
    assert lean.reserve == kept  # the same connection each time, not a new one from the pool
    client.close()


def test_a_kept_connection_that_died_is_replaced_and_the_script_runs_once(redis_url):
    client = Redis.from_url(redis_url)
    key = f"lean:{uuid.uuid4().hex}"
    incr = LeanScript(client, "return redis.call('INCR', KEYS[1])")
    assert incr([key], []) == 1  # (loads the script)
    assert incr([key], []) == 2
    assert len(incr.reserve) == 1  # kept: it is the one that dies next
    # Every other client's connection goes, the kept one included (as in a Redis restart).
    Redis.from_url(redis_url).client_kill_filter(_type="normal", skipme=True)
    assert incr([key], []) == 3  # ran on a fresh connection, exactly once
    assert int(client.get(key)) == 3
    client.delete(key)
    client.close()


def test_a_forked_child_does_not_use_the_parents_kept_connection(redis_url):
    import os

    client = Redis.from_url(redis_url)
    lean = LeanScript(client, "return 5")
    assert lean([], []) == 5  # (loads the script)
    assert lean([], []) == 5
    parents = lean.reserve[0]
    pid = os.fork()
    if pid == 0:  # the child: a fresh connection, and the parent's left alone
        ok = lean([], []) == 5 and parents not in lean.reserve
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert lean([], []) == 5 and lean.reserve == [parents]  # still works in the parent
    client.close()


def test_the_redis_py_connection_api_it_uses_behaves_as_relied_on(redis_url):
    """What LeanScript takes from below redis-py's command layer, on the real library: a pooled
    client has no ``connection`` of its own, the pool hands out a connection without arguments
    (and without a deprecation warning), a connection sends packed bytes without a health
    check and reads the reply, errors included, and goes back to the pool."""
    import warnings

    client = Redis.from_url(redis_url, max_connections=1)
    assert client.connection is None  # (LeanScript's own path is for pooled clients)
    pool = client.connection_pool
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        connection = pool.get_connection()
    try:
        connection.send_packed_command([pack(("ECHO", "ü"))], check_health=False)
        assert connection.read_response() == "ü".encode()
        connection.send_packed_command([pack(("EVALSHA", "0" * 40, 0))], check_health=False)
        with pytest.raises(NoScriptError):
            connection.read_response()
        connection.send_packed_command([pack(("ECHO", "after"))], check_health=False)
        assert connection.read_response() == b"after"  # an error reply left it usable
    finally:
        pool.release(connection)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pool.get_connection() is connection  # released: the only one, taken again
    client.close()


def test_a_single_connection_client_takes_redis_pys_own_path(redis_url):
    client = Redis.from_url(redis_url, single_connection_client=True)
    assert client.connection is not None
    key = f"lean:{uuid.uuid4().hex}"
    lean = LeanScript(client, ECHO)
    assert lean([key], ["a", "b", 3]) == [key.encode(), b"a", b"b", b"3", 3]
    assert lean.reserve == []  # it never took a connection of its own
    client.delete(key)
    client.close()
