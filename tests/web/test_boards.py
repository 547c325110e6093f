"""The weekly board, the ladder and a profile's rating chart, read from the real rating service
(its app on this run's Postgres and Redis) through the client's read-only proxy."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from king_message import RATED_RULESETS, FinishedMatch, SeatResult, format_utc
from king_rating import weekly
from king_rating.app import create_app
from king_rating.config import Settings
from king_rating.migrate import migrate
from king_rating.store import Store

from .play import horizontal_overflow
from .servers import LiveServer

pytestmark = pytest.mark.integration

PLAYERS = ("ayse", "burak", "cem", "deniz")
STATIC = Path(__file__).resolve().parents[2] / "services/game/king_game/web/static"


def finished_match(ended: datetime, rotation: int, ruleset: str = "standard") -> FinishedMatch:
    order = PLAYERS[rotation % 4 :] + PLAYERS[: rotation % 4]
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


@pytest.fixture(scope="module")
def rating_server(database_url: str, redis_url: str) -> Iterator[LiveServer]:
    """The rating app on a schema of its own with 16 rated matches of four players, and 5 of
    them in classic20 (rated apart)."""
    schema = f"web_rating_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_conninfo(database_url, options=f"-c search_path={schema}")
    migrate(url)
    store = Store(url, min_size=1, max_size=4)
    now = datetime.now(UTC)
    # Every match ends inside the board's current week, however soon after its start the
    # test runs: a step of a minute, shrunk so that 80 steps fit since the week began.
    step = min(timedelta(minutes=1), (now - weekly.week_of(now).starts_at) / 100)
    for index in range(16):
        store.ingest(finished_match(now - step * 5 * (16 - index), index))
    for index in range(5):
        ended = now - step * 3 * (5 - index)
        store.ingest(finished_match(ended, 0, ruleset="classic20"))
    app = create_app(Settings(database_url=url, redis_url=redis_url), store=store)
    server = LiveServer(app)
    try:
        yield server
    finally:
        server.stop()
        store.close()
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def boards_page(
    page: Any, static_server: LiveServer, rating_server: LiveServer, monkeypatch: Any
) -> Any:
    monkeypatch.setenv("KING_RATING_URL", rating_server.url)
    monkeypatch.delenv("KING_RATING_PUBLIC_URL", raising=False)
    return page


def test_weekly_board_lists_the_players(boards_page: Any, static_server: LiveServer) -> None:
    boards_page.goto(static_server.url + "/#/weekly")
    boards_page.wait_for_selector(".board-table tbody tr")
    names = boards_page.locator(".board-table tbody td:nth-child(2)").all_inner_texts()
    assert sorted(names) == ["Ayse", "Burak", "Cem", "Deniz"]


def test_the_ruleset_picker_shows_another_rulesets_board(
    boards_page: Any, static_server: LiveServer
) -> None:
    boards_page.goto(static_server.url + "/#/weekly")
    boards_page.wait_for_selector(".board-table tbody tr")
    assert boards_page.locator("#ruleset-picker").input_value() == "standard"
    matches = boards_page.locator(".board-table tbody td:nth-child(4)").all_inner_texts()
    assert matches == ["16"] * 4
    boards_page.select_option("#ruleset-picker", "classic20")
    boards_page.wait_for_function(
        "document.querySelector('.board-table tbody td:nth-child(4)')?.textContent === '5'"
    )
    names = boards_page.locator(".board-table tbody td:nth-child(2)").all_inner_texts()
    assert names == ["Ayse", "Burak", "Cem", "Deniz"]  # always seated 0-3 in that match
    # Nobody has played traditional: its board is empty, and says how to get on it.
    boards_page.select_option("#ruleset-picker", "traditional")
    boards_page.wait_for_selector("#weekly-empty")
    # The ladder keeps the choice while the page is open.
    boards_page.goto(static_server.url + "/#/ladder")
    boards_page.wait_for_selector("#ladder-empty")
    assert boards_page.locator("#ruleset-picker").input_value() == "traditional"


def test_the_pickers_rulesets_are_the_rated_ones() -> None:
    source = (STATIC / "boards.js").read_text(encoding="utf-8")
    listed = re.search(r"RATED_RULESETS = \[([^\]]*)\]", source)
    assert listed is not None
    assert tuple(re.findall(r'"(\w+)"', listed[1])) == RATED_RULESETS


def test_ladder_ranks_established_players(boards_page: Any, static_server: LiveServer) -> None:
    boards_page.goto(static_server.url + "/#/ladder")
    boards_page.wait_for_selector(".board-table tbody tr")
    ranks = boards_page.locator(".board-table tbody td:first-child").all_inner_texts()
    assert ranks == ["1", "2", "3", "4"]


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_profile_draws_the_rating_history(
    browser: Any,
    static_server: LiveServer,
    rating_server: LiveServer,
    monkeypatch: Any,
    artifacts: Path,
    width: int,
    height: int,
) -> None:
    monkeypatch.setenv("KING_RATING_URL", rating_server.url)
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(static_server.url + "/#/profile/ayse")
        page.wait_for_selector("#rating-chart")
        # 16 rated matches: the line has the starting rating plus one point per match.
        assert page.locator("#rating-chart circle").count() == 17
        assert page.inner_text("h1") == "Ayse"
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / f"profile-{width}.png"), full_page=True)
    finally:
        context.close()


def test_rating_proxy_refuses_other_paths(static_server: LiveServer) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(static_server.url + "/web/rating/readyz", timeout=5)
    assert refused.value.code == 404


def test_rating_proxy_refuses_an_unknown_ruleset(static_server: LiveServer) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(static_server.url + "/web/rating/ladder?ruleset=classic", timeout=5)
    assert refused.value.code == 400
    assert refused.value.headers["Content-Type"] == "application/problem+json"
    assert json.loads(refused.value.read())["code"] == "unknown_ruleset"
