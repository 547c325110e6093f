"""Fixtures of the rating tests: a private Postgres schema per test, unique queues, matches.

Every integration test gets its own schema (migrated from scratch) on the run's database and
its own RQ queue name on the run's Redis, so tests never see each other's rows or jobs.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from pg_schema import own_schema
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from redis import Redis
from rq import Queue
from rq.serializers import JSONSerializer
from tcp_proxy import TcpProxy

from king_message import FinishedMatch, SeatResult, format_utc
from king_rating.jobs import enqueue_finished_match, set_store
from king_rating.migrate import migrate
from king_rating.store import Store

MakeMatch = Callable[..., FinishedMatch]


#: Players and a Wednesday for the batch worker's matches (``matches``).
PEOPLE = ("ayse", "burak", "cem", "deniz", "elif", "fatma", "gul", "hakan")
MIDWEEK = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def build_match(
    players: Sequence[str] = ("ayse", "burak", "cem", "deniz"),
    places: Sequence[int] = (1, 2, 3, 4),
    *,
    ended_at: datetime | None = None,
    mode: str = "live",
    ranked: bool = True,
    outcome: str = "finished",
    bots: Sequence[bool] = (False, False, False, False),
    forfeited: Sequence[bool] = (False, False, False, False),
    guests: Sequence[bool] = (False, False, False, False),
    match_id: str | None = None,
    fairness: dict[str, Any] | None = None,
    ruleset: str = "standard",
    totals: Sequence[int] | None = None,
    hands: int = 20,
) -> FinishedMatch:
    """A valid message; totals follow the places (a better place has a higher total) unless
    given."""
    ended = ended_at or datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    order = 0
    seats = []
    for seat, (player, place, bot, left, guest) in enumerate(
        zip(players, places, bots, forfeited, guests, strict=True)
    ):
        if left:
            order += 1
        seats.append(
            SeatResult(
                seat=seat,
                player_id=player,
                name=player.title(),
                is_bot=bot,
                is_guest=guest,
                total=100 - 10 * place if totals is None else totals[seat],
                place=place,
                forfeited=left,
                forfeit_order=order if left else None,
                left_at=format_utc(ended - timedelta(minutes=order)) if left else None,
            )
        )
    return FinishedMatch(
        match_id=match_id or str(uuid.uuid4()),
        mode=mode,  # type: ignore[arg-type]
        ranked=ranked,
        ruleset=ruleset,
        hands=hands,
        players=tuple(seats),
        started_at=format_utc(ended - timedelta(minutes=40)),
        ended_at=format_utc(ended),
        outcome=outcome,  # type: ignore[arg-type]
        fairness=fairness if fairness is not None else {"server_seed": "ab" * 16, "deals": [1, 2]},
    )


@pytest.fixture
def make_match() -> MakeMatch:
    return build_match


def with_search_path(url: str, schema: str) -> str:
    return make_conninfo(url, options=f"-c search_path={schema}")


@pytest.fixture
def schema_url(database_url: str) -> Iterator[str]:
    """Conninfo of a fresh, migrated schema that only this test uses."""
    with own_schema(database_url, "rating", migrate) as url:
        yield url


@pytest.fixture
def store(schema_url: str) -> Iterator[Store]:
    store = Store(schema_url, min_size=1, max_size=8)
    set_store(store)
    try:
        yield store
    finally:
        set_store(None)
        store.close()


@pytest.fixture
def redis_conn(redis_url: str) -> Iterator[Redis]:
    connection = Redis.from_url(redis_url)
    yield connection
    connection.close()


@pytest.fixture
def queue(redis_conn: Redis) -> Queue:
    """A ratings queue with a name of its own."""
    return Queue(
        f"ratings-test-{uuid.uuid4().hex[:10]}", connection=redis_conn, serializer=JSONSerializer
    )


def query(url: str, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        cursor = conn.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def tables(url: str) -> dict[str, list[tuple[object, ...]]]:
    """Every row ingestion writes, without the columns that only say when."""
    return {
        "players": query(url, "SELECT player_id, name, is_guest FROM players ORDER BY player_id"),
        "ratings": query(
            url,
            "SELECT player_id, ruleset, rating, rated_matches, last_rated_at "
            "FROM ratings ORDER BY player_id, ruleset",
        ),
        "matches": query(
            url,
            "SELECT match_id, mode, ranked, rated, ruleset, week, board_applied, fairness, "
            "ended_at FROM matches ORDER BY match_id",
        ),
        "seats": query(url, "SELECT * FROM match_players ORDER BY match_id, seat"),
        "history": query(
            url,
            "SELECT player_id, match_id, ruleset, rating_before, rating_after, delta, k, place, "
            "rated_matches_before, "
            "row_number() OVER (PARTITION BY player_id, ruleset ORDER BY seq) "
            "FROM rating_history ORDER BY player_id, seq",
        ),
        "weeks": query(url, "SELECT * FROM weekly_scores ORDER BY week, ruleset, player_id"),
        "final": query(url, "SELECT * FROM weekly_final ORDER BY week, ruleset, rank"),
    }


@pytest.fixture
def db_proxy(schema_url: str) -> Iterator[TcpProxy]:
    params = conninfo_to_dict(schema_url)
    if str(params.get("host", "")).startswith("/"):
        pytest.skip("the proxy needs Postgres on TCP")
    proxy = TcpProxy(
        str(params.get("hostaddr") or params.get("host") or "127.0.0.1"),
        int(params.get("port") or 5432),
    )
    yield proxy
    proxy.close()


def matches(count: int, start: int = 0) -> list[FinishedMatch]:
    """``count`` valid matches of ``PEOPLE``, a second apart from ``MIDWEEK`` + ``start``."""
    return [
        build_match(
            [PEOPLE[(i + k) % 8] for k in (0, 1, 3, 6)],
            ended_at=MIDWEEK + timedelta(seconds=start + i),
        )
        for i in range(count)
    ]


def enqueue(queue: Queue, messages: list[FinishedMatch]) -> list[str]:
    """Put the matches on the ratings queue, without retries; their job ids."""
    return [enqueue_finished_match(queue, m, retry_intervals=()).id for m in messages]
