"""Migrations: ordered, recorded, applied once, and never edited after release."""

from __future__ import annotations

import pytest

from king_rating import migrate

from .conftest import query

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
