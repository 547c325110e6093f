"""The lobby in Chromium, on the real game service: it shows a table another player opened
without a reload, stops asking once left, lists the player's matches as readable rows, and
its Play now button starts a computer match the fair way; it fits a phone."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .live_game import Player, call, game_service
from .play import horizontal_overflow, sign_in_as_guest
from .servers import LiveServer

pytestmark = [pytest.mark.integration]

try:
    import king_game.app  # noqa: F401
except ImportError as missing:  # the game service is not installed in this environment
    pytest.skip(f"the game service cannot be imported: {missing}", allow_module_level=True)


@pytest.fixture(scope="module")
def game_server(redis_url: str, database_url: str) -> Iterator[LiveServer]:
    # No bot worker: the computer tables here only need to start, not to be played.
    with game_service(redis_url, database_url, db=9, bots=False) as server:
        yield server


@pytest.fixture(scope="module")
def busy(game_server: LiveServer) -> tuple[Player, str, str]:
    """A guest at a computer table (their turn: seat 0 declares the first hand) and at a
    live table that waits for three more players."""
    player = Player(game_server.url, "Meşgul")
    computer = player.open_table(mode="computer", level="easy", hands=8, ruleset="standard")
    live = player.open_table(mode="live", hands=12, ruleset="standard")
    return player, computer, live


def signed_in(browser: Any, server: LiveServer, player: Player, size: tuple[int, int]) -> Any:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("s => localStorage.setItem('king.session', JSON.stringify(s))", player.session())
    page.goto(server.url + "/#/")
    page.wait_for_selector("#my-matches .match-row")
    return context, page


def test_the_lobby_shows_a_new_table_without_a_reload(page: Any, game_server: LiveServer) -> None:
    sign_in_as_guest(page, game_server.url, "Bekleyen")
    page.wait_for_selector("#tables p, #tables ul")
    page.evaluate("window.sameDocument = true")
    other = Player(game_server.url, "Burak")
    match_id = other.open_table(mode="live", hands=20, ruleset="classic20")
    row = page.locator(f'#tables li[data-match="{match_id}"]')
    row.wait_for(timeout=10_000)
    assert page.evaluate("window.sameDocument") is True, "the page was not reloaded"
    text = row.inner_text()
    assert "classic20" in text and "1/4" in text and "Burak" in text, text
    # The row's Sit down works as before.
    row.locator("button").click()
    page.wait_for_selector("#table .seats")
    assert page.evaluate("location.hash") == f"#/match/{match_id}"


def test_leaving_the_lobby_stops_its_polling(page: Any, game_server: LiveServer) -> None:
    sign_in_as_guest(page, game_server.url, "Giden")
    asked: list[float] = []
    page.on(
        "request", lambda r: asked.append(time.monotonic()) if r.url.endswith("/v1/tables") else 0
    )
    page.wait_for_timeout(3_500)
    assert asked, "the lobby asks for the open tables again while it is shown"
    page.evaluate("location.hash = '#/weekly'")
    page.wait_for_timeout(500)
    left = len(asked)
    page.wait_for_timeout(7_000)
    assert len(asked) == left, "the lobby stopped asking once left"


def test_my_matches_are_readable_rows(
    browser: Any, game_server: LiveServer, busy: tuple[Player, str, str]
) -> None:
    player, computer, live = busy
    context, page = signed_in(browser, game_server, player, (1280, 800))
    try:
        row = page.locator(f'#active-matches li[data-match="{computer}"]')
        text = row.inner_text()
        for part in ("Bot 1", "Bot 2", "Bot 3", "Against the computer · easy", "standard",
                     "8 hands", "Your turn · move by"):  # fmt: skip
            assert part in text, (part, text)
        assert "my-turn" in (row.get_attribute("class") or "")
        assert row.locator("a").get_attribute("href") == f"#/match/{computer}"
        text = page.inner_text(f'#active-matches li[data-match="{live}"]')
        assert "Live table" in text and "12 hands" in text and "1/4 seated" in text, text
        # Your turn first (the service's order), then the waiting table.
        order = page.locator("#active-matches li").evaluate_all(
            "items => items.map(li => li.dataset.match)"
        )
        assert order.index(computer) < order.index(live)
        page.click("#lang")
        page.wait_for_selector("#active-matches")
        text = page.inner_text(f'#active-matches li[data-match="{computer}"]')
        assert "Bilgisayara karşı · kolay" in text and "8 el" in text and "Sıra sende" in text
    finally:
        context.close()


def test_play_now_starts_an_easy_computer_match(page: Any, game_server: LiveServer) -> None:
    sign_in_as_guest(page, game_server.url, "Hemen")
    assert "not rated" in page.inner_text("#play-now-panel")
    page.click("#play-now")
    page.wait_for_selector("#table[data-version]")
    match_id = page.evaluate("location.hash.split('/')[2]")
    token = page.evaluate("JSON.parse(localStorage.getItem('king.session')).token")
    table = call(game_server.url, "GET", f"/v1/tables/{match_id}", token)
    assert (table["mode"], table["level"], table["hands"], table["ruleset"]) == (
        "computer", "easy", 8, "standard",
    )  # fmt: skip
    record = json.loads(page.evaluate(f"localStorage.getItem('king.match.{match_id}')"))
    assert record["commitment"] == table["server_commit"] and record["seat"] == 0


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_lobby_fits(
    browser: Any,
    game_server: LiveServer,
    busy: tuple[Player, str, str],
    artifacts: Path,
    width: int,
    height: int,
) -> None:
    player, _, _ = busy
    context, page = signed_in(browser, game_server, player, (width, height))
    try:
        page.wait_for_selector("#tables p, #tables ul")
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / f"lists-lobby-{width}.png"), full_page=True)
        page.click("#lang")  # the Turkish labels are longer
        page.wait_for_selector("#my-matches .match-row")
        assert horizontal_overflow(page) == [], "Türkçe"
        page.screenshot(path=str(artifacts / f"lists-lobby-tr-{width}.png"), full_page=True)
    finally:
        context.close()
