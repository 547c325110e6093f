"""Fixtures shared by every test folder.

Storage tests talk to real servers: each test run gets its own private redis-server process
(or the one named by ``TEST_REDIS_URL``), a private three-primary Redis Cluster when a test
asks for one, and its own fresh PostgreSQL database (created on the
server named by ``DATABASE_ADMIN_URL``, else the machine's, else a private pgserver cluster).
Unit tests of pure code use none of these fixtures and need no services.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """URL of a real Redis server that belongs to this test run."""
    given = os.environ.get("TEST_REDIS_URL")
    if given:
        yield given
        return
    from king_devservers import start_redis

    server = start_redis()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_cluster_url() -> Iterator[str]:
    """URL of one node of a real three-primary Redis Cluster that belongs to this test run
    (``TEST_REDIS_CLUSTER_URL`` names one to use instead)."""
    given = os.environ.get("TEST_REDIS_CLUSTER_URL")
    if given:
        yield given
        return
    from king_devservers.cluster import start_cluster

    cluster = start_cluster()
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    """URL of a fresh, empty PostgreSQL database that belongs to this test run."""
    from king_devservers import local_postgres_database

    with local_postgres_database() as url:
        yield url
