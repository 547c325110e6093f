"""End to end at the default pace: a guest plays an 8-hand match against three easy bots on the
real game service (the fixtures of test_full_match.py: app factory, bot worker, sweeper), never
pressing Continue. Every hand ends on its summary, which closes itself; each summary's points
and totals are the score sheet's.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .play import create_computer_table, play_to_the_end, sign_in_as_guest
from .servers import LiveServer
from .test_full_match import game_env, game_server  # noqa: F401  (module fixtures)

# A match at the default pace lasts several minutes: past the suite's 300 s limit per test.
pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.timeout(1200)]

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


def added(a: list[int], b: list[int]) -> list[int]:
    return [x + y for x, y in zip(a, b, strict=True)]


@pytest.fixture(scope="module")
def paced(browser: Any, game_server: LiveServer, artifacts: Path) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(30_000)
    context.add_init_script(SUMMARIES_JS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in_as_guest(page, game_server.url, "Sabırlı")
    create_computer_table(page, level="easy", hands=8)
    assert page.evaluate("localStorage.getItem('king.pace')") is None, "the default pace"
    page.moves = play_to_the_end(page, press_on=False)
    page.screenshot(path=str(artifacts / "table-paced-standings-1280.png"), full_page=True)
    page.js_errors = errors
    try:
        yield page
    finally:
        context.close()


def test_a_match_at_the_default_pace_ends_every_hand_on_its_summary(paced: Any) -> None:
    assert paced.js_errors == []
    assert paced.locator("#standings li").count() == 4
    rows = paced.locator("#score-sheet tbody tr").evaluate_all(
        "els => els.map((r) => [...r.querySelectorAll('td')].slice(2)"
        ".map((td) => Number(td.textContent)))"
    )
    assert len(rows) == 8
    summaries = paced.evaluate("window.__summaries")
    assert sorted(summaries, key=int) == [str(h) for h in range(8)], "a summary for every hand"
    totals = list(
        itertools.accumulate(rows, lambda a, b: [x + y for x, y in zip(a, b, strict=True)])
    )
    for hand in range(8):
        shown = sorted(summaries[str(hand)], key=lambda r: r["seat"])
        assert [r["points"] for r in shown] == rows[hand], hand
        assert [r["total"] for r in shown] == totals[hand], hand
