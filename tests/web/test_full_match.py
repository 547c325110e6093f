"""End to end: a guest plays a whole match of each plain ruleset (an 8-hand ``standard`` match
and a 20-hand ``classic20`` one) against three easy bots in Chromium, through the real game
service (the session's ``game_server``: app factory on this run's Redis and Postgres, a real
RQ bot worker process, the clock sweeper), then verifies the deck in the browser — and sees a
transcript altered on its way fail, naming the hand.

These are the whole standard and classic20 matches played in the page (at the ``instant``
pace, pressing Continue on each summary). Besides the standings they prove that every hand
ends on its summary and that each summary's points and running totals are the score sheet's.
The standard match is played with Playwright's pointer clicks; the classic20 one, 260 tricks
long, with the elements' own ``click()`` (no wait for a card to stop moving). That a summary
closes itself, at each pace, is proven with Playwright's clock on the stand-in
(test_table_play.py). Live tables, refusals and resigning are checked here on the real service
too, with tables of their own.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from .pages import (
    DESKTOP,
    PHONE,
    create_computer_table,
    new_page,
    sign_in_as_guest,
    signed_in_page,
    table_page,
)
from .play import (
    click_an_illegal_card,
    horizontal_overflow,
    wait_for_my_move,
    wait_for_my_move_pressing_on,
)
from .servers import LiveServer

pytestmark = [pytest.mark.integration, pytest.mark.slow]

# Keeps what every hand's summary said, once per hand, for as long as the page lives.
SUMMARIES_JS = """
window.__summaries = {};
new MutationObserver(() => {
  const box = document.querySelector('#hand-summary');
  if (!box || window.__summaries[box.dataset.hand]) return;
  window.__summaries[box.dataset.hand] = [...box.querySelectorAll('tbody tr')].map((r) => ({
    seat: Number(r.dataset.seat),
    points: Number(r.querySelector('.hp').textContent),
    total: Number(r.querySelector('.tot').textContent),
  }));
}).observe(document, { childList: true, subtree: true });
"""


# What the table offers next, once it has caught up with a version other than ``prev``: a
# summary to close, my move (the first contract or legal card), or the result.
NEXT_JS = """prev => {
  const table = document.querySelector('#table');
  if (!table || !table.dataset.version) return false;
  if (document.querySelector('#summary-continue')) return { kind: 'summary' };
  if (table.dataset.version === prev) return false;
  if (table.dataset.phase === 'over') {
    return document.querySelector('#standings') ? { kind: 'over' } : false;
  }
  const version = table.dataset.version;
  if (document.querySelector('#contract-picker button')) return { kind: 'contract', version };
  if (document.querySelector('#hand.active .card.legal')) return { kind: 'card', version };
  return false;
}"""
MOVES = {
    "contract": "#contract-picker button >> nth=0",
    "card": "#hand.active .card.legal >> nth=0",
}
FIRST = {"contract": "#contract-picker button", "card": "#hand.active .card.legal"}


def play_by_clicks(page: Any, shots: Path, max_steps: int = 400, pointer: bool = True) -> int:
    """Click the first allowed contract or legal card until the match is over, closing each
    hand's summary with Continue, in as few round trips to the browser as it can: the match is
    long. With ``pointer`` each click is Playwright's (the mouse, once the card has stopped
    moving); without, the element's own ``click()``. The number of moves made."""
    moves, version = 0, None
    for _step in range(max_steps):  # a move made or a summary closed
        found = page.wait_for_function(NEXT_JS, arg=version, timeout=60_000).json_value()
        if found["kind"] == "over":
            return moves
        if found["kind"] == "summary":
            with contextlib.suppress(PlaywrightError):  # it may close itself meanwhile
                page.click("#summary-continue", timeout=2_000)
            continue
        if moves in (20, 60):
            page.screenshot(path=str(shots))
        version = found["version"]
        if pointer:
            page.click(MOVES[found["kind"]])
        else:
            page.evaluate("sel => document.querySelector(sel).click()", FIRST[found["kind"]])
        moves += 1
    raise AssertionError(f"the match did not end within {max_steps} steps ({moves} moves)")


@pytest.fixture(
    scope="module",
    params=[("standard", 8, True), ("classic20", 20, False)],
    ids=["standard", "classic20"],
)
def played(
    request: pytest.FixtureRequest, browser: Any, game_server: LiveServer, artifacts: Path
) -> Iterator[Any]:
    """The whole match of each plain ruleset, played by clicks; the page stays open on the
    result."""
    ruleset, hands, pointer = request.param
    with table_page(
        browser, game_server.url, level="easy", ruleset=ruleset, hands=hands, timeout_ms=30_000,
        init_script=SUMMARIES_JS,
    ) as (page, match_id):  # fmt: skip
        page.match_id, page.hands = match_id, hands
        shots = artifacts / f"table-{ruleset}-1280.png"
        page.moves = play_by_clicks(page, shots, 800, pointer)
        page.screenshot(path=str(artifacts / f"standings-{ruleset}-1280.png"), full_page=True)
        yield page


def fairness(server: LiveServer, match_id: str) -> Any:
    with urllib.request.urlopen(f"{server.url}/v1/matches/{match_id}/fairness", timeout=10) as r:
        return json.load(r)


def test_a_guest_plays_a_whole_match_against_easy_bots(
    played: Any, game_server: LiveServer
) -> None:
    """Every move of seat 0 in the transcript (its contracts, one hand in four, and its
    cards) was a click; the standings list the four seats and every hand shown was stored
    for Verify deck."""
    assert played.js_errors == []
    hands = fairness(game_server, played.match_id)["hands"]
    declared = [h["declarer"] for h in hands].count(0)
    assert declared == played.hands // 4
    mine = sum(1 for h in hands for seat, _ in h["plays"] if seat == 0)
    assert played.moves == declared + mine
    assert played.locator("#score-sheet tbody tr").count() == played.hands
    assert played.locator("#standings li").count() == 4
    record = played.evaluate(
        "key => JSON.parse(localStorage.getItem(key))", f"king.match.{played.match_id}"
    )
    assert record["seat"] == 0
    assert sorted(record["hands"], key=int) == [str(h) for h in range(played.hands)]


def test_every_hand_ends_on_a_summary_with_the_score_sheets_numbers(played: Any) -> None:
    """Each hand showed its summary; its points per seat are the score sheet's row for the
    hand and its totals the sheet's running sums."""
    rows = played.locator("#score-sheet tbody tr").evaluate_all(
        "els => els.map((r) => [...r.querySelectorAll('td')].slice(2)"
        ".map((td) => Number(td.textContent)))"
    )
    assert len(rows) == played.hands
    summaries = played.evaluate("window.__summaries")
    expected = [str(h) for h in range(played.hands)]
    assert sorted(summaries, key=int) == expected, "a summary for every hand"
    totals = list(
        itertools.accumulate(rows, lambda a, b: [x + y for x, y in zip(a, b, strict=True)])
    )
    for hand in range(played.hands):
        shown = sorted(summaries[str(hand)], key=lambda r: r["seat"])
        assert [r["points"] for r in shown] == rows[hand], hand
        assert [r["total"] for r in shown] == totals[hand], hand


def test_verify_deck_passes(played: Any, artifacts: Path) -> None:
    played.click("#verify-button")
    played.wait_for_selector("#verify-pass, #verify-fail")
    played.locator("#verify-result").scroll_into_view_if_needed()
    played.screenshot(path=str(artifacts / "verify-pass.png"), full_page=True)
    assert played.locator("#verify-fail").count() == 0, played.inner_text("#verify-result")
    assert played.locator("#verify-pass").count() == 1


def test_an_altered_transcript_fails_naming_the_hand(
    played: Any, game_server: LiveServer, artifacts: Path
) -> None:
    altered = fairness(game_server, played.match_id)
    plays = altered["hands"][4]["plays"]  # hand 5
    a = next(i for i, (seat, _) in enumerate(plays) if seat == 1)
    b = next(i for i, (seat, _) in enumerate(plays) if seat == 3)
    plays[a][1], plays[b][1] = plays[b][1], plays[a][1]

    def serve_altered(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(altered))

    pattern = f"**/v1/matches/{played.match_id}/fairness"
    played.route(pattern, serve_altered)
    try:
        played.click("#verify-button")
        played.wait_for_selector("#verify-fail")
        played.locator("#verify-result").scroll_into_view_if_needed()
        played.screenshot(path=str(artifacts / "verify-fail.png"), full_page=True)
        problems = played.locator("#verify-fail li").all_inner_texts()
        assert problems and all(text.startswith("hand 5:") for text in problems), problems
    finally:
        played.unroute(pattern)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
def test_the_real_table_has_no_horizontal_overflow(
    browser: Any, game_server: LiveServer, artifacts: Path, size: tuple[int, int]
) -> None:
    with signed_in_page(browser, game_server.url, name="Telefon", size=size) as page:
        assert horizontal_overflow(page) == []
        create_computer_table(page, level="easy", hands=8)
        page.wait_for_selector("#contract-picker button, #hand .card")
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / f"table-{size[0]}.png"), full_page=True)


def test_a_live_table_fills_from_the_lobby(browser: Any, game_server: LiveServer) -> None:
    """Ayşe opens a live table; Burak sees it in the lobby and sits; Ayşe's page follows the
    match's events and shows him without a reload."""
    with (
        signed_in_page(browser, game_server.url, name="Ayşe", timeout_ms=30_000) as ayse,
        new_page(browser, timeout_ms=30_000) as burak,
    ):
        ayse.select_option("#create-mode", "live")
        ayse.click("#create-button")
        ayse.wait_for_selector("#table .seats")
        match_id = ayse.evaluate("location.hash.split('/')[2]")
        sign_in_as_guest(burak, game_server.url, "Burak")
        burak.click(f'#tables li[data-match="{match_id}"] button')
        burak.wait_for_selector("#table .seats")
        assert burak.evaluate("location.hash") == f"#/match/{match_id}"
        ayse.wait_for_function(
            "() => document.querySelector('#table .seats').textContent.includes('Burak')"
        )
        record = burak.evaluate(
            "key => JSON.parse(localStorage.getItem(key))", f"king.match.{match_id}"
        )
        assert record["seat"] == 1 and len(record["commitment"]) == 64
        burak.click("#leave")  # before the start a player may leave; the seat frees up
        burak.wait_for_selector("#create-form")
        ayse.wait_for_function(
            "() => !document.querySelector('#table .seats').textContent.includes('Burak')"
        )


def test_an_illegal_card_is_refused_with_the_services_reason(
    browser: Any, game_server: LiveServer
) -> None:
    with table_page(browser, game_server.url, name="Kural", timeout_ms=30_000) as (page, _):
        for _ in range(60):  # play until a turn offers an illegal card (a suit to follow)
            wait_for_my_move_pressing_on(page)
            if page.locator("#hand.active .card.illegal").count():
                break
            version = page.get_attribute("#table", "data-version")
            picker = page.locator("#contract-picker button")
            (picker if picker.count() else page.locator("#hand.active .card.legal")).first.click()
            page.wait_for_function(
                "v => document.querySelector('#table').dataset.version !== v", arg=version
            )
        version = page.get_attribute("#table", "data-version")
        click_an_illegal_card(page)  # the table never offers one
        page.wait_for_selector("#toast:not([hidden])")
        text = page.inner_text("#toast")
        assert text.startswith("Refused:") and "(illegal_card)" in text, text
        assert page.get_attribute("#table", "data-version") == version


def test_resigning_ends_a_computer_match_and_its_deck_still_verifies(
    browser: Any, game_server: LiveServer, artifacts: Path
) -> None:
    """Against the computer a resignation aborts the match; the seeds are revealed all the
    same, and the hand that was under way re-deals as shown."""
    with table_page(browser, game_server.url, name="Çekilen", timeout_ms=30_000) as (page, _):
        wait_for_my_move(page)
        page.click("#resign")
        page.click("#resign")  # the second click confirms
        page.wait_for_selector("#verify-button")
        page.click("#verify-button")
        page.wait_for_selector("#verify-pass, #verify-fail, #verify-result .fail")
        page.screenshot(path=str(artifacts / "resign.png"), full_page=True)
        assert page.locator("#verify-pass").count() == 1, page.inner_text("#verify-result")
