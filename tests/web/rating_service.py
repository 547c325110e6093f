"""The real rating service of the browser tests: one app for the whole run (``rating_server``,
made a fixture of tests/web by conftest.py), on a schema of its own in this run's Postgres.

It holds two groups of players, so each module reads only its own:

* ``BOARD_PLAYERS`` (test_boards.py, test_turkish.py): 16 rated ``standard`` matches and 5
  rated ``classic20`` ones, all inside the board's current week — a full weekly board and
  ladder of four;
* ``SPARSE_PLAYERS`` (test_lists_boards.py): three rated matches of ``SPARSE_RULESET``, which
  nobody else plays here — an empty board and ladder for that ruleset, provisional ratings.

``traditional`` stays empty for test_boards.py's "nobody has played it". A test points the
client's read-only proxy at it with ``use_rating_service`` (the ``KING_RATING_URL`` variable,
for that test only).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pg_schema import own_schema

from king_message import FinishedMatch, SeatResult, format_utc
from king_rating import weekly
from king_rating.app import create_app
from king_rating.config import Settings
from king_rating.migrate import migrate
from king_rating.store import Store

from .servers import LiveServer

BOARD_PLAYERS = ("ayse", "burak", "cem", "deniz")
SPARSE_PLAYERS = ("ece", "fikret", "gul", "hakan")
#: The ruleset of the sparse players' matches: nobody else has a rated match of it.
SPARSE_RULESET = "konturlu"


def finished_match(
    ended: datetime,
    rotation: int,
    ruleset: str = "standard",
    players: tuple[str, ...] = BOARD_PLAYERS,
) -> FinishedMatch:
    """A rated live match of the four ``players`` (seated from ``rotation`` on): seat 0 first."""
    order = players[rotation % 4 :] + players[: rotation % 4]
    return FinishedMatch(
        match_id=str(uuid.uuid4()),
        mode="live",
        ranked=True,
        ruleset=ruleset,
        hands=8,
        players=tuple(
            SeatResult(
                seat=seat,
                player_id=player,
                name=player.title(),
                is_bot=False,
                total=100 - 10 * (seat + 1),
                place=seat + 1,
                forfeited=False,
                forfeit_order=None,
                left_at=None,
            )
            for seat, player in enumerate(order)
        ),
        started_at=format_utc(ended - timedelta(minutes=30)),
        ended_at=format_utc(ended),
        outcome="finished",
        fairness={"spec": "KINGDEAL-v1"},
    )


@dataclass
class RatingService:
    server: LiveServer
    #: The ids of the sparse players' three matches, oldest first.
    sparse_matches: list[str]

    @property
    def url(self) -> str:
        return self.server.url


@pytest.fixture(scope="session")
def rating_server(database_url: str, redis_url: str) -> Iterator[RatingService]:
    """The rating app with both groups' matches (see the module docstring)."""
    with own_schema(database_url, "web_rating", migrate) as url:
        store = Store(url, min_size=1, max_size=4)
        now = datetime.now(UTC)
        # Every match ends inside the board's current week, however soon after its start the
        # test runs: a step of a minute, shrunk so that 80 steps fit since the week began.
        step = min(timedelta(minutes=1), (now - weekly.week_of(now).starts_at) / 100)
        for index in range(16):
            store.ingest(finished_match(now - step * 5 * (16 - index), index))
        for index in range(5):
            store.ingest(finished_match(now - step * 3 * (5 - index), 0, ruleset="classic20"))
        sparse = [
            finished_match(now - step * 2 * (3 - i), i, SPARSE_RULESET, SPARSE_PLAYERS)
            for i in range(3)
        ]
        for match in sparse:
            store.ingest(match)
        app = create_app(Settings(database_url=url, redis_url=redis_url), store=store)
        server = LiveServer(app)
        try:
            yield RatingService(server, [m.match_id for m in sparse])
        finally:
            server.stop()
            store.close()


def use_rating_service(monkeypatch: Any, rating: RatingService) -> None:
    """Point the client's rating proxy (``/web/rating/...``) at ``rating`` for this test."""
    monkeypatch.setenv("KING_RATING_URL", rating.url)
    monkeypatch.delenv("KING_RATING_PUBLIC_URL", raising=False)
