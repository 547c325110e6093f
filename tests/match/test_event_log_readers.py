"""The event log is trimmed only before the hand that just ended (docs/game-api.md, Events): a
reader that last read anywhere in the hand being played — one that polls a move or two
behind, and the hand ends meanwhile — reads on without a gap, in every ruleset (redeals,
replays, calls and auctions included), from the first hand to the match's end.

Whole matches of every served ruleset at its shortest length, driven through the store (no
HTTP, random legal moves, one Redis); the konturlu match is dealt so that a seat cancels its
first deal (a Rıfkı redeal: the same hand dealt again). The log only loses entries at a commit
that starts a new hand, so each reader polls right after the last such commit before its hand
is over: there the log is the shortest it will be for that reader while it is within the
hand being played or the one that just ended.
"""

from __future__ import annotations

import bisect
import random
import uuid
from typing import Any

import pytest
from redis import Redis

from king_engine import RULESETS
from king_engine import deal as kingdeal
from king_match import MatchSettings, MatchStore, Player
from king_match.served import SERVED_RULESETS
from king_match.store import fallback_move

from .conftest import FakeClock, RecordingQueue

pytestmark = pytest.mark.integration

PLAYERS = [Player(f"p-{i}", f"player {i}") for i in range(4)]


#: The moves a player of the konturlu match prefers while no deal was cancelled yet: the
#: declarer names Rıfkı, and a seat whose only heart is K♥ or A♥ cancels it (RULES-konturlu.md
#: §2.7).
CANCEL = ("rifki", "rifki:boz", "boz")
HEARTS = range(26, 39)


def may_cancel(mask: int) -> bool:
    hearts = [card for card in HEARTS if mask >> card & 1]
    return len(hearts) == 1 and hearts[0] >= 37  # K♥ or A♥


def started_match(store: MatchStore, ruleset: str) -> str:
    hands = min(RULESETS[ruleset].lengths)
    record = store.create_table(PLAYERS[0], mode="live", ruleset=ruleset, hands=hands)
    seeds: list[str | None] = [None] * 4  # drawn by the server
    rng = random.Random(record.match_id)
    while ruleset == "konturlu":  # client seeds that give a seat a Rıfkı to cancel on deal 0
        chosen = [rng.randbytes(32) for _ in range(4)]
        key = kingdeal.match_key(record.match_id, bytes.fromhex(record.server_seed), chosen)
        if any(may_cancel(mask) for mask in kingdeal.deal_hand(key, 0)):
            seeds = [seed.hex() for seed in chosen]
            break
    for seat, player in enumerate(PLAYERS):
        store.join(record.match_id, player, seat=seat, client_seed=seeds[seat])
    return record.match_id


def next_move(state: Any, seat: int, seed: str, cancelled: bool) -> Any:
    moves = {str(move): move for move in state.legal_moves(seat)}
    wanted = [text for text in CANCEL if text in moves]
    if wanted and not cancelled:
        return moves[wanted[-1]]
    return fallback_move(state, seat, seed)


def poll(store: MatchStore, match_id: str, after: int, count: int = 500) -> dict[str, Any]:
    """What ``GET …/events?after=N&wait=0`` answers (its ``reset`` as the service computes it)."""
    events = store.events(match_id, after=after, count=count)
    return {"events": events, "reset": bool(events) and events[0]["seq"] > after + 1}


@pytest.mark.parametrize("ruleset", sorted(SERVED_RULESETS))
def test_a_reader_within_the_current_hand_never_gets_a_reset(redis: Redis, ruleset: str) -> None:
    store = MatchStore(
        redis,
        MatchSettings(key_prefix=f"t{uuid.uuid4().hex[:8]}:"),
        RecordingQueue(),
        clock=FakeClock(),
    )
    match_id = started_match(store, ruleset)
    record, state = store.load(match_id)
    assert state is not None
    state = state.copy()  # the test's own copy, moved on with the store's (no load a move)
    # hand_at[seq]: the hand being played once the commit that wrote event ``seq`` was in (a
    # reader that read up to ``seq`` was then within that hand); seq 0: before any event. It
    # never decreases.
    hand_at = [0] * (record.seq + 1)
    hand = 0

    def every_offset(first: int, end: int) -> None:
        """A reader that last read event ``after`` polls, for each ``after`` in the range."""
        for after in range(first, end):
            answer = poll(store, match_id, after, count=1)
            assert not answer["reset"], (ruleset, hand, after, answer["events"])
            assert answer["events"][0]["seq"] == after + 1, (ruleset, hand, after)

    moves = 0
    redeals = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        move = next_move(state, seat, f"{ruleset}{moves}", redeals > 0)
        events = store.play(match_id, PLAYERS[seat], move).events
        redeals += sum(e["type"] == "redeal" for e in events)
        state.apply(seat, move)
        moves += 1
        assert [e["seq"] for e in events] == list(range(len(hand_at), len(hand_at) + len(events)))
        started = [e["hand"] for e in events if e["type"] == "hand_started" and e["hand"] > hand]
        hand = max(started, default=hand)
        hand_at += [hand] * len(events)
        if started:
            # The log loses entries only now, at a new hand. The readers that last read in the
            # hand before the one that just ended are within it no longer; those that read in
            # the hand that ended are, until the next hand begins: this is their last poll
            # before then, and the log is never shorter for them than now.
            every_offset(bisect.bisect_left(hand_at, hand - 1), bisect.bisect_left(hand_at, hand))
    record = store.load(match_id)[0]
    assert record.ended and record.seq == len(hand_at) - 1
    every_offset(bisect.bisect_left(hand_at, hand - 1), record.seq)  # the last two hands
    assert hand >= 2, (ruleset, hand)  # the log was trimmed on the way
    assert redeals == (ruleset == "konturlu"), redeals
    # A reader further back than the hand before the current one is told to re-read the view.
    assert poll(store, match_id, 0)["reset"] is True
