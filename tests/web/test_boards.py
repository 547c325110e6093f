"""The weekly board, the ladder and a profile's rating chart, read from the real rating service
(the run's ``rating_server``, rating_service.py: its board players ``BOARD_PLAYERS``) through
the client's read-only proxy."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from king_message import RATED_RULESETS

from .pages import DESKTOP, PHONE, new_page
from .play import horizontal_overflow
from .rating_service import RatingService, use_rating_service
from .servers import LiveServer

pytestmark = pytest.mark.integration

STATIC = Path(__file__).resolve().parents[2] / "services/game/king_game/web/static"


@pytest.fixture
def boards_page(
    page: Any, static_server: LiveServer, rating_server: RatingService, monkeypatch: Any
) -> Any:
    use_rating_service(monkeypatch, rating_server)
    return page


def test_the_boards_list_the_players_and_the_picker_shows_another_rulesets(
    boards_page: Any, static_server: LiveServer
) -> None:
    """The weekly board lists the four players (16 standard matches each); the picker shows
    classic20's board (rated apart: 5 matches) and traditional's empty one; the ladder keeps
    the choice and ranks the established players 1-4."""
    page = boards_page
    page.goto(static_server.url + "/#/weekly")
    page.wait_for_selector(".board-table tbody tr")
    names = page.locator(".board-table tbody td:nth-child(2)").all_inner_texts()
    assert sorted(names) == ["Ayse", "Burak", "Cem", "Deniz"]
    assert page.locator("#ruleset-picker").input_value() == "standard"
    matches = page.locator(".board-table tbody td:nth-child(4)").all_inner_texts()
    assert matches == ["16"] * 4
    page.select_option("#ruleset-picker", "classic20")
    page.wait_for_function(
        "document.querySelector('.board-table tbody td:nth-child(4)')?.textContent === '5'"
    )
    names = page.locator(".board-table tbody td:nth-child(2)").all_inner_texts()
    assert names == ["Ayse", "Burak", "Cem", "Deniz"]  # always seated 0-3 in that match
    # Nobody has played traditional: its board is empty, and says how to get on it.
    page.select_option("#ruleset-picker", "traditional")
    page.wait_for_selector("#weekly-empty")
    # The ladder keeps the choice while the page is open.
    page.goto(static_server.url + "/#/ladder")
    page.wait_for_selector("#ladder-empty")
    assert page.locator("#ruleset-picker").input_value() == "traditional"
    # Back to standard: the ladder ranks the established players.
    page.select_option("#ruleset-picker", "standard")
    page.wait_for_selector(".board-table tbody tr")
    ranks = page.locator(".board-table tbody td:first-child").all_inner_texts()
    assert ranks == ["1", "2", "3", "4"]


def test_the_pickers_rulesets_are_the_rated_ones() -> None:
    source = (STATIC / "boards.js").read_text(encoding="utf-8")
    listed = re.search(r"RATED_RULESETS = \[([^\]]*)\]", source)
    assert listed is not None
    assert tuple(re.findall(r'"(\w+)"', listed[1])) == RATED_RULESETS


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=lambda size: str(size[0]))
def test_profile_draws_the_rating_history(
    browser: Any,
    static_server: LiveServer,
    rating_server: RatingService,
    monkeypatch: Any,
    artifacts: Path,
    size: tuple[int, int],
) -> None:
    use_rating_service(monkeypatch, rating_server)
    with new_page(browser, size=size) as page:
        page.goto(static_server.url + "/#/profile/ayse")
        page.wait_for_selector("#rating-chart")
        # 16 rated matches: the line has the starting rating plus one point per match.
        assert page.locator("#rating-chart circle").count() == 17
        assert page.inner_text("h1") == "Ayse"
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / f"profile-{size[0]}.png"), full_page=True)


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
