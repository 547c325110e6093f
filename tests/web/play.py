"""Driving the client like a player: click contracts and legal cards until the match ends."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from .pages import create_computer_table, sign_in_as_guest

__all__ = ["create_computer_table", "sign_in_as_guest"]  # for the modules that import them here

READY_JS = """() => {
  const table = document.querySelector('#table');
  if (!table || !table.dataset.version) return false;
  if (table.dataset.phase === 'over') return document.querySelector('#standings') !== null;
  const moves = '#contract-picker button, #calls button, #hand.active .card.legal';
  return document.querySelector(moves) !== null;
}"""


READY_OR_SUMMARY_JS = (
    "() => document.querySelector('#summary-continue') !== null || (" + READY_JS + ")()"
)


def click_an_illegal_card(page: Any) -> str:
    """Enable the first illegal card in hand and click it, as a client whose idea of the rules
    disagrees with the service's would (the table never offers one): the card's code.

    One script step, so a re-render of the hand between enabling and clicking cannot undo it.
    """
    return str(
        page.locator("#hand.active .card.illegal").first.evaluate(
            "el => { el.removeAttribute('aria-disabled'); el.click(); return el.dataset.card; }"
        )
    )


def wait_for_my_move(page: Any, timeout_ms: int = 60_000) -> None:
    page.wait_for_function(READY_JS, timeout=timeout_ms)


def wait_for_my_move_pressing_on(page: Any, timeout_ms: int = 60_000) -> None:
    """Wait for my move; a hand's summary on the way is closed with its Continue button."""
    while True:
        page.wait_for_function(READY_OR_SUMMARY_JS, timeout=timeout_ms)
        button = page.locator("#summary-continue")
        if not button.count():
            return
        with contextlib.suppress(Exception):  # the summary may close itself meanwhile
            button.click(timeout=2_000)


def play_to_the_end(
    page: Any,
    shots: Path | None = None,
    max_moves: int = 400,
    on_move: Any = None,
    press_on: bool = True,
) -> int:
    """Choose the first allowed contract or the first legal card until the match is over.

    With ``press_on`` each hand's summary is closed with Continue, as a player in a hurry
    does; without it the test waits for the summaries to close themselves."""
    moves = 0
    while moves < max_moves:
        (wait_for_my_move_pressing_on if press_on else wait_for_my_move)(page)
        if page.get_attribute("#table", "data-phase") == "over":
            return moves
        version = page.get_attribute("#table", "data-version")
        picker = page.locator("#contract-picker button")
        calls = page.locator("#calls button[data-move=keep], #calls button[data-move=pass]")
        if picker.count():
            picker.first.click()
        elif calls.count():  # traditional: keep the deal, announce no King
            calls.first.click()
        else:
            if shots is not None and moves in (20, 60):
                page.screenshot(path=str(shots))
            page.locator("#hand.active .card.legal").first.click()
        moves += 1
        page.wait_for_function(
            "v => document.querySelector('#table')?.dataset.version !== v", arg=version
        )
        if on_move is not None:
            on_move(moves)
    raise AssertionError(f"the match did not end within {max_moves} moves")


OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  const page = document.documentElement.scrollWidth;
  if (page > width) out.push('document ' + page);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.scroll') || el.closest('[hidden]')) continue;
    const box = el.getBoundingClientRect();
    if (box.width && (box.right > width + 1 || box.left < -1)) {
      const name = `${el.tagName.toLowerCase()}#${el.id}.${el.className}`;
      out.push(`${name} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  return out.slice(0, 10);
}"""


def horizontal_overflow(page: Any) -> list[str]:
    """Elements that stick out of the viewport sideways (tables scroll inside .scroll)."""
    found: list[str] = page.evaluate(OVERFLOW_JS)
    return found


DUPLICATE_IDS_JS = """() => {
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
  return [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
}"""


def duplicate_ids(page: Any) -> list[str]:
    """Ids that more than one element of the page carries (a selector by id then reads both)."""
    found: list[str] = page.evaluate(DUPLICATE_IDS_JS)
    return found
