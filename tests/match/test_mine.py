"""A player's matches (``king_match.mine``): their turn first, then the nearest deadline."""

from __future__ import annotations

import pytest

from king_match import MatchRecord, Player
from king_match.mine import MyMatch, my_matches, urgent_first

SEED = "ef" * 32
PLAYERS = [Player(f"m-{n}", n) for n in ("aras", "berk", "ceren", "defne")]


def row(name: str, my_turn: bool, deadline_ms: int | None) -> MyMatch:
    record = MatchRecord(
        match_id=name,
        mode="live",
        ranked=False,
        ruleset="classic",
        hands=8,
        creator_id="x",
        server_seed="",
        server_commit="",
        created_ms=0,
        deadline_ms=deadline_ms,
    )
    return MyMatch(record, 0, my_turn)


def test_my_turn_comes_first_then_the_nearest_deadline_and_none_last():
    rows = [
        row("late", False, 9_000),
        row("mine-late", True, 5_000),
        row("no-deadline", False, None),
        row("mine-soon", True, 3_000),
        row("soon", False, 1_000),
        row("mine-no-deadline", True, None),
    ]
    order = [r.record.match_id for r in urgent_first(rows)]
    assert order == ["mine-soon", "mine-late", "mine-no-deadline", "soon", "late", "no-deadline"]


@pytest.mark.integration
def test_each_player_sees_whether_the_match_waits_on_them(make_store):
    store, _, clock = make_store(computer_move_ms=1000)
    live = store.create_table(PLAYERS[0], mode="live", hands=8)
    for player in PLAYERS:
        store.join(live.match_id, player, client_seed=SEED)
    record, state = store.load(live.match_id)
    to_act = record.player_to_act(state)
    assert to_act is not None
    # A computer table of the first player's, abandoned on time: a recent one.
    computer = store.create_table(PLAYERS[0], mode="computer", hands=8)
    store.join(computer.match_id, PLAYERS[0], client_seed=SEED)
    clock.now += 2
    store.check_clock(computer.match_id)
    for seat, player_id in enumerate(s.player_id for s in record.seats if s is not None):
        active, recent = my_matches(store, player_id)
        assert [(m.record.match_id, m.seat, m.my_turn) for m in active] == [
            (live.match_id, seat, seat == to_act)
        ]
        if player_id == PLAYERS[0].player_id:
            assert [(m.record.match_id, m.my_turn) for m in recent] == [(computer.match_id, False)]
        else:
            assert recent == []
