"""The table explains itself and fits the screen (against the engine-backed stand-in).

The contract picker gives each contract's meaning and points (the numbers of RULES.md §1),
each player's picks as on a paper score sheet, and why a contract is not offered; the clock
warns in the last seconds of the move time and while the reserve drains (on Playwright's
clock, tableclock.py, not by waiting for them); at 390×844 nothing of the table scrolls
sideways, the picker and the hand share one screen and a toast does not cover the cards; at
1280×800 the score sheet sits beside the felt. Screenshots of each state go to
test-artifacts/web/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from king_engine import CONTRACTS, PENALTY_CONTRACTS

from .pages import PHONE, table_page
from .play import horizontal_overflow, wait_for_my_move
from .servers import LiveServer, load_web_blueprint
from .stub_game import StubGame, stub_app
from .tableclock import clocked_table, pause, run_until
from .tablekit import advance, reload_table, served, state_of, view0

pytestmark = pytest.mark.integration

# RULES.md §1: what one scoring card or trick is worth.
VALUES = {"tricks": "−50", "hearts": "−30", "queens": "−100", "boys": "−60",
          "last_two": "−180", "king_of_hearts": "−320"}  # fmt: skip
PENALTY_CODES = [CONTRACTS[c].code for c in PENALTY_CONTRACTS]
SCROLL_JS = "() => [document.scrollingElement.scrollWidth, innerWidth]"


@pytest.fixture(scope="module")
def stub() -> Iterator[tuple[LiveServer, StubGame]]:
    app, game = stub_app(load_web_blueprint(), seed=23)
    server = LiveServer(app)
    try:
        yield server, game
    finally:
        server.stop()


def boxes(page: Any, *selectors: str) -> list[dict[str, float]]:
    """The page-relative boxes of some elements, read at one moment (between two redraws)."""
    found: list[dict[str, float]] = page.evaluate(
        """sels => sels.map((s) => {
          const r = document.querySelector(s).getBoundingClientRect();
          return { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right };
        })""",
        list(selectors),
    )
    return found


def fits_sideways(page: Any) -> None:
    width, inner = page.evaluate(SCROLL_JS)
    assert width <= inner, (width, inner)
    assert horizontal_overflow(page) == []


def test_the_picker_explains_each_contract_and_the_picks_left(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """Hand 1 of 8: every contract offered with its meaning and value, my picks △ ○ (one
    penalty and one Koz to pick). Hand 5, after my penalty pick in hand 1: only Koz is offered,
    each penalty is listed as not offered because my penalty pick is made, my marks are ▲ ○,
    and every seat's marks agree with the engine's score sheet."""
    server, game = stub
    with table_page(browser, server.url) as (page, match_id):
        wait_for_my_move(page)
        for code in PENALTY_CODES:
            button = page.locator(f"#contract-picker button[data-move='{code}']")
            assert button.locator(".what").inner_text().strip()
            assert button.locator(".value").inner_text().startswith(VALUES[code] + " ")
        assert "+50" in page.inner_text("#contract-picker .koz-head .value")
        mine = page.locator("#contract-picker .my-picks .picks")
        assert mine.inner_text().replace("\n", "") == "△○"
        assert page.locator("#contract-picker .unavailable").count() == 0
        page.screenshot(path=str(artifacts / "table-picker-1280.png"))

        advance(
            game,
            match_id,
            lambda s: s.hand_index == 4 and s.current_player == 0 and s.phase == 0,
            contract="queens",
        )
        reload_table(page)
        sheet = state_of(game, match_id).sheet
        assert CONTRACTS[sheet[0].contract].code == "queens"
        offered = page.locator("#contract-picker button").evaluate_all(
            "els => els.map((e) => e.dataset.move)"
        )
        assert offered == [c["move"] for c in view0(game, match_id)["allowed_contracts"]]
        assert all(move.startswith("trump:") for move in offered)
        reasons = page.locator("#contract-picker .unavailable li").evaluate_all(
            "els => els.map((e) => [e.dataset.contract, e.textContent])"
        )
        assert [code for code, _ in reasons] == PENALTY_CODES
        assert all("you have made your 1 penalty pick" in text for _, text in reasons), reasons
        assert mine.inner_text().replace("\n", "") == "▲○"
        for seat in range(4):
            picked = [r for r in sheet if r.declarer == seat]
            marks = page.locator(f"#hand-scores .picks[data-seat='{seat}']")
            penalties = sum(1 for r in picked if CONTRACTS[r.contract].code != "trump")
            assert marks.get_attribute("data-penalties") == str(penalties)
            assert marks.get_attribute("data-trump") == str(len(picked) - penalties)
        page.screenshot(path=str(artifacts / "table-picker-koz-only-1280.png"))
        assert page.js_errors == []


@pytest.fixture
def clocked(request: Any) -> Iterator[tuple[LiveServer, StubGame]]:
    """A stand-in whose move clock and reserve are the test's (``request.param``)."""
    app, game = stub_app(load_web_blueprint(), seed=3, **request.param)
    server = LiveServer(app)
    try:
        yield server, game
    finally:
        server.stop()


def restart_move_clock_paused(page: Any, game: StubGame, match_id: str) -> None:
    """The stand-in starts my move's time now, and the page reloads with its clock paused:
    the page then reads the service's time once, and its poll of the view (every 5 s, which
    would read it again) is not due while a test moves the page's time on by less."""
    with game.lock:
        game.matches[match_id].deadline_ms = int(time.time() * 1000) + game.move_ms
    pause(page)
    page.reload()
    wait_for_my_move(page)  # the fast pace draws at once, without the clock


@pytest.mark.parametrize("clocked", [{"move_ms": 14_000}], indirect=True)
def test_the_move_clock_warns_in_its_last_ten_seconds(
    browser: Any, clocked: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """14 s a move: no warning at first; 4.9 s later on the page's clock, under 10 s are
    left and the seat's clock and a banner say so."""
    server, game = clocked
    with clocked_table(browser, server.url, pace="fast") as (page, match_id):
        restart_move_clock_paused(page, game, match_id)
        clock = page.locator("[data-clock-seat='0']")
        assert "warn" not in (clock.get_attribute("class") or "")
        assert page.locator("#clock-warning").is_hidden()
        page.clock.run_for(4_900)
        assert "warn" in (clock.get_attribute("class") or "")
        text = page.inner_text("#clock-warning")
        seconds = int(text.split(":")[1].split()[0])
        assert text.startswith("Hurry") and 0 < seconds <= 10, text
        page.screenshot(path=str(artifacts / "table-clock-warning-1280.png"))


@pytest.mark.parametrize("clocked", [{"move_ms": 2_000, "reserve_ms": 120_000}], indirect=True)
def test_the_reserve_is_marked_while_it_drains(
    browser: Any, clocked: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """2 s a move and 2 minutes of reserve: once the move time is out (on the page's clock)
    the reserve drains, marked and said in a banner, and counts down."""
    server, game = clocked
    with clocked_table(browser, server.url, pace="fast", size=PHONE) as (page, match_id):
        restart_move_clock_paused(page, game, match_id)
        page.clock.run_for(2_500)
        assert page.locator("[data-clock-seat='0'].draining").count() == 1
        assert page.inner_text("#clock-warning") == "Your reserve is running"
        first = page.inner_text("[data-clock-seat='0']")
        page.clock.run_for(1_300)
        later = page.inner_text("[data-clock-seat='0']")
        assert later != first and "Reserve 1:5" in later, (first, later)
        page.screenshot(path=str(artifacts / "table-reserve-390.png"))


def test_the_phone_table_fits_the_screen(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """390×844: the picker and the hand fit one screen; no state of the table (picker, play,
    last trick, summary, Turkish) scrolls sideways; a toast does not cover the hand."""
    server, game = stub
    with clocked_table(browser, server.url, pace="instant", size=PHONE) as (page, match_id):
        wait_for_my_move(page)
        fits_sideways(page)
        top = page.evaluate(
            "document.querySelector('#contract-picker').getBoundingClientRect().top"
        )
        bottom = page.evaluate("document.querySelector('#hand').getBoundingClientRect().bottom")
        assert bottom - top <= 844 and bottom <= 844 + page.evaluate("scrollY"), (top, bottom)
        page.screenshot(path=str(artifacts / "table-picker-390.png"))

        page.click("#contract-picker button[data-move='tricks']")
        wait_for_my_move(page)
        page.locator("#hand.active .card.legal").first.click()
        wait_for_my_move(page)
        fits_sideways(page)
        page.screenshot(path=str(artifacts / "table-play-390.png"), full_page=True)
        page.click("#last-trick-button")
        fits_sideways(page)
        page.screenshot(path=str(artifacts / "table-last-trick-390.png"))

        page.evaluate("import('/web/dom.js').then((m) => m.toast('Refused: a test message'))")
        page.wait_for_selector("#toast:not([hidden])")
        toast = page.locator("#toast").bounding_box()
        hand = page.locator("#hand").bounding_box()
        assert toast and hand
        assert (
            toast["y"] + toast["height"] <= hand["y"] or toast["y"] >= hand["y"] + hand["height"]
        ), (toast, hand)
        page.screenshot(path=str(artifacts / "table-toast-390.png"))

        advance(
            game,
            match_id,
            lambda s: s.hand_index == 0 and s.trick_no == 12 and s.current_player == 0,
        )
        reload_table(page)
        pause(page)  # the summary stays while it is looked at (it closes itself in 1.5 s)
        page.locator("#hand.active .card.legal").first.click()
        run_until(
            page, "() => document.querySelector('#hand-summary')", served=served(game, match_id)
        )
        fits_sideways(page)
        page.screenshot(path=str(artifacts / "table-summary-390.png"))
        page.click("#summary-continue")
        page.clock.resume()
        page.click("#lang")
        wait_for_my_move(page)
        fits_sideways(page)
        page.screenshot(path=str(artifacts / "table-turkish-390.png"), full_page=True)
        assert page.js_errors == []


def test_the_desktop_table_uses_the_width(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """1280×800: the score sheet sits beside the felt and the hand is on the first screen."""
    server, _ = stub
    with table_page(browser, server.url) as (page, _):
        wait_for_my_move(page)
        page.click("#contract-picker button[data-move='hearts']")
        wait_for_my_move(page)
        fits_sideways(page)
        felt, sheet, hand = boxes(page, "#trick", "#score-sheet", "#hand")
        assert sheet["left"] >= felt["right"], (felt, sheet)
        assert hand["bottom"] <= 800, hand
        page.screenshot(path=str(artifacts / "table-play-1280.png"))
