"""Driving the client like a player: waiting for my move, a card the table does not offer, and
what a page must never show (sideways overflow, duplicate ids)."""

from __future__ import annotations

import contextlib
from typing import Any

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
