"""The boards when there is little on them, read from the real rating service (the run's
``rating_server``, rating_service.py) through the client's proxy: its sparse players have three
rated matches of ``SPARSE_RULESET``, which nobody else plays there. Three matches put nobody
on that ruleset's weekly board (5 needed) or ladder (15 needed), and leave every rating
provisional. Each page says what it is and how to get on it, and a profile explains its `?`
and that computer matches are not rated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .pages import DESKTOP, PHONE, new_page
from .play import horizontal_overflow
from .rating_service import SPARSE_PLAYERS, SPARSE_RULESET, RatingService, use_rating_service
from .servers import LiveServer

pytestmark = pytest.mark.integration

SPARSE = SPARSE_PLAYERS[0]


@pytest.fixture
def sparse_matches(rating_server: RatingService, monkeypatch: Any) -> list[str]:
    use_rating_service(monkeypatch, rating_server)
    return rating_server.sparse_matches


def sparse_ruleset_board(page: Any, base_url: str) -> None:
    """The weekly board of the sparse players' ruleset (the picker's choice then holds for the
    ladder and the profiles while the page stays open)."""
    page.goto(base_url + "/#/weekly")
    page.wait_for_selector("#ruleset-picker")
    page.select_option("#ruleset-picker", SPARSE_RULESET)
    page.wait_for_selector("#weekly-empty")


def show(page: Any, route: str, ready: str) -> None:
    """Another page of the client in the same document (the picker's choice is kept)."""
    page.evaluate("route => { location.hash = route; }", route)
    page.wait_for_selector(ready)


def test_an_empty_weekly_board_says_how_to_get_on_it(
    page: Any, static_server: LiveServer, sparse_matches: list[str]
) -> None:
    sparse_ruleset_board(page, static_server.url)
    assert page.locator(".board-table").count() == 0, "no bare column headers"
    text = page.inner_text("#weekly-empty")
    assert "Nobody" in text and "5 rated matches" in text and "not rated" in text, text
    assert "(points + 15) / (matches + 10)" in page.inner_text("#weekly-about")


def test_an_empty_ladder_says_how_to_get_on_it(
    page: Any, static_server: LiveServer, sparse_matches: list[str]
) -> None:
    page.goto(static_server.url + "/#/ladder")
    page.wait_for_selector("#ruleset-picker")
    page.select_option("#ruleset-picker", SPARSE_RULESET)
    page.wait_for_selector("#ladder-empty")
    assert page.locator(".board-table").count() == 0
    assert "15 rated matches" in page.inner_text("#ladder-empty")
    assert "provisional" in page.inner_text("#provisional-note")


def test_a_provisional_rating_is_explained(
    page: Any, static_server: LiveServer, sparse_matches: list[str]
) -> None:
    sparse_ruleset_board(page, static_server.url)
    show(page, f"#/profile/{SPARSE}", "#rating-explained")
    assert page.locator("#ruleset-picker").input_value() == SPARSE_RULESET
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
    assert sorted(links) == sorted(f"#/history/{m}" for m in sparse_matches)
    page.click("#lang")
    page.wait_for_selector("#rating-explained")
    assert "Geçici: 15 puanlı maçın 3 tanesi oynandı." in page.inner_text("#rating-explained")


def test_a_player_without_matches_is_told_where_ratings_start(
    page: Any, static_server: LiveServer, sparse_matches: list[str]
) -> None:
    page.goto(static_server.url + "/#/profile/yeni-oyuncu")
    page.wait_for_selector("#rating-explained")
    assert "1500?" in page.inner_text("#rating-explained")
    assert page.locator("#profile-matches .empty").count() == 1


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=lambda size: str(size[0]))
def test_the_boards_fit(
    browser: Any,
    static_server: LiveServer,
    sparse_matches: list[str],
    artifacts: Path,
    size: tuple[int, int],
) -> None:
    width = size[0]
    with new_page(browser, size=size) as page:
        sparse_ruleset_board(page, static_server.url)
        for name, route, ready in (
            ("weekly", "#/weekly", "#weekly-empty"),
            ("ladder", "#/ladder", "#ladder-empty"),
            ("profile", f"#/profile/{SPARSE}", "#profile-matches .match-row"),
        ):
            show(page, route, ready)
            assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), name
            assert horizontal_overflow(page) == [], name
            page.screenshot(path=str(artifacts / f"lists-{name}-{width}.png"), full_page=True)
