"""The lobby in Chromium, on the run's real game service (``game_server``): it shows a table
another player opened without a reload, stops asking once left, lists the player's matches as
readable rows, and its Play now button starts a computer match the fair way; it fits a phone.

Every test makes its own guests and tables and looks only at those (the lobby also lists the
open tables of other tests). The lobby asks again every ``POLL_MS`` (lobby.js): Playwright's
clock runs that time out instead of the test waiting for it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .live_game import Player, call
from .pages import DESKTOP, PHONE, new_page, sign_in_as_guest
from .play import horizontal_overflow
from .servers import LiveServer

pytestmark = [pytest.mark.integration]

POLL_MS = 3_000  # lobby.js

#: Counts the page's reads of the open tables as it makes them (``fetch`` is called at once
#: by the poll's timer, so the count is exact right after ``page.clock.run_for``).
COUNT_TABLE_READS_JS = """
window.tablesAsked = 0;
const pageFetch = window.fetch;
window.fetch = function (resource, ...rest) {
  if (String(resource.url ?? resource).endsWith('/v1/tables')) window.tablesAsked += 1;
  return pageFetch.call(this, resource, ...rest);
};
"""


@pytest.fixture(scope="module")
def busy(game_server: LiveServer) -> tuple[Player, str, str]:
    """A guest at a computer table (their turn: seat 0 declares the first hand) and at a
    live table that waits for three more players."""
    player = Player(game_server.url, "Meşgul")
    computer = player.open_table(mode="computer", level="easy", hands=8, ruleset="standard")
    live = player.open_table(mode="live", hands=12, ruleset="standard")
    return player, computer, live


@contextmanager
def signed_in(
    browser: Any, server: LiveServer, player: Player, size: tuple[int, int]
) -> Iterator[Any]:
    """The lobby of ``player`` (their session stored before the page loads)."""
    session = json.dumps(json.dumps(player.session()))
    script = f"localStorage.setItem('king.session', {session});"
    with new_page(browser, size=size, init_script=script) as page:
        page.goto(server.url + "/#/")
        page.wait_for_selector("#my-matches .match-row")
        yield page


def lobby_loaded(page: Any) -> None:
    """Both lists of the lobby's first round are drawn: its next round is on the clock."""
    page.wait_for_selector("#tables p, #tables ul")
    page.wait_for_selector("#my-matches .my-matches")


def test_the_lobby_shows_a_new_table_without_a_reload(page: Any, game_server: LiveServer) -> None:
    page.clock.install()
    sign_in_as_guest(page, game_server.url, "Bekleyen")
    lobby_loaded(page)
    page.evaluate("window.sameDocument = true")
    other = Player(game_server.url, "Burak")
    match_id = other.open_table(mode="live", hands=20, ruleset="classic20")
    row = page.locator(f'#tables li[data-match="{match_id}"]')
    page.clock.run_for(POLL_MS)  # the lobby's next round
    row.wait_for(timeout=10_000)
    assert page.evaluate("window.sameDocument") is True, "the page was not reloaded"
    text = row.inner_text()
    assert "classic20" in text and "1/4" in text and "Burak" in text, text
    # The row's Sit down works as before.
    row.locator("button").click()
    page.wait_for_selector("#table .seats")
    assert page.evaluate("location.hash") == f"#/match/{match_id}"


def test_leaving_the_lobby_stops_its_polling(page: Any, game_server: LiveServer) -> None:
    page.add_init_script(COUNT_TABLE_READS_JS)
    page.clock.install()
    sign_in_as_guest(page, game_server.url, "Giden")
    lobby_loaded(page)
    asked = page.evaluate("window.tablesAsked")
    assert asked >= 1
    page.clock.run_for(POLL_MS)  # the next round is due
    assert page.evaluate("window.tablesAsked") > asked, "the lobby asks again while shown"
    page.evaluate("location.hash = '#/weekly'")
    page.wait_for_selector("#ruleset-picker, .error")  # the weekly board (or why it has none)
    left = page.evaluate("window.tablesAsked")
    page.clock.run_for(3 * POLL_MS)  # three rounds' time: a lobby still polling would ask
    assert page.evaluate("window.tablesAsked") == left, "the lobby stopped asking once left"


def test_my_matches_are_readable_rows(
    browser: Any, game_server: LiveServer, busy: tuple[Player, str, str]
) -> None:
    player, computer, live = busy
    with signed_in(browser, game_server, player, DESKTOP) as page:
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


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=lambda size: str(size[0]))
def test_the_lobby_fits(
    browser: Any,
    game_server: LiveServer,
    busy: tuple[Player, str, str],
    artifacts: Path,
    size: tuple[int, int],
) -> None:
    player, _, _ = busy
    width = size[0]
    with signed_in(browser, game_server, player, size) as page:
        page.wait_for_selector("#tables p, #tables ul")
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / f"lists-lobby-{width}.png"), full_page=True)
        page.click("#lang")  # the Turkish labels are longer
        page.wait_for_selector("#my-matches .match-row")
        assert horizontal_overflow(page) == [], "Türkçe"
        page.screenshot(path=str(artifacts / f"lists-lobby-tr-{width}.png"), full_page=True)
