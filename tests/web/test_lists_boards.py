"""The boards when there is little on them, read from the real rating service through the
client's proxy: three rated matches put nobody on the weekly board (5 needed) or the ladder
(15 needed), and leave every rating provisional. Each page says what it is and how to get on
it, and a profile explains its `?` and that computer matches are not rated."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from king_rating.app import create_app
from king_rating.config import Settings
from king_rating.migrate import migrate
from king_rating.store import Store

from .play import horizontal_overflow
from .servers import LiveServer
from .test_boards import finished_match

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def sparse_rating(database_url: str, redis_url: str) -> Iterator[tuple[LiveServer, list[str]]]:
    """The rating app on a schema of its own holding three rated matches of four players."""
    schema = f"web_sparse_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = make_conninfo(database_url, options=f"-c search_path={schema}")
    migrate(url)
    store = Store(url, min_size=1, max_size=4)
    now = datetime.now(UTC)
    matches = [finished_match(now - timedelta(minutes=10 * (3 - i)), i) for i in range(3)]
    for match in matches:
        store.ingest(match)
    server = LiveServer(create_app(Settings(database_url=url, redis_url=redis_url), store=store))
    try:
        yield server, [m.match_id for m in matches]
    finally:
        server.stop()
        store.close()
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def rating_url(sparse_rating: tuple[LiveServer, list[str]], monkeypatch: Any) -> list[str]:
    monkeypatch.setenv("KING_RATING_URL", sparse_rating[0].url)
    monkeypatch.delenv("KING_RATING_PUBLIC_URL", raising=False)
    return sparse_rating[1]


def test_an_empty_weekly_board_says_how_to_get_on_it(
    page: Any, static_server: LiveServer, rating_url: list[str]
) -> None:
    page.goto(static_server.url + "/#/weekly")
    page.wait_for_selector("#weekly-empty")
    assert page.locator(".board-table").count() == 0, "no bare column headers"
    text = page.inner_text("#weekly-empty")
    assert "Nobody" in text and "5 rated matches" in text and "not rated" in text, text
    assert "(points + 15) / (matches + 10)" in page.inner_text("#weekly-about")


def test_an_empty_ladder_says_how_to_get_on_it(
    page: Any, static_server: LiveServer, rating_url: list[str]
) -> None:
    page.goto(static_server.url + "/#/ladder")
    page.wait_for_selector("#ladder-empty")
    assert page.locator(".board-table").count() == 0
    assert "15 rated matches" in page.inner_text("#ladder-empty")
    assert "provisional" in page.inner_text("#provisional-note")


def test_a_provisional_rating_is_explained(
    page: Any, static_server: LiveServer, rating_url: list[str]
) -> None:
    page.goto(static_server.url + "/#/profile/ayse")
    page.wait_for_selector("#rating-explained")
    assert page.inner_text("#rating").endswith("?")
    explained = page.inner_text("#rating-explained")
    assert "Provisional: 3 of 15 rated matches" in explained, explained
    assert "question mark" in explained
    assert "not rated" in page.inner_text("#computer-unrated")
    # Its finished matches, each linked to its replay.
    page.wait_for_selector("#profile-matches .match-row")
    links = page.locator("#profile-matches a.replay-link").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )
    assert sorted(links) == sorted(f"#/history/{m}" for m in rating_url)
    page.click("#lang")
    page.wait_for_selector("#rating-explained")
    assert "Geçici: 15 puanlı maçın 3 tanesi oynandı." in page.inner_text("#rating-explained")


def test_a_player_without_matches_is_told_where_ratings_start(
    page: Any, static_server: LiveServer, rating_url: list[str]
) -> None:
    page.goto(static_server.url + "/#/profile/yeni-oyuncu")
    page.wait_for_selector("#rating-explained")
    assert "1500?" in page.inner_text("#rating-explained")
    assert page.locator("#profile-matches .empty").count() == 1


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_boards_fit(
    browser: Any,
    static_server: LiveServer,
    rating_url: list[str],
    artifacts: Path,
    width: int,
    height: int,
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        for name, route, ready in (
            ("weekly", "#/weekly", "#weekly-empty"),
            ("ladder", "#/ladder", "#ladder-empty"),
            ("profile", "#/profile/ayse", "#profile-matches .match-row"),
        ):
            page.goto(f"{static_server.url}/{route}")
            page.wait_for_selector(ready)
            assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), name
            assert horizontal_overflow(page) == [], name
            page.screenshot(path=str(artifacts / f"lists-{name}-{width}.png"), full_page=True)
    finally:
        context.close()
