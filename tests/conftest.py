"""Fixtures shared by every test folder.

Storage tests talk to real servers: each test run gets its own private redis-server process
(or the one named by ``TEST_REDIS_URL``), a private three-primary Redis Cluster when a test
asks for one, and its own fresh PostgreSQL database (created on the
server named by ``DATABASE_ADMIN_URL``, else the machine's, else a private pgserver cluster).
Unit tests of pure code use none of these fixtures and need no services.

Hypothesis runs a small number of examples per property by default (``make test``); the
``ci`` profile (``pytest --hypothesis-profile=ci``) runs the thorough count. A property that
needs a count of its own (because each example costs next to nothing) says so in its
``@settings``; the costly ones take the profile's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from xdist.scheduler import LoadScopeScheduling

# Whole matches are slow examples by design: no deadline, no "too slow" health check.
_PROPERTY_DEFAULTS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("default", max_examples=20, **_PROPERTY_DEFAULTS)
settings.register_profile("ci", max_examples=120, **_PROPERTY_DEFAULTS)
settings.load_profile("default")


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


# ------------------------------------------------------------------------------- scheduling


class BrowserTestsTogether(LoadScopeScheduling):
    """How ``make test``'s two processes share the tests out: every browser test
    (``tests/web``) is one unit, so one process runs them one after another while the other
    runs the rest; any other module is a unit of its own (its module fixtures are made once).
    Two browser modules at once would each take far longer than twice their time. (xdist's
    own ``--dist loadgroup`` would say this with marks, but with pytest 9.2 it silently
    ignores them: pytest-xdist issue 1386.)"""

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        if not path.startswith("tests/web/"):
            return path
        return "browser-whole" if path in WHOLE_MATCH_MODULES else "browser"

    def _assign_work_unit(self, node: Any) -> None:
        # The browser units are the longest: they go to the first processes that ask.
        for unit in ("browser", "browser-whole"):
            if unit in self.workqueue:
                self.workqueue.move_to_end(unit, last=False)
        super()._assign_work_unit(node)


#: The browser modules that play whole matches in the page: a unit of their own.
WHOLE_MATCH_MODULES = ("tests/web/test_konturlu.py", "tests/web/test_full_match.py")


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # before xdist's own choice by --dist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> BrowserTestsTogether:
    return BrowserTestsTogether(config, log)


# ------------------------------------------------------------------------------------ skips


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-skips",
        action="store_true",
        help="fail the run if any test was skipped (make test and CI: every test can run here)",
    )


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    skipped = terminalreporter.stats.get("skipped", [])
    terminalreporter.write_line(f"skipped tests: {len(skipped)}")
    if skipped and config.getoption("--no-skips"):
        terminalreporter.write_line("--no-skips: a skipped test fails the run", red=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or not session.config.getoption("--no-skips"):
        return
    if reporter.stats.get("skipped") and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
