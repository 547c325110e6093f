"""Apply the ordered SQL migrations shipped in ``king_rating/migrations``.

Each file ``NNNN_name.sql`` runs once, in its own transaction, and is recorded in
``schema_migrations`` with a checksum. A released file must never be edited: if a recorded
checksum no longer matches the file, the command stops instead of guessing. A Postgres
advisory lock makes concurrent starts (several copies of the service) safe.

Usage: ``python -m king_rating.migrate [--database-url URL] [--list]``
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from dataclasses import dataclass
from importlib import resources

import psycopg

from king_rating.config import Settings

#: Any constant that is the same in every copy; keeps two migrators from interleaving.
ADVISORY_LOCK_KEY = 0x6B696E67  # "king"
_FILE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class MigrationError(RuntimeError):
    """The database and the shipped migrations disagree."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: str
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def shipped_migrations() -> list[Migration]:
    """The migration files in version order."""
    found = []
    for entry in resources.files("king_rating.migrations").iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.append(Migration(match[1], entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in found]
    if len(set(versions)) != len(versions):
        raise MigrationError(f"two migration files share a version: {versions}")
    return found


_CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    text PRIMARY KEY,
    name       text NOT NULL,
    checksum   text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""


def migrate(conninfo: str) -> list[str]:
    """Apply every pending migration; return the names applied (empty when up to date)."""
    applied_now: list[str] = []
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (ADVISORY_LOCK_KEY,))
        try:
            conn.execute(_CREATE_TABLE)
            rows = conn.execute("SELECT version, name, checksum FROM schema_migrations").fetchall()
            recorded = {version: (name, checksum) for version, name, checksum in rows}
            for migration in shipped_migrations():
                if migration.version in recorded:
                    name, checksum = recorded[migration.version]
                    if checksum != migration.checksum:
                        raise MigrationError(
                            f"migration {name} was edited after it was applied; "
                            "add a new migration instead"
                        )
                    continue
                with conn.transaction():
                    conn.execute(migration.sql.encode())
                    conn.execute(
                        "INSERT INTO schema_migrations (version, name, checksum) "
                        "VALUES (%s, %s, %s)",
                        (migration.version, migration.name, migration.checksum),
                    )
                applied_now.append(migration.name)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (ADVISORY_LOCK_KEY,))
    return applied_now


def pending(conninfo: str) -> list[str]:
    """Names of shipped migrations not yet applied (for readiness checks)."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
        done: set[str] = set()
        if exists and exists[0]:
            done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
    return [m.name for m in shipped_migrations() if m.version not in done]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m king_rating.migrate", description=__doc__)
    parser.add_argument("--database-url", help="defaults to $DATABASE_URL")
    parser.add_argument("--list", action="store_true", help="only list pending migrations")
    args = parser.parse_args(argv)
    conninfo = args.database_url or Settings.from_env().database_url
    if args.list:
        for name in pending(conninfo):
            print(name)
        return 0
    try:
        names = migrate(conninfo)
    except MigrationError as exc:
        print(f"migrate: {exc}", file=sys.stderr)
        return 2
    print("applied: " + ", ".join(names) if names else "up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
