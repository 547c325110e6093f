"""Quick match against a real Redis: the pairing script, found tables, confirmation, timeouts."""

from __future__ import annotations

import random
import secrets
from typing import Any

import pytest

from king_match import MatchError, Player
from king_match.quickmatch import QuickMatch, QuickSettings, Waiter, Window, pair, pool_name

POOL = pool_name("standard", 8, guest=False)


@pytest.fixture
def quick(make_store: Any) -> tuple[QuickMatch, Any]:
    store, _, clock = make_store()
    return QuickMatch(store, QuickSettings(window=Window(100, 5, 400), min_pass_ms=0)), clock


def join_all(quick: QuickMatch, clock: Any, ratings: list[int]) -> list[str]:
    names = []
    for index, rating in enumerate(ratings):
        name = f"p{index:03d}"
        quick.join(name, POOL, rating)
        names.append(name)
        clock.now += 0.5
    return names


def one_pass(quick: QuickMatch) -> Any:
    return quick.pass_pool(POOL, "standard", 8, ranked=True)


def player(name: str) -> Player:
    return Player(name, name.upper())


def test_the_script_pairs_exactly_as_the_pure_rule(quick: tuple[QuickMatch, Any]) -> None:
    base, clock = quick
    # (nobody goes stale here: the waiters' clients are not the subject)
    settings = QuickSettings(window=Window(100, 5, 400), stale_ms=10**9, min_pass_ms=0)
    qm = QuickMatch(base.store, settings)
    rng = random.Random(5)
    for round_ in range(6):
        for index in range(rng.randrange(4, 30)):
            qm.join(f"r{round_}-{index:02d}", POOL, int(rng.gauss(1500, 200)))
            clock.now += rng.uniform(0, 4)
        clock.now += rng.uniform(0, 30)
        before = qm.waiters(POOL)
        expected = pair(before, qm.now_ms(), qm.settings.window, qm.settings.max_tables)
        made = one_pass(qm).made
        assert [frozenset(m.players) for m in made] == [
            frozenset(w.player_id for w in table) for table in expected
        ]
        taken = {p for m in made for p in m.players}
        assert {w.player_id for w in qm.waiters(POOL)} == {w.player_id for w in before} - taken
        for m in made:  # (keep the next round's pool to the new joiners)
            for name in m.players:
                qm.leave(name)


def test_a_found_table_shows_seat_and_commitment_and_confirming_starts_it(
    quick: tuple[QuickMatch, Any],
) -> None:
    qm, clock = quick
    names = join_all(qm, clock, [1500, 1510, 1490, 1505])
    (made,) = one_pass(qm).made
    record, _ = qm.store.load(made.table_id)
    assert record.status == "waiting" and record.reserved == list(made.players)
    assert record.match_id not in [r.match_id for r in qm.store.lobby()]
    seats = set()
    for name in names:
        state = qm.status(name)
        assert state["state"] == "found" and state["table"] == made.table_id
        assert state["commit"] == record.server_commit
        seats.add(int(state["seat"]))
        assert made.players[int(state["seat"])] == name
    assert seats == {0, 1, 2, 3}
    with pytest.raises(MatchError) as refused:
        qm.store.join(made.table_id, player("outsider"), client_seed=secrets.token_hex(32))
    assert refused.value.code == "seat_reserved"
    seeds = {}
    for name in names:
        seeds[name] = secrets.token_hex(32)
        state, _ = qm.confirm(player(name), seeds[name])
    record, _ = qm.store.load(made.table_id)
    assert record.status == "active"
    assert [s.seed for s in record.seats if s] == [seeds[p] for p in made.players]
    assert {qm.status(name)["state"] for name in names} == {"matched"}
    assert qm.waiters(POOL) == []


def test_an_unconfirmed_table_sends_the_others_back_with_their_place(
    quick: tuple[QuickMatch, Any],
) -> None:
    qm, clock = quick
    names = join_all(qm, clock, [1500, 1510, 1490, 1505])
    joined = {w.player_id: w.joined_ms for w in qm.waiters(POOL)}
    (made,) = one_pass(qm).made
    slow = names[2]
    for name in names:
        if name != slow:
            qm.confirm(player(name), secrets.token_hex(32))
    clock.now += qm.settings.confirm_ms / 1000 + 1
    for name in names:
        if name != slow:
            qm.status(name)  # (their clients keep answering)
    assert one_pass(qm).made == []
    back = {w.player_id: w.joined_ms for w in qm.waiters(POOL)}
    assert back == {name: joined[name] for name in names if name != slow}
    assert qm.status(slow)["state"] == "missed"
    record, _ = qm.store.load(made.table_id)
    assert record.status == "aborted" and record.end_reason == "not_confirmed"
    with pytest.raises(MatchError) as late:
        qm.confirm(player(slow), secrets.token_hex(32))
    assert late.value.code == "no_table_found"


def test_leaving_a_found_table_returns_the_confirmed_at_once(
    quick: tuple[QuickMatch, Any],
) -> None:
    qm, clock = quick
    names = join_all(qm, clock, [1500, 1510, 1490, 1505])
    one_pass(qm)
    qm.confirm(player(names[0]), secrets.token_hex(32))
    assert qm.leave(names[1]) == "found"
    one_pass(qm)  # no clock change: the table is due at once
    assert [w.player_id for w in qm.waiters(POOL)] == [names[0]]
    assert qm.status(names[1])["state"] == "left"
    assert {qm.status(n)["state"] for n in names[2:]} == {"missed"}


def test_a_waiter_whose_client_stops_answering_is_dropped(
    quick: tuple[QuickMatch, Any],
) -> None:
    qm, clock = quick
    names = join_all(qm, clock, [1000, 1500, 2000])
    clock.now += qm.settings.stale_ms / 1000 - 1
    qm.status(names[0])
    qm.status(names[2])
    clock.now += 2
    assert one_pass(qm).dropped == [names[1]]
    assert [w.player_id for w in qm.waiters(POOL)] == [names[0], names[2]]
    assert qm.status(names[1])["state"] == "dropped"


def test_one_player_is_in_one_pool_at_a_time(quick: tuple[QuickMatch, Any]) -> None:
    qm, clock = quick
    assert qm.join("solo", POOL, 1500) == "joined"
    assert qm.join("solo", POOL, 1500) == "waiting"
    with pytest.raises(MatchError) as other:
        qm.join("solo", pool_name("classic20", 20, guest=False), 1500)
    assert other.value.code == "already_queued"
    assert qm.leave("solo") == "waiting"
    assert qm.leave("solo") == "left"
    assert qm.waiters(POOL) == []
    names = join_all(qm, clock, [1500] * 4)
    one_pass(qm)
    with pytest.raises(MatchError) as found:
        qm.join(names[0], POOL, 1500)
    assert found.value.code == "table_found"


def test_pool_sizes_count_the_waiters(quick: tuple[QuickMatch, Any]) -> None:
    qm, clock = quick
    join_all(qm, clock, [1500, 1600])
    qm.join("g1", pool_name("standard", 8, guest=True), 1500)
    assert qm.pool_sizes() == {POOL: 2, "standard:8:guest": 1}


def test_waiter_lists_keep_the_join_order(quick: tuple[QuickMatch, Any]) -> None:
    qm, clock = quick
    join_all(qm, clock, [1700, 1300])
    assert [w for w in qm.waiters(POOL)] == [
        Waiter("p000", 1700, int(clock.now * 1000) - 1000),
        Waiter("p001", 1300, int(clock.now * 1000) - 500),
    ]


def test_passes_are_spaced_out_except_after_a_join(quick: tuple[QuickMatch, Any]) -> None:
    base, clock = quick
    qm = QuickMatch(base.store, QuickSettings(min_pass_ms=1000))
    join_all(qm, clock, [1500] * 3)
    assert one_pass(qm).made == []  # (a pass ran: the next one waits a second)
    qm.join("fourth", POOL, 1500)
    assert one_pass(qm).made == []
    assert len(qm.pass_pool(POOL, "standard", 8, ranked=True, force=True).made) == 1
    for index in range(4):
        qm.join(f"late{index}", POOL, 1700)
    assert one_pass(qm).made == []
    clock.now += 1
    assert len(one_pass(qm).made) == 1
