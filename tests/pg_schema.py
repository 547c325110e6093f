"""A Postgres schema of a test's own in the run's database: made, handed over as a conninfo
whose ``search_path`` is that schema, dropped afterwards."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg
from psycopg.conninfo import make_conninfo


@contextmanager
def own_schema(
    database_url: str, prefix: str, migrate: Callable[[str], object] | None = None
) -> Iterator[str]:
    """A fresh schema named ``prefix`` plus a random part; ``migrate`` (given the conninfo)
    brings it to the shipped tables first."""
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_conninfo(database_url, options=f"-c search_path={schema}")
    try:
        if migrate is not None:
            migrate(url)
        yield url
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
