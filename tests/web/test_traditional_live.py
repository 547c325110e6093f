"""The one whole `traditional` match played in a browser, on the real game service (the session
``game_server``: its app factory on this run's Redis and Postgres, a real bot worker), at the
instant pace, on a phone.

The create form's options reach the match; the table names the first declarer and why; every
move of seat 0 is made through the page (the first contract the picker offers, Keep or Pass when
the table asks, the first legal card), and at each turn of seat 0's to declare the picker offers
exactly the view's contracts and says why the others are not. The first screen of each phase
(the picker, play, the hand's summary, the standings, and a redeal round or an announcement
when one comes) has nothing wider than the phone. At the end the page shows çıkar / batar per
seat as the service does, and Verify deck passes on the service's transcript (every deal, thrown
ones included, with the calls), on the table and on the history page.

The stand-in's positions (a redeal round asked for, the announced King, çıkar / batar in both
languages) are test_traditional.py's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .live_game import call
from .pages import PHONE, signed_in_page
from .play import OVERFLOW_JS, horizontal_overflow
from .servers import LiveServer

pytestmark = [pytest.mark.integration, pytest.mark.slow]

# Seat 0's turn, a hand's summary or the end, once the table is drawn at another version than
# ``v`` (any, if None; with ``quiet``, once no summary is up): the phase ("summary" while a
# hand's summary is up) and, the first time a phase comes (not in ``seen``), what sticks out of
# the screen then, read in the same step. False until then.
NEXT_JS = f"""([v, seen, quiet]) => {{
  const table = document.querySelector('#table');
  if (!table || !table.dataset.version || table.dataset.version === v) return false;
  const summary = document.querySelector('#summary-continue') !== null;
  if (quiet && summary) return false;
  const over = table.dataset.phase === 'over' && document.querySelector('#standings') !== null;
  const move = document.querySelector(
    '#contract-picker button, #calls button, #hand.active .card.legal') !== null;
  if (!summary && !over && !move) return false;
  const phase = summary ? 'summary' : table.dataset.phase;
  return [phase, seen.includes(phase) ? [] : ({OVERFLOW_JS})()];
}}"""
# Seat 0's move in one step, as a player in a hurry makes it: the first contract the picker
# offers, Keep or Pass when the table asks, else the first legal card. The version it was
# made at.
MOVE_JS = """() => {
  const version = document.querySelector('#table').dataset.version;
  const button = document.querySelector('#contract-picker button')
    || document.querySelector('#calls button[data-move=keep], #calls button[data-move=pass]')
    || document.querySelector('#hand.active .card.legal');
  button.click();
  return version;
}"""
PICKER_JS = """() => ({
  version: document.querySelector('#table').dataset.version,
  moves: [...document.querySelectorAll('#contract-picker button')].map(b => b.dataset.move),
  unavailable: Object.fromEntries([...document.querySelectorAll(
    '#contract-picker .unavailable li')].map(li => [li.dataset.contract, li.innerText])) })"""


def check_picker(page: Any, base: str, token: str, match_id: str) -> None:
    """Seat 0 declares: the picker offers the view's contracts and says why the others are not
    (each penalty at most twice, the picks used)."""
    picker = page.evaluate(PICKER_JS)
    match = call(base, "GET", f"/v1/matches/{match_id}", token)
    assert str(match["version"]) == picker["version"]
    view = match["view"]
    assert set(picker["moves"]) == {c["move"] for c in view["allowed_contracts"]}
    for contract, count in view["contract_counts"].items():
        if contract != "trump" and count >= 2:
            # the reason: the cap, or (first) this seat's penalty picks used up
            used_up = view["picks_left"][0]["penalty"] == 0
            assert ("penalty pick" if used_up else "2×") in picker["unavailable"][contract]


def test_whole_traditional_match_on_the_service(
    browser: Any, game_server: LiveServer, artifacts: Path
) -> None:
    with signed_in_page(
        browser, game_server.url, name="Geleneksel", lang="en", size=PHONE, timeout_ms=30_000
    ) as page:
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

        seen: set[str] = set()
        declared = 0
        version, quiet = None, False
        for _ in range(1_000):
            phase, overflow = page.wait_for_function(
                NEXT_JS, arg=[version, sorted(seen), quiet], timeout=60_000
            ).json_value()
            if phase not in seen:
                assert overflow == [], (phase, overflow)
                seen.add(phase)
                page.screenshot(path=str(artifacts / f"traditional-live-{phase}-390.png"))
            if phase == "over":
                break
            if phase == "summary":  # pressed on at once
                page.evaluate("document.querySelector('#summary-continue')?.click()")
                version, quiet = None, True
                continue
            if phase == "contract":
                check_picker(page, game_server.url, token, match_id)
                declared += 1
            version, quiet = page.evaluate(MOVE_JS), False
        assert page.js_errors == []
        assert {"contract", "play", "summary", "over"} <= seen, seen
        assert declared >= 1

        over = call(game_server.url, "GET", f"/v1/matches/{match_id}", token)
        assert over["status"] == "finished"
        outcomes = over["seat_outcomes"]
        assert set(outcomes) <= {"cikar", "batar"}
        for seat, outcome in enumerate(outcomes):
            row = page.locator(f'#standings li[data-seat="{seat}"]')
            assert row.get_attribute("data-outcome") == outcome
        page.click("#verify-button")
        page.wait_for_selector("#verify-pass, #verify-fail")
        page.screenshot(path=str(artifacts / "traditional-live-end-390.png"), full_page=True)
        assert page.locator("#verify-pass").count() == 1, page.inner_text("#verify-result")
        assert horizontal_overflow(page) == []
        page.goto(f"{game_server.url}/#/history/{match_id}")
        page.wait_for_selector("#replay-verify-pass, #replay-verify-fail")
        assert page.locator("#replay-verify-pass").count() == 1, page.inner_text("#replay-verify")
        transcript = call(game_server.url, "GET", f"/v1/matches/{match_id}/fairness", token)
        assert page.locator(".hand-tabs button").count() == len(transcript["hands"])
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / "traditional-live-history-390.png"))
        assert page.js_errors == []
