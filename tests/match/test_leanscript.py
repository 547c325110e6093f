"""LeanScript against a real Redis: the same answers as redis-py's Script, a lost script is
loaded again, and the connection goes back to the pool in every case."""

from __future__ import annotations

import uuid

import pytest
from redis import Redis
from redis.exceptions import ResponseError

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
