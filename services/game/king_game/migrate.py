"""Apply the ordered SQL migrations shipped in ``king_game/migrations`` (schema ``game``).

Each file ``NNNN_name.sql`` runs once, in its own transaction, recorded with a checksum in
``game.schema_migrations``; an applied file that was edited stops the command. An advisory lock
keeps several starting copies from interleaving. After them, the registered players whose
name has no lookalike key yet (``game.players.name_key``, computed in Python) get it.

Usage: ``python -m king_game.migrate [--database-url URL]``
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from importlib import resources

import psycopg

from king_game.config import Settings
from king_game.names import lookalike_key

ADVISORY_LOCK_KEY = 0x6B67616D  # "kgam"
_FILE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class MigrationError(RuntimeError):
    """The database and the shipped migrations disagree."""


def shipped() -> list[tuple[str, str, str]]:
    found = []
    for entry in resources.files("king_game.migrations").iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.append((match[1], entry.name, entry.read_text(encoding="utf-8")))
    return sorted(found)


def migrate(conninfo: str) -> list[str]:
    applied: list[str] = []
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (ADVISORY_LOCK_KEY,))
        try:
            conn.execute("CREATE SCHEMA IF NOT EXISTS game")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS game.schema_migrations (version text PRIMARY KEY,"
                " name text NOT NULL, checksum text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            rows = conn.execute("SELECT version, checksum FROM game.schema_migrations").fetchall()
            recorded: dict[str, str] = dict(rows)
            for version, name, sql in shipped():
                checksum = hashlib.sha256(sql.encode()).hexdigest()
                if version in recorded:
                    if recorded[version] != checksum:
                        raise MigrationError(f"migration {name} was edited after it was applied")
                    continue
                with conn.transaction():
                    conn.execute(sql.encode())
                    conn.execute(
                        "INSERT INTO game.schema_migrations (version, name, checksum)"
                        " VALUES (%s, %s, %s)",
                        (version, name, checksum),
                    )
                applied.append(name)
            _fill_name_keys(conn)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (ADVISORY_LOCK_KEY,))
    return applied


def _fill_name_keys(conn: psycopg.Connection) -> None:
    """Give each registered player without a lookalike key its key (a guest's is needed only
    for new guests, which get theirs at sign-up)."""
    rows = conn.execute(
        "SELECT id, name FROM game.players WHERE name_key IS NULL AND password_hash IS NOT NULL"
    ).fetchall()
    if rows:
        with conn.transaction(), conn.cursor() as cursor:
            cursor.executemany(
                "UPDATE game.players SET name_key = %s WHERE id = %s",
                [(lookalike_key(name), ident) for ident, name in rows],
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m king_game.migrate", description=__doc__)
    parser.add_argument("--database-url", help="defaults to $DATABASE_URL")
    args = parser.parse_args(argv)
    try:
        names = migrate(args.database_url or Settings.from_env().database_url)
    except MigrationError as exc:
        print(f"migrate: {exc}", file=sys.stderr)
        return 2
    print("applied: " + ", ".join(names) if names else "up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
