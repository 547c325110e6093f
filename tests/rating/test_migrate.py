"""Migrations: ordered, recorded, applied once, and never edited after release."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from pg_schema import own_schema
from psycopg.types.json import Jsonb

from king_message import RATED_RULESETS, FinishedMatch
from king_rating import elo, migrate, weekly
from king_rating.store import Ingested, Store

from .conftest import MakeMatch, build_match, query, tables

PLAYERS = ("ayse", "burak", "cem", "deniz")

pytestmark = pytest.mark.integration


def test_shipped_migrations_are_numbered_in_order() -> None:
    shipped = migrate.shipped_migrations()
    assert shipped[0].name.startswith("0001_")
    versions = [m.version for m in shipped]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)


def test_each_migration_is_recorded_once_and_rerunning_applies_nothing(schema_url: str) -> None:
    # The fixture already migrated this schema.
    recorded = query(schema_url, "SELECT version, checksum FROM schema_migrations")
    assert [v for v, _ in recorded] == [m.version for m in migrate.shipped_migrations()]
    assert migrate.migrate(schema_url) == []
    assert migrate.pending(schema_url) == []


def test_an_edited_released_migration_stops_the_command(schema_url: str) -> None:
    query(schema_url, "UPDATE schema_migrations SET checksum = 'x' WHERE version = '0001'")
    with pytest.raises(migrate.MigrationError, match="edited"):
        migrate.migrate(schema_url)
    assert migrate.main(["--database-url", schema_url]) == 2


MIDWEEK = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)  # Wednesday of 2026-W49 in Istanbul
NOWHERE = "00000000-0000-4000-8000-000000000000"


@pytest.mark.parametrize(
    ("constraint", "sql"),
    [
        (
            "rating_history_player_id_fkey",
            "INSERT INTO rating_history (player_id, match_id, ruleset, ended_at, rating_before, "
            "rating_after, delta, k, place, rated_matches_before) "
            "VALUES ('nobody', %(match)s, 'standard', now(), 1500, 1510, 10, 48, 1, 0)",
        ),
        (
            "rating_history_match_id_fkey",
            "INSERT INTO rating_history (player_id, match_id, ruleset, ended_at, rating_before, "
            "rating_after, delta, k, place, rated_matches_before) "
            "VALUES ('ayse', %(nowhere)s, 'standard', now(), 1500, 1510, 10, 48, 1, 0)",
        ),
        (
            "weekly_final_week_fkey",
            "INSERT INTO weekly_final (week, ruleset, rank, player_id, points_x2, matches, "
            "score, reached_at) VALUES ('1999-W01', 'standard', 1, 'ayse', 6, 5, 0.5, now())",
        ),
        (
            "weekly_final_player_id_fkey",
            "INSERT INTO weekly_final (week, ruleset, rank, player_id, points_x2, matches, "
            "score, reached_at) VALUES (%(week)s, 'standard', 1, 'nobody', 6, 5, 0.5, now())",
        ),
    ],
)
def test_a_rating_change_or_final_rank_needs_its_match_player_and_week(
    store: Store, schema_url: str, make_match: MakeMatch, constraint: str, sql: str
) -> None:
    message = make_match(ended_at=MIDWEEK)
    assert store.ingest(message) is Ingested.RATED
    names = {"match": message.match_id, "nowhere": NOWHERE, "week": weekly.week_of(MIDWEEK).label}
    with (
        psycopg.connect(schema_url) as conn,
        pytest.raises(psycopg.errors.ForeignKeyViolation) as refused,
    ):
        conn.execute(sql, names)
    assert refused.value.diag.constraint_name == constraint


def test_a_match_cannot_be_deleted_while_its_rating_changes_remain(
    store: Store, schema_url: str, make_match: MakeMatch
) -> None:
    message = make_match(ended_at=MIDWEEK)
    store.ingest(message)
    delete_match = "DELETE FROM matches WHERE match_id = %s"
    with pytest.raises(psycopg.errors.ForeignKeyViolation) as refused:
        query(schema_url, delete_match, (message.match_id,))
    assert refused.value.diag.constraint_name == "rating_history_match_id_fkey"
    query(schema_url, "DELETE FROM rating_history WHERE match_id = %s", (message.match_id,))
    query(schema_url, delete_match, (message.match_id,))
    assert query(schema_url, "SELECT count(*) FROM matches") == [(0,)]


# ------------------------------------------------------------------ 0006: ratings per ruleset

BEFORE_RULESETS = "0005"


@pytest.fixture
def old_url(database_url: str) -> Iterator[str]:
    """A schema migrated only up to 0005, when each player had one rating."""
    with own_schema(database_url, "rating") as url, psycopg.connect(url, autocommit=True) as conn:
        conn.execute(migrate._CREATE_TABLE)
        for shipped in migrate.shipped_migrations():
            if shipped.version > BEFORE_RULESETS:
                break
            with conn.transaction():
                conn.execute(shipped.sql.encode())
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, checksum) VALUES (%s, %s, %s)",
                    (shipped.version, shipped.name, shipped.checksum),
                )
        yield url


class OneRatingService:
    """What the service wrote before 0006: one rating per player, whatever the ruleset, and one
    board a week. Rows as Store.ingest wrote them then (SQL of migrations 0001-0005)."""

    def __init__(self, url: str) -> None:
        self.conn = psycopg.connect(url, autocommit=True)
        self.ratings: dict[str, tuple[float, int]] = {}
        self.frozen: set[str] = set()
        self.weeks: dict[tuple[str, str], list[tuple[datetime, int]]] = {}

    def ingest(self, message: FinishedMatch) -> None:
        ended = message.ended
        week = weekly.week_of(ended) if message.is_rated else None
        if week is not None:
            self.conn.execute(
                "INSERT INTO weeks (week, starts_at, ends_at) VALUES (%s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                (week.label, week.starts_at, week.ends_at),
            )
        on_board = week is not None and week.label not in self.frozen
        self.conn.execute(
            "INSERT INTO matches (match_id, schema_version, mode, ranked, ruleset, hands, "
            "outcome, started_at, ended_at, rated, week, board_applied, fairness) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (message.match_id, message.schema_version, message.mode, message.ranked,
             message.ruleset, message.hands, message.outcome, message.started, ended,
             week is not None, week.label if week else None, on_board,
             Jsonb(message.fairness)),
        )  # fmt: skip
        seats = message.players
        places = [s.place for s in seats]
        points = weekly.points_x2(places, [s.forfeited for s in seats])
        for seat, p in zip(seats, points, strict=True):
            self.conn.execute(
                "INSERT INTO match_players (match_id, seat, player_id, name, is_bot, is_guest, "
                "total, place, forfeited, forfeit_order, left_at, ended_at, week, points_x2) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (message.match_id, seat.seat, seat.player_id, seat.name, seat.is_bot,
                 seat.is_guest, seat.total, seat.place, seat.forfeited, seat.forfeit_order,
                 seat.left_at, ended, week.label if on_board and week else None,
                 p if on_board else None),
            )  # fmt: skip
            if not seat.is_bot:
                self.conn.execute(
                    "INSERT INTO players (player_id, name, is_guest) VALUES (%s, %s, %s) "
                    "ON CONFLICT (player_id) DO UPDATE SET name = EXCLUDED.name, "
                    "is_guest = EXCLUDED.is_guest",
                    (seat.player_id, seat.name, seat.is_guest),
                )
        if week is None:
            return
        ids = [s.player_id for s in seats]
        before = [self.ratings.get(pid, (elo.INITIAL_RATING, 0)) for pid in ids]
        changes = elo.rate_match([r for r, _ in before], [n for _, n in before], places)
        for pid, change, p in zip(ids, changes, points, strict=True):
            self.ratings[pid] = (change.rating_after, change.rated_matches_before + 1)
            self.conn.execute(
                "INSERT INTO rating_history (player_id, match_id, ended_at, rating_before, "
                "rating_after, delta, k, place, rated_matches_before) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (pid, message.match_id, ended, change.rating_before, change.rating_after,
                 change.delta, change.k, change.place, change.rated_matches_before),
            )  # fmt: skip
            self.conn.execute(
                "UPDATE players SET rating = %s, rated_matches = rated_matches + 1, "
                "last_rated_at = GREATEST(last_rated_at, %s) WHERE player_id = %s",
                (change.rating_after, ended, pid),
            )
            if on_board:
                self.weeks.setdefault((week.label, pid), []).append((ended, p))

    def _standings(self, label: str) -> None:
        self.conn.execute("DELETE FROM weekly_scores WHERE week = %s", (label,))
        for (week, pid), played in self.weeks.items():
            if week == label:
                s = weekly.standing_from(played)
                self.conn.execute(
                    "INSERT INTO weekly_scores (week, player_id, points_x2, matches, score, "
                    "reached_at, last_match_at) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (week, pid, s.points_x2, s.matches, s.score, s.reached_at, s.last_match_at),
                )

    def freeze(self, week: weekly.Week) -> None:
        self._standings(week.label)
        self.frozen.add(week.label)
        self.conn.execute("UPDATE weeks SET frozen_at = now() WHERE week = %s", (week.label,))
        self.conn.execute(
            "INSERT INTO weekly_final (week, rank, player_id, points_x2, matches, score, "
            "reached_at) SELECT week, row_number() OVER (ORDER BY score DESC, matches DESC, "
            "reached_at, player_id), player_id, points_x2, matches, score, reached_at "
            "FROM weekly_scores WHERE week = %s AND matches >= 5",
            (week.label,),
        )

    def close(self) -> None:
        for week in {week for week, _ in self.weeks} - self.frozen:
            self._standings(week)
        self.conn.close()


def history_in_every_ruleset(count: int, seed: int = 7) -> list[FinishedMatch]:
    """Rated matches of six people in all five rulesets over two weeks (some arriving late,
    some King endings), with a few computer and casual ones."""
    rng = random.Random(seed)
    people = ("ayse", "burak", "cem", "deniz", "elif", "fatma")
    messages = []
    for index in range(count):
        ended = MIDWEEK - timedelta(days=7) + timedelta(minutes=40 * index)
        if rng.random() < 0.2:
            ended -= timedelta(hours=rng.randint(1, 30))
        places = rng.choice([(1, 2, 3, 4), (1, 1, 3, 4), (2, 1, 4, 3), (2, 1, 2, 2), (1, 4, 1, 1)])
        kwargs: dict[str, Any] = {"ruleset": rng.choice(RATED_RULESETS)}
        roll = rng.random()
        if roll < 0.08:
            kwargs.update(mode="computer", bots=(False, True, True, True))
        elif roll < 0.12:
            kwargs.update(ranked=False)
        elif roll < 0.16:
            kwargs.update(guests=(False, False, True, False))
        messages.append(build_match(rng.sample(people, 4), places, ended_at=ended, **kwargs))
    return messages


def test_0006_splits_one_rating_per_player_into_the_ratings_a_fresh_replay_gives(
    old_url: str, schema_url: str
) -> None:
    messages = history_in_every_ruleset(240)
    previous = weekly.week_of(MIDWEEK - timedelta(days=7))
    assert len({weekly.week_of(m.ended).label for m in messages}) >= 2
    # The previous week is frozen two thirds of the way through; later matches of it arrive
    # after its freeze.
    cut = 160
    old = OneRatingService(old_url)
    for message in messages[:cut]:
        old.ingest(message)
    old.freeze(previous)
    for message in messages[cut:]:
        old.ingest(message)
    old.close()
    fresh = Store(schema_url, min_size=1, max_size=2)
    try:
        for message in messages[:cut]:
            fresh.ingest(message)
        assert fresh.freeze_week(previous)
        for message in messages[cut:]:
            fresh.ingest(message)
    finally:
        fresh.close()
    mixed = query(old_url, "SELECT count(*) FROM players WHERE rated_matches > 0")
    assert mixed[0][0] == 6
    assert migrate.migrate(old_url) == ["0006_ratings_per_ruleset.sql"]
    migrated, replayed = tables(old_url), tables(schema_url)
    assert {r for _, r, *_ in replayed["ratings"]} == set(RATED_RULESETS)
    assert replayed["final"] and {row[-1] for row in replayed["final"]} > {"standard"}
    # The migration's Elo (Postgres arithmetic) is the service's (Python's) to the last bit.
    for name in ("players", "ratings", "matches", "seats", "history", "weeks", "final"):
        assert migrated[name] == replayed[name], name


def test_0006_counts_a_rated_match_of_a_name_it_does_not_rate_as_standard(
    old_url: str,
) -> None:
    old = OneRatingService(old_url)
    old.ingest(build_match(PLAYERS, ended_at=MIDWEEK, ruleset="classic"))
    old.ingest(build_match(PLAYERS, ended_at=MIDWEEK, ruleset="classic20"))
    old.close()
    migrate.migrate(old_url)
    assert query(old_url, "SELECT ruleset, rating, rated_matches FROM ratings "
                 "WHERE player_id = 'ayse' ORDER BY ruleset") == [
        ("classic20", 1524.0, 1), ("standard", 1524.0, 1)]  # fmt: skip
    assert query(old_url, "SELECT DISTINCT ruleset FROM matches ORDER BY 1") == [
        ("classic",), ("classic20",)]  # fmt: skip
