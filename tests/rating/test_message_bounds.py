"""The finished-match message's bounds: what a real match never reaches is refused, by name.

A message with ``ended_at`` in year 9999 used to pass validation and stop the ratings worker
(its week overflowed ``datetime``); a 10,000-character name and a 4 MB fairness object were
accepted. Each bound is checked from both sides: just inside passes, just outside is refused
with a ``ValueError`` that names the field. The game side stays far inside every bound.
"""

from __future__ import annotations

import json
import random
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from king_engine import game_move_of_action, new_game
from king_game.names import MAX_NAME
from king_match import fairness
from king_match.lifecycle import finished_message, with_fairness
from king_match.record import MatchRecord, Seat, encode_move
from king_match.served import SERVED_RULESETS
from king_message import FinishedMatch, format_utc
from king_message import finished_match as fm

from .conftest import build_match

Change = Callable[[dict[str, Any]], object]


def as_dict() -> dict[str, Any]:
    return build_match().to_dict()


def at(moment: datetime) -> str:
    return format_utc(moment)


def forfeited_at(moment: str) -> Change:
    def change(d: dict[str, Any]) -> None:
        d["players"][3].update(forfeited=True, forfeit_order=1, left_at=moment)

    return change


REFUSED: list[tuple[str, Change, str]] = [
    ("the audit's far-future end", lambda d: d.update(ended_at="9999-12-31T23:59:59+00:00"),
     "ended_at: 9999-12-31T23:59:59Z is outside"),
    ("an end past datetime's range in UTC",
     lambda d: d.update(ended_at="9999-12-31T23:59:59-01:00"), "ended_at: .*out of range"),
    ("an end at the latest bound", lambda d: d.update(ended_at=at(fm.LATEST)), "ended_at"),
    ("a start before the earliest bound",
     lambda d: d.update(started_at=at(fm.EARLIEST - timedelta(seconds=1))), "started_at"),
    ("the first day of the calendar",
     lambda d: d.update(started_at="0001-01-01T00:00:00+00:00"), "started_at"),
    ("a far-past leaving time", forfeited_at("1970-01-01T00:00:00Z"), r"players\[3\].left_at"),
    ("a far-future leaving time", forfeited_at("9999-12-31T23:59:59Z"), r"players\[3\].left_at"),
    ("a 10,000-character name", lambda d: d["players"][1].update(name="x" * 10_000),
     r"players\[1\].name: at most 128 characters, got 10000"),
    ("a name one over", lambda d: d["players"][1].update(name="ş" * (fm.MAX_NAME_CHARS + 1)),
     r"players\[1\].name"),
    ("a player id one over",
     lambda d: d["players"][2].update(player_id="p" * (fm.MAX_ID_CHARS + 1)),
     r"players\[2\].player_id"),
    ("a huge total", lambda d: d["players"][0].update(total=2**40), r"players\[0\].total"),
    ("a huge negative total", lambda d: d["players"][0].update(total=-fm.MAX_TOTAL - 1),
     r"players\[0\].total"),
    ("a long ruleset name", lambda d: d.update(ruleset="r" * (fm.MAX_RULESET_CHARS + 1)),
     "ruleset"),
    ("a 4 MB fairness object", lambda d: d.update(fairness={"pad": "0" * 4_000_000}),
     r"message: \d+ characters of JSON, at most 262144 \(the fairness transcript"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "complaint"), [(c, m) for _, c, m in REFUSED],
                         ids=[name for name, _, _ in REFUSED])  # fmt: skip
def test_a_message_beyond_a_bound_is_refused_with_the_field_named(
    change: Change, complaint: str
) -> None:
    data = as_dict()
    change(data)
    with pytest.raises(ValueError, match=complaint):
        FinishedMatch.from_dict(data)


ACCEPTED: list[tuple[str, Change]] = [
    ("a start at the earliest bound", lambda d: d.update(started_at=at(fm.EARLIEST))),
    ("an end just before the latest bound",
     lambda d: d.update(ended_at=at(fm.LATEST - timedelta(microseconds=1)))),
    ("the longest name", lambda d: d["players"][1].update(name="ş" * fm.MAX_NAME_CHARS)),
    ("the longest player id",
     lambda d: d["players"][2].update(player_id="p" * fm.MAX_ID_CHARS)),
    ("the extreme totals",
     lambda d: [d["players"][i].update(total=t) for i, t in ((0, fm.MAX_TOTAL),
                                                              (3, -fm.MAX_TOTAL))]),
    ("a large transcript", lambda d: d.update(fairness={"pad": "0" * 200_000})),
]  # fmt: skip


@pytest.mark.parametrize("change", [c for _, c in ACCEPTED], ids=[n for n, _ in ACCEPTED])
def test_a_message_at_a_bound_is_accepted_and_round_trips(change: Change) -> None:
    data = as_dict()
    change(data)
    message = FinishedMatch.from_dict(data)
    assert FinishedMatch.from_json(message.to_json()) == message


def padded(over: int) -> dict[str, Any]:
    """A message whose JSON (``to_json``'s) is ``over`` characters longer than the bound."""
    data = as_dict()
    data["fairness"] = {"pad": ""}
    size = len(FinishedMatch.from_dict(data).to_json())
    data["fairness"]["pad"] = "0" * (fm.MAX_MESSAGE_CHARS - size + over)
    return data


def test_the_message_size_is_bounded_wherever_it_is_text() -> None:
    at_bound = FinishedMatch.from_dict(padded(0))
    assert len(at_bound.to_json()) == fm.MAX_MESSAGE_CHARS
    assert FinishedMatch.from_json(at_bound.to_json()) == at_bound
    over = padded(1)
    for read in (
        lambda: FinishedMatch.from_dict(over),
        lambda: FinishedMatch.from_json(json.dumps(over, ensure_ascii=False)),
        lambda: FinishedMatch.from_json(json.dumps(over).encode()),
    ):
        with pytest.raises(ValueError, match=f"at most {fm.MAX_MESSAGE_CHARS}"):
            read()
    # Built in code (as the game builds it), it is refused when written for the queue.
    built = FinishedMatch(**{**at_bound.to_dict(), "players": at_bound.players,
                             "fairness": over["fairness"]})  # fmt: skip
    with pytest.raises(ValueError, match=f"at most {fm.MAX_MESSAGE_CHARS}"):
        built.to_json()


def test_json_nested_too_deeply_is_refused() -> None:
    with pytest.raises(ValueError, match="nested too deeply"):
        FinishedMatch.from_json("[" * 100_000 + "]" * 100_000)
    deep: dict[str, Any] = {}
    for _ in range(100_000):
        deep = {"d": deep}
    data = as_dict()
    data["fairness"] = deep
    with pytest.raises(ValueError, match="nested too deeply"):
        FinishedMatch.from_dict(data)


def test_a_message_that_is_not_json_is_refused() -> None:
    data = as_dict()
    data["fairness"] = {"seeds": {1, 2}}
    with pytest.raises(ValueError, match="message: not JSON"):
        FinishedMatch.from_dict(data)


def test_the_games_names_fit_the_message() -> None:
    # A name is at most MAX_NAME characters as typed; NFC makes a string at most three times
    # longer (UAX #15), e.g. U+FB2C.
    assert len(unicodedata.normalize("NFC", "\ufb2c")) == 3
    assert MAX_NAME * 3 <= fm.MAX_NAME_CHARS


@pytest.mark.parametrize("ruleset", sorted(SERVED_RULESETS))
def test_the_games_longest_match_is_far_inside_every_bound(ruleset: str) -> None:
    # The longest match of each ruleset the game serves, played out, with its message built
    # as the game builds it (its clock's times, its transcript, the longest names).
    hands = max(SERVED_RULESETS[ruleset].lengths)
    longest_name = unicodedata.normalize("NFC", "\ufb2c" * MAX_NAME)
    rng = random.Random(42)
    now_ms = int(datetime.now(UTC).timestamp() * 1000)
    server_seed = rng.randbytes(32).hex()
    match_id = "4d6f3a2e-8b1c-4e5f-9a0b-1c2d3e4f5a6b"
    record = MatchRecord(
        match_id=match_id,
        mode="live",
        ranked=True,
        ruleset=ruleset,
        hands=hands,
        creator_id="p0",
        server_seed=server_seed,
        server_commit=fairness.commitment(match_id, server_seed),
        created_ms=now_ms - 3_600_000,
        status="finished",
        seats=[
            Seat(player_id=f"p{i}", name=longest_name, is_bot=False, seed=rng.randbytes(32).hex())
            for i in range(4)
        ],
        started_ms=now_ms - 3_500_000,
        ended_ms=now_ms,
        outcome="finished",
    )
    state = new_game(ruleset, hands, fairness.match_key(record))
    moves = bytearray()
    while not state.is_over:
        seat, action = state.turn, rng.choice(state.legal_actions())
        state.apply(seat, game_move_of_action(state.ruleset, action))
        moves += encode_move(seat, action)
    places = [1 + sum(other > total for other in state.totals) for total in state.totals]
    message = with_fairness(
        finished_message(record, list(state.totals), places),
        fairness.transcript(record, bytes(moves), state),
    )
    size = len(message.to_json())
    assert size * 8 < fm.MAX_MESSAGE_CHARS, (ruleset, hands, size)
    assert all(abs(seat.total) * 100 < fm.MAX_TOTAL for seat in message.players)
    assert fm.EARLIEST < message.started < message.ended < fm.LATEST
