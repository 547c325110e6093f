"""Batch ingestion against one match at a time: the same rows, whatever the batch sizes.

Real Postgres: two freshly migrated schemas get the same finished matches, one through
``Store.ingest`` match by match, the other through ``ingest_batch`` in batches; every table
they write must then hold the same rows (the history in the same order per player).
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from pg_schema import own_schema

from king_message import FinishedMatch
from king_rating import weekly
from king_rating.batch import ingest_batch
from king_rating.migrate import migrate
from king_rating.store import Ingested, Store

from .conftest import build_match, query, tables

pytestmark = pytest.mark.integration

MIDWEEK = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
PEOPLE = ("ayse", "burak", "cem", "deniz", "elif", "fatma", "gul", "hakan")
RULESETS = ("standard", "classic20", "traditional")


@pytest.fixture
def other_url(database_url: str) -> Iterator[str]:
    with own_schema(database_url, "rating", migrate) as url:
        yield url


def mixed_matches(seed: int, count: int) -> list[FinishedMatch]:
    """Rated matches among few players (so a batch holds several of one player's matches) in
    three rulesets, some arriving out of end-time order, some in a frozen week, some unrated,
    renamed guests, and copies of earlier messages."""
    rng = random.Random(seed)
    messages: list[FinishedMatch] = []
    for index in range(count):
        roll = rng.random()
        if messages and roll < 0.12:
            messages.append(rng.choice(messages))  # a duplicate delivery
            continue
        players = rng.sample(PEOPLE, 4)
        # The last two: a King made and a King announced and failed (traditional's places).
        places = rng.choice(
            [(1, 2, 3, 4), (1, 1, 3, 4), (2, 1, 4, 3), (1, 2, 2, 4), (2, 1, 2, 2), (1, 4, 1, 1)]
        )
        ended = MIDWEEK + timedelta(minutes=index)
        if roll < 0.25:
            ended = MIDWEEK - timedelta(hours=rng.randint(1, 40))  # late arrival, same week
        elif roll < 0.3:
            ended = MIDWEEK - timedelta(days=14)  # its week is frozen
        kwargs: dict[str, object] = {"ruleset": rng.choice(RULESETS)}
        if 0.3 <= roll < 0.38:
            kwargs.update(mode="computer", bots=(False, True, True, True))
        elif 0.38 <= roll < 0.42:
            kwargs.update(ranked=False)
        elif 0.42 <= roll < 0.46:
            kwargs.update(guests=(True, False, False, False))
        messages.append(build_match(players, places, ended_at=ended, **kwargs))  # type: ignore[arg-type]
    return messages


def freeze_old_week(store: Store) -> None:
    store.freeze_week(weekly.week_of(MIDWEEK - timedelta(days=14)))


@pytest.mark.parametrize("batch_size", [1, 7, 50, 500])
def test_batches_leave_the_same_rows_as_one_match_at_a_time(
    schema_url: str, other_url: str, batch_size: int
) -> None:
    messages = mixed_matches(seed=batch_size, count=160)
    one = Store(schema_url, min_size=1, max_size=2)
    many = Store(other_url, min_size=1, max_size=2)
    try:
        freeze_old_week(one)
        freeze_old_week(many)
        expected = [one.ingest(m) for m in messages]
        got: list[Ingested] = []
        for start in range(0, len(messages), batch_size):
            got += ingest_batch(many, messages[start : start + batch_size])
    finally:
        one.close()
        many.close()
    assert got == expected
    assert {Ingested.RATED, Ingested.DUPLICATE, Ingested.ARCHIVED, Ingested.RATED_LATE} <= set(
        expected
    )
    assert tables(other_url) == tables(schema_url)


def test_a_batch_retried_after_it_was_partly_applied_applies_each_match_once(
    store: Store, schema_url: str, other_url: str
) -> None:
    messages = mixed_matches(seed=3, count=60)
    reference = Store(other_url, min_size=1, max_size=2)
    try:
        for message in messages:
            reference.ingest(message)
    finally:
        reference.close()
    # The first attempt committed the first 25 (or a crash came after its commit), the retry
    # gets the whole batch again, then again.
    ingest_batch(store, messages[:25])
    again = ingest_batch(store, messages)
    assert all(result == Ingested.DUPLICATE for result in again[:25])
    assert set(ingest_batch(store, messages)) == {Ingested.DUPLICATE}
    assert tables(schema_url) == tables(other_url)


def test_duplicates_in_one_batch_count_once(store: Store, schema_url: str) -> None:
    match = build_match(PEOPLE[:4], ended_at=MIDWEEK)
    copy = FinishedMatch.from_json(match.to_json())
    results = ingest_batch(store, [match, copy, match])
    assert results == [Ingested.RATED, Ingested.DUPLICATE, Ingested.DUPLICATE]
    assert query(schema_url, "SELECT count(*) FROM rating_history") == [(4,)]
    assert query(schema_url, "SELECT sum(matches) FROM weekly_scores") == [(4,)]
    assert query(schema_url, "SELECT sum(rated_matches) FROM ratings") == [(4,)]


def test_a_players_matches_are_applied_in_batch_order(store: Store, schema_url: str) -> None:
    # Ayşe wins, then comes last, then wins: each match must start from the rating the one
    # before it left, in the order of the batch (not of match id or end time).
    first = build_match(PEOPLE[:4], (1, 2, 3, 4), ended_at=MIDWEEK + timedelta(minutes=2))
    second = build_match(PEOPLE[:4], (4, 1, 2, 3), ended_at=MIDWEEK)
    third = build_match(PEOPLE[:4], (1, 2, 3, 4), ended_at=MIDWEEK + timedelta(minutes=1))
    ingest_batch(store, [first, second, third])
    rows = query(
        schema_url,
        "SELECT match_id::text, rating_before, rating_after FROM rating_history "
        "WHERE player_id = 'ayse' ORDER BY seq",
    )
    assert [r[0] for r in rows] == [first.match_id, second.match_id, third.match_id]
    assert rows[0][1] == 1500
    for earlier, later in itertools.pairwise(rows):
        assert later[1] == earlier[2]
    assert rows[0][2] > 1500 > rows[1][2]


def test_a_person_new_to_two_batches_at_once_keeps_both_matches(
    store: Store, schema_url: str
) -> None:
    # Another batch has just added "newbie" and rated them (not committed yet). This batch
    # must wait for it and build on the rating it leaves, not on the initial one.
    other = psycopg.connect(schema_url)
    other.execute("INSERT INTO players (player_id, name) VALUES ('newbie', 'newbie')")
    other.execute(
        "INSERT INTO ratings (player_id, ruleset, rating, rated_matches, last_rated_at) "
        "VALUES ('newbie', 'standard', 1600, 1, %s)",
        (MIDWEEK,),
    )
    match = build_match(("newbie", *PEOPLE[:3]), ended_at=MIDWEEK + timedelta(minutes=1))
    results: list[list[Ingested]] = []
    worker = threading.Thread(target=lambda: results.append(ingest_batch(store, [match])))
    worker.start()
    try:
        deadline = time.monotonic() + 10
        while not query(
            schema_url,
            "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database()",
        ):
            assert time.monotonic() < deadline, "the batch never waited for the other one"
            time.sleep(0.02)
        other.commit()
    finally:
        other.close()
        worker.join(timeout=30)
    assert results == [[Ingested.RATED]]
    assert query(
        schema_url, "SELECT rating_before FROM rating_history WHERE player_id = 'newbie'"
    ) == [(1600,)]
    assert query(
        schema_url,
        "SELECT rated_matches FROM ratings WHERE player_id = 'newbie' AND ruleset = 'standard'",
    ) == [(2,)]
