"""A Turkish browser sees the client in Turkish, and the shell's own behaviour: errors in the
player's language, a clean log-out, the sign-in form's field messages, the favicon, and a toast
that leaves the hand visible on a phone.

The table runs on the engine-backed stand-in (stub_game.py) at the instant pace; the boards on
the run's real rating service (``rating_server``, rating_service.py: its board players).
"""

from __future__ import annotations

import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from king_engine.errors import ILLEGAL_CARD_RULES
from king_game import errorcodes

from .pages import DESKTOP, PHONE, create_computer_table, new_page, sign_in_as_guest
from .play import click_an_illegal_card, wait_for_my_move
from .rating_service import RatingService, use_rating_service
from .servers import LiveServer, load_web_blueprint
from .stub_game import StubGame, stub_app
from .test_verify import VERIFY_JS, play_random_match

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
I18N = REPO / "services" / "game" / "king_game" / "web" / "static" / "i18n.js"
#: The table asks for its view again this often (table.js's ``state.poll``).
TABLE_POLL_MS = 5_000

# Every English string of the client's catalogues (i18n.js's labels with the strings-*.js
# modules merged in, the error messages, the verifier's words) that differs from its Turkish
# one, and those of them the page's visible text contains as whole words.
ENGLISH_ON_PAGE_JS = r"""async () => {
  const i18n = await import('/web/i18n.js');
  const verify = await import('/web/verify.js');
  const english = new Set();
  const { en, tr } = i18n.CATALOGUE;
  for (const key of Object.keys(en)) if (en[key] !== tr[key]) english.add(en[key]);
  for (const table of Object.values(i18n.ERROR_CATALOGUE)) {
    for (const [inEnglish, inTurkish] of Object.values(table)) {
      if (inEnglish !== inTurkish) english.add(inEnglish);
    }
  }
  const words = verify.VERIFY_MESSAGES;
  for (const key of Object.keys(words.en)) {
    if (typeof words.en[key] === 'string' && words.en[key] !== words.tr[key]) {
      english.add(words.en[key].trim());
    }
  }
  const text = document.body.innerText;
  const found = [];
  for (const phrase of english) {
    if (!phrase) continue;
    const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(^|[^\\p{L}])${escaped}($|[^\\p{L}])`, 'u').test(text)) found.push(phrase);
  }
  return found;
}"""


def english_on(page: Any) -> list[str]:
    found: list[str] = page.evaluate(ENGLISH_ON_PAGE_JS)
    return found


@pytest.fixture(scope="module")
def stub() -> Iterator[tuple[LiveServer, StubGame]]:
    app, game = stub_app(load_web_blueprint(), seed=11)
    server = LiveServer(app)
    try:
        yield server, game
    finally:
        server.stop()


@pytest.fixture
def tr_phone(browser: Any) -> Iterator[Any]:
    """A Turkish browser on a phone (no language chosen in the client: it follows the locale)."""
    with new_page(browser, locale="tr-TR", size=PHONE) as page:
        yield page


def _play_until_a_refusal(page: Any) -> str:
    """Play legal moves until an illegal card is on offer, then click it: the toast's text."""
    for _ in range(80):
        wait_for_my_move(page)
        if page.locator("#hand.active .card.illegal").count():
            click_an_illegal_card(page)
            page.wait_for_selector("#toast:not([hidden])")
            return str(page.inner_text("#toast"))
        version = page.get_attribute("#table", "data-version")
        picker = page.locator("#contract-picker button")
        (picker if picker.count() else page.locator("#hand.active .card.legal")).first.click()
        page.wait_for_function(
            "v => document.querySelector('#table').dataset.version !== v", arg=version
        )
    raise AssertionError("no illegal card was offered in 80 moves")


def test_a_turkish_browser_sees_turkish_everywhere(
    tr_phone: Any,
    stub: tuple[LiveServer, StubGame],
    rating_server: RatingService,
    artifacts: Path,
    monkeypatch: Any,
) -> None:
    use_rating_service(monkeypatch, rating_server)
    server, _ = stub
    page = tr_phone
    page.goto(server.url + "/")
    page.wait_for_selector("#guest-form")
    assert page.evaluate("document.documentElement.lang") == "tr"
    assert page.inner_text("#guest-button") == "Misafir olarak oyna"
    page.screenshot(path=str(artifacts / "tr-landing-390.png"), full_page=True)
    assert english_on(page) == [], "landing page"

    sign_in_as_guest(page, server.url, "Deneme")
    page.wait_for_selector("#create-mode option", state="attached")
    page.screenshot(path=str(artifacts / "tr-lobby-390.png"), full_page=True)
    assert english_on(page) == [], "lobby"

    create_computer_table(page)
    wait_for_my_move(page)
    # (the table shows a seat's tags under its name: "Bot 1" over "kolay")
    names = page.locator(".seat-name").all_inner_texts()
    assert any(name.split("\n")[-1] == "kolay" for name in names), names
    assert not any("bot)" in name or "easy" in name for name in names), names
    toast = _play_until_a_refusal(page)
    # "Reddedildi: Kupa onlusu oynanamaz: açılan rengi izlemelisin (illegal_card)"
    assert toast.startswith("Reddedildi: ") and toast.endswith("(illegal_card)"), toast
    assert " oynanamaz: " in toast, toast
    assert re.search(r"\b(sinek|karo|kupa|maça) ", toast.lower()), toast
    page.screenshot(path=str(artifacts / "tr-table-refused-390.png"), full_page=False)
    assert english_on(page) == [], "table with a refusal"
    # The toast sits above the hand: the cards stay visible and clickable.
    toast_box = page.locator("#toast").bounding_box()
    hand_box = page.locator("#hand").bounding_box()
    assert toast_box["y"] + toast_box["height"] <= hand_box["y"], (toast_box, hand_box)

    for route, ready in (
        ("#/weekly", ".board-table tbody tr"),
        ("#/ladder", ".board-table tbody tr"),
        ("#/profile/ayse", "svg.chart, #rating"),
    ):
        page.goto(server.url + "/" + route)
        page.wait_for_selector(ready)
        name = route.strip("#/").replace("/", "-")
        page.screenshot(path=str(artifacts / f"tr-{name}-390.png"), full_page=True)
        assert english_on(page) == [], route
    assert page.js_errors == []


def test_every_error_code_of_the_service_has_both_languages() -> None:
    """errorcodes.py's table, the illegal_card rules and the contract_unavailable reasons all
    have an English and a Turkish message in i18n.js."""
    source = I18N.read_text(encoding="utf-8")

    def table(name: str) -> dict[str, tuple[str, str]]:
        start = source.index(f"const {name} = {{")
        body = source[start : source.index("\n};", start)]
        pairs = re.findall(r'^  (\w+): \["((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"\],', body, re.M)
        return {code: (en, tr) for code, en, tr in pairs}

    codes = table("ERROR_MESSAGES")
    assert set(errorcodes.ERRORS) <= set(codes), set(errorcodes.ERRORS) - set(codes)
    assert set(ILLEGAL_CARD_RULES) <= set(table("RULE_MESSAGES"))
    assert {"quota", "cap", "trump_quota"} <= set(table("REASON_MESSAGES"))
    for code, (en, tr) in codes.items():
        assert en and tr and en != tr, code


def test_errors_and_cards_are_named_in_the_players_language(
    tr_phone: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    server, _ = stub
    tr_phone.goto(server.url + "/")
    tr_phone.wait_for_selector("#guest-form")
    said = tr_phone.evaluate(
        """async () => {
          const i18n = await import('/web/i18n.js');
          return {
            cards: ['TH', '10H', 'QS', 'AC', '2D', 'JH', 37].map((c) => i18n.cardName(c)),
            english: ['TH', 'QS'].map((c) => i18n.cardName(c, 'en')),
            illegal: i18n.errorMessage({code: 'illegal_card',
                                        details: {rule: 'hearts_not_broken', card: 38}}),
            quota: i18n.errorMessage({code: 'contract_unavailable', details: {reason: 'quota'}}),
            password: i18n.errorMessage({code: 'validation_failed', details: {},
              body: {errors: {password: ['Length must be between 8 and 200.']}}}),
            outcome: ['finished', 'forfeit', 'aborted'].map(i18n.outcomeLabel),
            bot: (await import('/web/dom.js')).seatName(
              {level: 'easy', seats: [{name: 'Ayşe'}, {name: 'Bot 1 (easy)', is_bot: true}]}, 1, 0),
          };
        }"""
    )
    assert said["cards"] == [
        "kupa onlusu", "kupa onlusu", "maça kızı", "sinek ası", "karo ikilisi", "kupa valesi",
        "kupa papazı",
    ]  # fmt: skip
    assert said["english"] == ["ten of hearts", "queen of spades"]
    assert said["illegal"] == "Kupa ası oynanamaz: kupa atılmadan kupa açılamaz"
    assert said["quota"] == "Bu oyun seçilemez: bunu seçme hakkın bitti"
    assert said["password"] == "Şifre: 8–200 karakter olmalı"
    assert said["outcome"] == ["sonuna kadar oynandı", "hükmen bitti", "yarıda kaldı"]
    assert said["bot"] == "Bot 1 (kolay)"  # the service's bot name, without a second bot tag


def test_log_out_from_a_table_lands_on_the_sign_in_page(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """After the log-out no poll of the table asks again (its timers run out on Playwright's
    clock) nor answers late (every request of the API it had made has ended)."""
    server, _ = stub
    with new_page(browser) as page:
        in_flight: set[Any] = set()
        page.on("request", lambda r: in_flight.add(r) if "/v1/" in r.url else None)
        page.on("requestfinished", lambda r: in_flight.discard(r))
        page.on("requestfailed", lambda r: in_flight.discard(r))
        page.clock.install()
        sign_in_as_guest(page, server.url)
        create_computer_table(page)
        wait_for_my_move(page)
        page.click('#nav button:has-text("Log out")')
        page.wait_for_selector("#guest-form")
        assert page.evaluate("location.hash") == "#/"
        page.clock.run_for(TABLE_POLL_MS + 1_000)  # a table poll still running would ask now
        deadline = time.monotonic() + 10  # the stand-in holds a long-poll for 1 s at most
        while in_flight and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # lets Playwright deliver the requests' ends
        assert not in_flight, [r.url for r in in_flight]
        assert page.locator("#guest-form").count() == 1
        assert page.locator(".error").count() == 0
        assert page.locator("#toast").is_hidden()
        assert page.evaluate("localStorage.getItem('king.session')") in (None, "null")
        assert page.js_errors == []


def test_the_verify_check_list_speaks_turkish(
    tr_phone: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    server, _ = stub
    transcript, stored = play_random_match(12)
    plays = transcript["hands"][3]["plays"]
    first2 = next(i for i, (s, _) in enumerate(plays) if s == 2)
    first3 = next(i for i, (s, _) in enumerate(plays) if s == 3)
    plays[first2][1], plays[first3][1] = plays[first3][1], plays[first2][1]
    tr_phone.goto(server.url + "/")
    tr_phone.wait_for_selector("#guest-form")
    result = tr_phone.evaluate(VERIFY_JS, [transcript, stored])
    labels = [c["label"] for c in result["checks"]]
    assert labels == [
        "dağıtım tanımı", "taahhüt", "bu cihazın tohumu", "tohumları kim üretti",
        "bu cihazın elleri", "oynanan kartlar",
    ]  # fmt: skip
    seeds = next(c["detail"] for c in result["checks"] if c["check"] == "seeds")
    assert seeds.startswith("0. koltuk: oyuncunun cihazı üretti (bu cihaz); 1. koltuk: sunucu botu")
    assert {p["hand"] for p in result["problems"]} == {3}
    assert all(p["message"].startswith("4. el: ") for p in result["problems"])
    assert any("2. koltuk " in p["message"] for p in result["problems"]), result["problems"]


def test_the_favicon_is_served(page: Any, stub: tuple[LiveServer, StubGame]) -> None:
    server, _ = stub
    with urllib.request.urlopen(server.url + "/favicon.ico") as answer:
        assert answer.headers["Content-Type"] == "image/x-icon"
        assert answer.read(4) == b"\x00\x00\x01\x00"  # an ICO file
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(server.url + "/")
    page.wait_for_selector("#guest-form")
    icon = page.evaluate("document.querySelector('link[rel=icon]').href")
    with urllib.request.urlopen(icon) as answer:
        assert answer.headers["Content-Type"].startswith("image/svg+xml")
    assert failed == []


def test_the_sign_in_fields_line_up(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """The guest name field is as tall as the log-in fields, on a desktop and on a phone."""
    server, _ = stub
    with new_page(browser, locale="tr-TR", size=DESKTOP) as page:
        page.goto(server.url + "/")
        for size in (DESKTOP, PHONE):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_selector("#guest-form")
            guest = page.locator("#guest-name").bounding_box()
            login = page.locator("#login-name").bounding_box()
            assert abs(guest["height"] - login["height"]) <= 1, (guest, login)
            label = page.locator("label[for=guest-name]").bounding_box()
            assert abs(guest["x"] - label["x"]) <= 1, (guest, label)
            page.screenshot(path=str(artifacts / f"tr-signin-{size[0]}.png"))
