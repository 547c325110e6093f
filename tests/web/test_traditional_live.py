"""A `traditional` computer table on the real game service (its app factory on this run's
Redis and Postgres, a real bot worker): the create form's options reach the match, the table
names the first declarer, the page answers the calls that come (Keep, Pass) and plays on; the
rest of the match is played through the API with the page's own session, and the page then
shows çıkar / batar per seat and verifies the deck from the service's transcript (every deal,
thrown ones included, with the calls)."""

from __future__ import annotations

import json
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .live_game import call, game_service
from .play import horizontal_overflow, sign_in_as_guest, wait_for_my_move
from .servers import LiveServer

pytestmark = [pytest.mark.integration, pytest.mark.slow]

try:
    import king_game.app  # noqa: F401
except ImportError as missing:  # the game service is not installed in this environment
    pytest.skip(f"the game service cannot be imported: {missing}", allow_module_level=True)


@pytest.fixture(scope="module")
def game_server(redis_url: str, database_url: str) -> Iterator[LiveServer]:
    with game_service(redis_url, database_url, db=10, bots=True) as server:
        yield server


def play_by_api(base: str, token: str, match_id: str, timeout_s: float = 300) -> Any:
    """Seat 0's first legal move (contract, call or card) until the match is over."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        match = call(base, "GET", f"/v1/matches/{match_id}", token)
        view = match["view"]
        if match["status"] in ("finished", "aborted") or view["phase"] == "over":
            return match
        if not match["my_turn"]:
            time.sleep(0.05)
            continue
        moves = view["legal_moves"]
        move = "keep" if "keep" in moves else "pass" if "pass" in moves else moves[0]
        try:
            call(base, "POST", f"/v1/matches/{match_id}/moves", token,
                 {"move": move, "version": match["version"]})  # fmt: skip
        except urllib.error.HTTPError as error:
            if error.code != 409:  # a stale version: read the match again
                raise
    raise AssertionError(f"match {match_id} did not end within {timeout_s} s")


def test_traditional_on_the_service(browser: Any, game_server: LiveServer, artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(30_000)
    context.add_init_script("localStorage.setItem('king.pace', 'fast')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sign_in_as_guest(page, game_server.url, "Geleneksel")
        page.select_option("#create-mode", "computer:easy")
        page.select_option("#create-ruleset", "traditional")
        page.wait_for_selector("#create-options:not([hidden])")
        page.select_option("#create-option-first_declarer_card", label="the holder of ♦7")
        page.select_option("#create-option-king_feat", label="only when announced")
        page.click("#create-button")
        page.wait_for_selector("#table[data-version]")
        match_id = str(page.evaluate("location.hash.split('/')[2]"))
        token = json.loads(page.evaluate("localStorage.getItem('king.session')"))["token"]
        match = call(game_server.url, "GET", f"/v1/matches/{match_id}", token)
        assert match["ruleset"] == "traditional"
        assert match["view"]["options"]["first_declarer_card"] == "7D"
        assert match["view"]["options"]["king_feat"] == "announced"
        page.wait_for_selector("#opener")
        assert page.get_attribute("#opener", "data-seat") == str(match["view"]["first_declarer"])
        assert "♦7" in page.inner_text("#opener")
        page.screenshot(path=str(artifacts / "traditional-live-opener-390.png"))

        for _ in range(15):
            wait_for_my_move(page)
            version = page.get_attribute("#table", "data-version")
            picker = page.locator("#contract-picker button")
            calls = page.locator("#calls button[data-move=keep], #calls button[data-move=pass]")
            if picker.count():
                picker.first.click()
            elif calls.count():
                calls.first.click()
            else:
                page.locator("#hand.active .card.legal").first.click()
            page.wait_for_function(
                "v => document.querySelector('#table')?.dataset.version !== v", arg=version
            )
        assert errors == []

        over = play_by_api(game_server.url, token, match_id)
        assert over["status"] == "finished"
        outcomes = over["seat_outcomes"]
        assert set(outcomes) <= {"cikar", "batar"}
        page.reload()
        page.wait_for_selector("#standings")
        for seat, outcome in enumerate(outcomes):
            row = page.locator(f'#standings li[data-seat="{seat}"]')
            assert row.get_attribute("data-outcome") == outcome
        assert horizontal_overflow(page) == []
        page.click("#verify-button")
        page.wait_for_selector("#verify-pass, #verify-fail")
        page.screenshot(path=str(artifacts / "traditional-live-end-390.png"), full_page=True)
        assert page.locator("#verify-pass").count() == 1, page.inner_text("#verify-result")
        assert errors == []
    finally:
        context.close()
