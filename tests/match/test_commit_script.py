"""The commit script and its Python side agree: the KEYS and ARGV the header of
``lua/commit.lua`` lists are the ones ``CommitKeys``/``CommitArgs`` send, in that order, and
the message a real commit publishes is the one ``commitmsg`` encodes and decodes."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from king_match import MatchSettings, MatchStore, Player, commitmsg
from king_match.commit import CommitArgs, CommitKeys
from king_match.leanscript import lua_source
from king_match.store import fallback_move


def header(section: str) -> list[str]:
    """The names the script's header lists under ``-- KEYS`` or ``-- ARGV``, by position."""
    source = lua_source("commit")
    block = source.split(f"-- {section}\n", 1)[1]
    names = []
    for line in block.splitlines():
        found = re.match(r"--   (\d+)(?:\.\.\.)? +(\w+)", line)
        if found is None:
            if line.startswith("--   ") or line.startswith("--  "):
                continue  # a description's continuation
            break
        assert int(found.group(1)) == len(names) + 1, line
        names.append(found.group(2))
    return names


def test_the_keys_are_sent_in_the_headers_order():
    named = CommitKeys(*(f.name for f in fields(CommitKeys)))
    assert named.names() == header("KEYS")
    # Without a rate key the script gets the first seven.
    assert CommitKeys(*"abcdefg").names() == list("abcdefg")


def test_the_arguments_are_sent_in_the_headers_order():
    names = [f.name for f in fields(CommitArgs) if f.name != "entries"]
    args = CommitArgs(*names, entries=["1 x", "2 y"])  # each field holds its own name
    sent = args.argv()
    listed = header("ARGV")
    assert sent[: len(names)] == listed[: len(names)]
    assert sent[len(names) :] == ["1 x", "2 y"]
    # The header numbers the first log entry right after the last named argument.
    assert re.search(rf"--   {len(names) + 1}\.\.\. +the log entries", lua_source("commit"))
    assert f"local FIRST_ENTRY = {len(names) + 1}" in lua_source("commit")


def test_the_script_reads_each_argument_by_its_name():
    """The script's ``local`` lines bind ARGV[i] and KEYS[i] to the header's names."""
    source = lua_source("commit")
    bound: dict[str, str] = {}
    for names, values in re.findall(
        r"^local ([\w, ]+) = ((?:(?:KEYS|ARGV)\[\d+\],? ?)+)$", source, re.M
    ):
        for name, value in zip(names.split(", "), values.split(", "), strict=True):
            bound[value.strip()] = name.strip()
    for index, name in enumerate(header("ARGV")[:-1], start=1):
        assert bound[f"ARGV[{index}]"] == name
    for index, name in enumerate(header("KEYS"), start=1):
        assert bound[f"KEYS[{index}]"] == name + "_key"


@pytest.mark.integration
def test_a_commit_publishes_the_message_commitmsg_reads(redis):
    import uuid

    store = MatchStore(redis, MatchSettings(key_prefix=f"c{uuid.uuid4().hex[:8]}:"))
    players = [Player(f"c-{n}", n) for n in "wxyz"]
    record = store.create_table(players[0], mode="live", hands=8)
    for player in players:
        record, _ = store.join(record.match_id, player, client_seed="ab" * 32)
    record, state = store.load(record.match_id)
    assert state is not None
    seat = state.current_player
    assert seat is not None
    pubsub = redis.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(store.keys.channel(record.match_id))
    try:
        result = store.play(
            record.match_id,
            players[seat],
            fallback_move(state, seat, "c"),
            expected_version=record.version,
        )
        raw = None
        for _ in range(50):
            raw = pubsub.get_message(timeout=0.1)
            if raw is not None:
                break
        assert raw is not None, "no commit message was published"
    finally:
        pubsub.close()
    message = commitmsg.decode(raw["data"].decode())
    after, state_after = store.load(record.match_id)
    assert message.version == result.version == after.version
    assert message.last == after.seq and message.first == after.seq - len(result.events) + 1
    assert message.events() == result.events
    assert message.meta == after.to_json()
    assert message.state_hex == state_after.to_bytes().hex()
    assert message.turn == after.player_to_act(state_after)
    assert commitmsg.encode(message) == raw["data"].decode()
