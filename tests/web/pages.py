"""Opening pages the way every browser test needs them: one browser context per page, the
table's pace, the page's language and the viewport set before the first load, and the page's
JavaScript errors kept on ``page.js_errors``.

``new_page`` is the plain page; ``signed_in_page`` adds a guest signed in on the lobby;
``table_page`` adds a new computer table of any ruleset and yields the page with its match id.
Tests play at the ``instant`` pace unless they are about pacing (then they use Playwright's
clock, ``page.clock``, rather than waiting in real time).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: Viewports the client is checked at (width, height).
PHONE_SMALL = (360, 640)
PHONE = (390, 844)
DESKTOP = (1280, 800)


@contextmanager
def new_page(
    browser: Any,
    *,
    pace: str | None = "instant",
    lang: str | None = None,
    size: tuple[int, int] = DESKTOP,
    locale: str | None = None,
    timeout_ms: int = 20_000,
    init_script: str | None = None,
) -> Iterator[Any]:
    """A page in a context of its own; ``pace`` and ``lang`` go to localStorage before any
    script of the client runs (``None`` leaves the client's own default)."""
    options: dict[str, Any] = {"viewport": {"width": size[0], "height": size[1]}}
    if locale is not None:
        options["locale"] = locale
    context = browser.new_context(**options)
    context.set_default_timeout(timeout_ms)
    stored = {"king.pace": pace, "king.lang": lang}
    script = "".join(
        f"localStorage.setItem('{key}', '{value}');" for key, value in stored.items() if value
    )
    if script:
        context.add_init_script(script)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    try:
        yield page
    finally:
        context.close()


def sign_in_as_guest(page: Any, base_url: str, name: str = "Deneme") -> None:
    page.goto(base_url + "/")
    page.fill("#guest-name", name)
    page.click("#guest-button")
    page.wait_for_selector("#create-form")


def create_computer_table(
    page: Any,
    level: str = "easy",
    hands: int = 8,
    ruleset: str = "standard",
    options: dict[str, str] | None = None,
) -> str:
    """Create a computer table from the lobby's form and wait for the table: its match id."""
    page.select_option("#create-mode", f"computer:{level}")
    page.select_option("#create-ruleset", ruleset)
    page.select_option("#create-hands", str(hands))
    for name, value in (options or {}).items():
        page.select_option(f"#create-option-{name}", value)
    page.click("#create-button")
    page.wait_for_selector("#table[data-version]")
    return str(page.evaluate("location.hash.split('/')[2]"))


@contextmanager
def signed_in_page(
    browser: Any, base_url: str, *, name: str = "Deneme", **page_options: Any
) -> Iterator[Any]:
    """A guest signed in on the lobby (``page_options`` as ``new_page``'s)."""
    with new_page(browser, **page_options) as page:
        sign_in_as_guest(page, base_url, name)
        yield page


@contextmanager
def table_page(
    browser: Any,
    base_url: str,
    *,
    ruleset: str = "standard",
    level: str = "easy",
    hands: int = 8,
    name: str = "Deneme",
    **page_options: Any,
) -> Iterator[tuple[Any, str]]:
    """A guest at a new computer table: the page and the match id."""
    with signed_in_page(browser, base_url, name=name, **page_options) as page:
        match_id = create_computer_table(page, level=level, hands=hands, ruleset=ruleset)
        yield page, match_id
