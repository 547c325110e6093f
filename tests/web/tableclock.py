"""The table on Playwright's clock (``page.clock``): pacing, the hand summary that closes
itself and the move clock are tested in the page's own time instead of by waiting for it.

``clocked_table`` opens a computer table on a page whose clock was installed before the first
load (it runs at real speed until a test pauses it). ``pause`` stops the page's time;
``run_until`` then moves it on a step at a time until the page shows what the test waits for:
the service's answers still come in real time, so it is bounded in real seconds. While the
clock is paused the page draws only at the paces with pauses (at the ``instant`` pace the
table draws on animation frames, which the clock also holds).

The page's time must not outrun the service's answers: a table that has read a view newer
than the events it has is, after a grace of 1.5 s of its time, set to that view without playing
them (the table's rule for events that never come). A busy machine can take that long in real
time to answer while the test moves the page's time on by seconds, so given ``served`` (the last
event the service has logged) ``run_until`` moves the clock on only once the page has read the
log that far (``EVENTS_READ_JS`` notes what it read).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .pages import DESKTOP, create_computer_table, new_page, sign_in_as_guest
from .play import READY_JS


@contextmanager
def clocked_table(
    browser: Any, url: str, *, pace: str | None, size: tuple[int, int] = DESKTOP
) -> Iterator[tuple[Any, str]]:
    """A guest at a new 8-hand computer table on Playwright's clock (``pace`` None: the
    client's default)."""
    with new_page(browser, pace=pace, size=size, init_script=EVENTS_READ_JS) as page:
        page.clock.install()
        sign_in_as_guest(page, url)
        yield page, create_computer_table(page)


def pause(page: Any) -> None:
    """Stop the page's time a second from now (more on a busy machine): the clock cannot go
    back, and it runs on while the order travels to the page. Call it while the table waits
    for me, when nothing the test looks at is due that soon."""
    started = time.monotonic()
    page_now = now(page)
    round_trip_ms = (time.monotonic() - started) * 1000
    page.clock.pause_at((page_now + 1000 + 4 * round_trip_ms) / 1000)  # Python's API: seconds


def now(page: Any) -> int:
    """The page's time (ms since the epoch)."""
    return int(page.evaluate("Date.now()"))


#: The last event of the log the page has read (``window.__eventsRead``), noted as each of
#: its reads of ``…/events`` comes in.
EVENTS_READ_JS = """(() => {
  const fetch0 = window.fetch;
  window.__eventsRead = 0;
  window.fetch = async (...args) => {
    const answer = await fetch0(...args);
    if (String(args[0]).includes('/events?')) {
      answer.clone().json().then((page) => {
        window.__eventsRead = Math.max(window.__eventsRead, page.last_seq || 0);
      }, () => {});
    }
    return answer;
  };
})()"""


def run_until(
    page: Any,
    condition_js: str,
    arg: Any = None,
    *,
    step_ms: int = 200,
    within_s: float = 30,
    served: Callable[[], int] | None = None,
) -> None:
    """Move the paused clock on ``step_ms`` at a time until ``condition_js`` (a function of
    ``arg``) holds in the page; with ``served``, each step waits for the page to have read
    the service's log that far (see the module's docstring)."""
    deadline = time.monotonic() + within_s
    while not page.evaluate(condition_js, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {within_s} s: {condition_js}")
        if served is not None:
            read_up_to(page, served(), deadline)
        page.clock.run_for(step_ms)


def read_up_to(page: Any, seq: int, deadline: float) -> None:
    """Wait, in real time, until the page has read the event log up to ``seq``."""
    while True:
        read = page.evaluate("window.__eventsRead")
        if read is None:
            raise AssertionError("the page does not note its reads (open it with clocked_table)")
        if read >= seq:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the page read the event log up to {read}, not {seq}")
        time.sleep(0.01)


def run_until_my_move(page: Any, **options: Any) -> None:
    """``run_until`` the table offers me a move (or shows the result)."""
    run_until(page, READY_JS, **options)
