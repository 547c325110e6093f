"""Migrations: ordered, recorded, applied once, and never edited after release."""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
import pytest

from king_rating import migrate, weekly
from king_rating.store import Ingested, Store

from .conftest import MakeMatch, query

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
