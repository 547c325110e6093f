"""The lobby's quick match in Chromium, through the run's real game service (``game_server``):
"play now" shows the waiting time and the rating window, cancel leaves the pool; with three
more guests a table is found, Accept stores the commitment before the seed and confirms, and
the page opens the match once all four have confirmed. (No other browser test uses the quick
match, so the pool holds only this test's guests.) The panel asks again every ``POLL_MS``
(quickmatch.js): Playwright's clock runs that time out instead of the test waiting for it."""

from __future__ import annotations

import secrets
import uuid
from typing import Any

import pytest

from .live_game import call
from .pages import sign_in_as_guest
from .servers import LiveServer

POLL_MS = 2_000  # quickmatch.js

pytestmark = [pytest.mark.integration]


def test_play_now_waits_cancels_then_finds_a_table_and_opens_the_match(
    page: Any, game_server: LiveServer
) -> None:
    base = game_server.url
    page.clock.install()
    sign_in_as_guest(page, base, "Hızlı")
    page.click("#qm-play-standard")
    page.wait_for_selector("#qm-waiting")
    assert page.inner_text("#qm-window") == "±100"
    assert ":" in page.inner_text("#qm-time")
    page.click("#qm-cancel")
    page.wait_for_selector("#qm-play-standard")
    page.click("#qm-play-standard")
    page.wait_for_selector("#qm-waiting")
    others = [
        call(base, "POST", "/v1/accounts", None, {"name": f"g{i}{uuid.uuid4().hex[:6]}"})["token"]
        for i in range(3)
    ]
    for token in others:
        call(base, "POST", "/v1/quickmatch", token, {"ruleset": "standard", "hands": 8})
    page.clock.run_for(POLL_MS)  # the panel's next question finds the table
    page.wait_for_selector("#qm-accept")
    found = call(base, "GET", "/v1/quickmatch", others[0])
    commit = found["server_commit"]
    assert page.inner_text("#qm-commit") == commit[:16] + "…"
    page.click("#qm-accept")
    page.wait_for_selector("#qm-others")
    for token in others:
        call(base, "POST", "/v1/quickmatch/confirm", token, {"client_seed": secrets.token_hex(32)})
    page.clock.run_for(POLL_MS)
    match_id = found["table_id"]
    page.wait_for_function(f"location.hash === '#/match/{match_id}'")
    record = page.evaluate("key => JSON.parse(localStorage.getItem(key))", f"king.match.{match_id}")
    assert record["commitment"] == commit and len(record["seed"]) == 64
    assert page.js_errors == []
    # All four leave: the live match is abandoned at once instead of being timed out seat by
    # seat (and played on by the run's bot worker) while the other tests run.
    mine = page.evaluate("JSON.parse(localStorage.getItem('king.session')).token")
    for token in [mine, *others]:
        call(base, "POST", f"/v1/matches/{match_id}/resign", token, {})
    assert call(base, "GET", f"/v1/matches/{match_id}", others[0])["status"] == "aborted"
