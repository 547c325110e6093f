"""A `traditional` table in Chromium (against the engine-backed stand-in), at the instant pace:
the create form offers the ruleset's options from GET /v1/rules and sends them; the table names
the first declarer and why, runs a Rıfkı redeal round (the player holds a lone K♥ and asks for a
new deal; everyone sees who asked and the new deal's number), seats are drawn counter-clockwise,
the picks are the view's, the announced King is asked, marked and ends the match with its
banner, and the final standings say çıkar / batar per seat, in English and Turkish; on
KINGDEAL's own deals Verify deck and the replay pass, thrown deals included.

The deals that make these positions come from ``new_match_on_deals_for_tests`` (the stand-in's
``deals``): deal 0 is hand-made, later deals are KINGDEAL's of a fixed key. The rest of a match
is played by the engine (``advance``); the one whole traditional match played in the page is
test_traditional_live.py's, on the real service.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from king_engine import PHASE_CONTRACT
from king_engine.deal import deal_hand

from .pages import DESKTOP, PHONE, new_page, sign_in_as_guest
from .play import horizontal_overflow, wait_for_my_move
from .servers import LiveServer, load_web_blueprint
from .stub_game import StubGame, stub_app
from .tablekit import advance, state_of, view0
from .test_turkish import english_on

pytestmark = pytest.mark.integration

SUITS = "CDHS"
RANKS = "23456789TJQKA"


def mask(codes: list[str]) -> int:
    return sum(1 << (SUITS.index(c[1]) * 13 + RANKS.index(c[0])) for c in codes)


def suit(s: str, ranks: str = RANKS) -> list[str]:
    return [r + s for r in ranks]


def dealt_by(first: list[list[str]]) -> Any:
    """Deal 0 as given (four lists of 13 codes), the later ones KINGDEAL's of the match key."""
    deck = suit("C") + suit("D") + suit("H") + suit("S")
    assert sorted(c for hand in first for c in hand) == sorted(deck)
    hands = [mask(h) for h in first]
    return lambda key, d: hands if d == 0 else deal_hand(key, d)


# Seat 0's only heart is K♥ (it may ask for a redeal in a Rıfkı hand); seat 1 holds ♦2 and ♦7.
LONE_KING = [
    [*suit("C", "23456789TJQK"), "KH"],
    ["AC", *suit("D", "23456789TJQK")],
    ["AD", *suit("H", "234567"), *suit("S", "234567")],
    suit("H", "89TJQA") + suit("S", "89TJQKA"),
]
# Seat 0 holds ♦2 (it declares hand 0) and every spade but the two: Koz spades makes King.
ALL_SPADES = [
    ["2D", *suit("S", "3456789TJQKA")],
    ["2S", *suit("C", "23456789TJQK")],
    ["AC", *suit("D", "3456789TJQK"), "AD"],
    suit("H"),
]


@pytest.fixture(scope="module")
def stub() -> Iterator[tuple[LiveServer, StubGame]]:
    app, game = stub_app(load_web_blueprint(), seed=5)
    server = LiveServer(app)
    try:
        yield server, game
    finally:
        server.stop()


@contextmanager
def open_page(browser: Any, url: str, size: tuple[int, int], lang: str) -> Iterator[Any]:
    """A guest on the lobby, at the instant pace."""
    with new_page(browser, lang=lang, size=size) as page:
        sign_in_as_guest(page, url)
        yield page


def create_traditional(page: Any, options: dict[str, str]) -> str:
    """Choose the ruleset, see its options appear, set them by their labels, create."""
    page.select_option("#create-mode", "computer:easy")
    page.select_option("#create-ruleset", "traditional")
    page.wait_for_selector("#create-options:not([hidden])")
    for name, label in options.items():
        page.select_option(f"#create-option-{name}", label=label)
    page.click("#create-button")
    page.wait_for_selector("#table[data-version]")
    return str(page.evaluate("location.hash.split('/')[2]"))


def press_the_first_offered(page: Any, calls: str) -> None:
    """On seat 0's turn press the first thing offered (a contract, a call matching ``calls``
    or a legal card) and wait for the table to move on."""
    wait_for_my_move(page)
    version = page.get_attribute("#table", "data-version")
    picker = page.locator("#contract-picker button")
    offered = page.locator(calls)
    if picker.count():
        picker.first.click()
    elif offered.count():
        offered.first.click()
    else:
        page.locator("#hand.active .card.legal").first.click()
    page.wait_for_function(
        "v => document.querySelector('#table')?.dataset.version !== v", arg=version
    )


def shot(page: Any, artifacts: Path, name: str, full: bool = False) -> None:
    page.screenshot(path=str(artifacts / name), full_page=full)
    if name.endswith("-tr.png"):  # a Turkish page has no English on it
        assert english_on(page) == [], name


@pytest.mark.parametrize(("size", "lang"), [(DESKTOP, "en"), (PHONE, "tr")])
def test_redeal_round_and_cikar_batar(
    browser: Any,
    stub: tuple[LiveServer, StubGame],
    artifacts: Path,
    size: tuple[int, int],
    lang: str,
) -> None:
    server, game = stub
    game.deals = dealt_by(LONE_KING)
    game.prefer = ["king_of_hearts", "keep", "pass"]  # the bots declare Rıfkı and keep
    with open_page(browser, server.url, size, lang) as page:
        try:
            tag = f"{size[0]}-{lang}"
            form = page.locator("#create-form")
            page.select_option("#create-ruleset", "standard")
            assert page.locator("#create-options").is_hidden()  # standard has no options
            page.select_option("#create-ruleset", "traditional")
            page.wait_for_selector("#create-options:not([hidden])")
            form.screenshot(path=str(artifacts / f"traditional-form-{tag}.png"))
            if lang == "tr":
                assert english_on(page) == []
            first_card = "the holder of ♦7" if lang == "en" else "♦7'si olan"
            cap = "2"
            match_id = create_traditional(
                page, {"first_declarer_card": first_card, "max_redeals_per_hand": cap}
            )
            match = game.matches[match_id]
            assert match.options == {
                "first_declarer_card": "7D",
                "first_four_penalties": True,
                "king_feat": "plain",
                "max_redeals_per_hand": 2,
            }
            # Seat 1 holds ♦7: it declared Rıfkı; seats 2 and 3 kept; seat 0 is asked.
            page.wait_for_selector("#calls #call-redeal")
            assert page.get_attribute("#table", "data-phase") == "redeal_offer"
            opener = page.locator("#opener")
            assert opener.get_attribute("data-seat") == "1"
            assert "♦7" in opener.inner_text()
            round_text = page.locator("#round").inner_text()
            assert ("keep" if lang == "en" else "kalsın") in round_text
            assert page.locator("#calls #call-keep").count() == 1
            # §0.2: seat 1 (the next in play order) is drawn on the right, seat 3 on the left.
            assert "right" in page.get_attribute('.spot[data-seat="1"]', "class")
            assert "left" in page.get_attribute('.spot[data-seat="3"]', "class")
            assert horizontal_overflow(page) == []
            shot(page, artifacts, f"traditional-redeal-{tag}.png")

            page.click("#call-redeal")
            page.wait_for_selector("#thrown")
            thrown = page.locator("#thrown")
            assert thrown.get_attribute("data-reason") == "rifki_single_heart"
            assert thrown.get_attribute("data-deal") == "1"
            text = thrown.inner_text()
            assert ("K♥" in text) and ("2" in text)
            state = state_of(game, match_id)
            assert [d.ended for d in state.deals] == ["redealt"]
            assert state.deals[0].asked_by == 0
            wait_for_my_move(page)
            shot(page, artifacts, f"traditional-after-redeal-{tag}.png")
            # The picks come from the view: seat 1's Rıfkı pick counts once it chose again.
            view = view0(game, match_id)
            marks = page.locator('#hand-scores .picks[data-seat="1"]')
            assert marks.get_attribute("data-penalties-left") == str(
                view["picks_left"][1]["penalty"]
            )

            # Answer what comes (keep) and play a few cards through the page.
            for _ in range(6):
                press_the_first_offered(page, "#calls button[data-move=keep]")
            assert page.js_errors == []

            # The engine plays the rest; the page shows the standings with çıkar / batar. The
            # deals after the first come from the match key (the browser's seed is random), so
            # the rest may end on the King feat (§4) instead of being played out: both show
            # çıkar / batar.
            advance(game, match_id, lambda s: s.is_over)
            page.reload()
            page.wait_for_selector("#standings")
            state = state_of(game, match_id)
            result = state.result()
            assert result["end_reason"] in ("played_out", "king")
            king = result["end_reason"] == "king"
            for seat, outcome in enumerate(result["outcome"]):
                row = page.locator(f'#standings li[data-seat="{seat}"]')
                assert row.get_attribute("data-outcome") == outcome
                word = {"cikar": "goes out (çıkar)", "batar": "sinks (batar)"}[outcome]
                if lang == "tr":
                    word = {"cikar": "çıkar", "batar": "batar"}[outcome]
                assert word in row.inner_text()
            assert page.locator("#king-banner").count() == int(king)
            assert horizontal_overflow(page) == []
            shot(page, artifacts, f"traditional-standings-{tag}.png", full=True)

            # The replay lists the thrown deal as such and counts only the scored ones.
            page.goto(f"{server.url}/#/history/{match_id}")
            page.wait_for_selector("#replay-standings")
            first = page.locator("#hand-1")
            assert first.get_attribute("data-thrown") == "redealt"
            assert first.get_attribute("data-deal") == "0"
            first.click()
            assert page.locator("#thrown").get_attribute("data-reason") == "rifki_single_heart"
            assert page.locator(".hand-tabs button").count() == len(state.deals)
            for seat, total in enumerate(state.totals):
                row = page.locator(f'#replay-standings li[data-seat="{seat}"]')
                assert f"— {total}" in row.inner_text()
                assert row.get_attribute("data-place") == str(result["places"][seat])
            # Every deal is re-dealt by its number: deal 1 on are KINGDEAL's and pass; the thrown
            # deal 0 was made by hand, and what this device was shown of it is caught.
            page.wait_for_selector("#replay-verify-fail")
            problems = page.locator("#replay-verify-fail li")
            assert problems.count() == 1, problems.all_inner_texts()
            shot(page, artifacts, f"traditional-history-{tag}.png")
            assert page.js_errors == []
        finally:
            game.deals, game.prefer = None, []


@pytest.mark.parametrize(("size", "lang"), [(PHONE, "en"), (DESKTOP, "tr")])
def test_announced_king_ends_the_match(
    browser: Any,
    stub: tuple[LiveServer, StubGame],
    artifacts: Path,
    size: tuple[int, int],
    lang: str,
) -> None:
    server, game = stub
    game.deals = dealt_by(ALL_SPADES)
    game.prefer = ["pass", "keep"]
    with open_page(browser, server.url, size, lang) as page:
        try:
            tag = f"{size[0]}-{lang}"
            labels = {
                "en": {"first_four_penalties": "no", "king_feat": "only when announced"},
                "tr": {"first_four_penalties": "hayır", "king_feat": "yalnız önceden söylenirse"},
            }[lang]
            match_id = create_traditional(page, labels)
            assert game.matches[match_id].options["king_feat"] == "announced"
            # Seat 0 holds ♦2: it declares hand 0, and Koz is offered at once (option off).
            page.wait_for_selector('#contract-picker button[data-move="trump:S"]')
            assert page.locator("#opener").get_attribute("data-seat") == "0"
            page.click('#contract-picker button[data-move="trump:S"]')
            page.wait_for_selector("#calls #call-king")
            assert page.get_attribute("#table", "data-phase") == "announce"
            assert page.locator("#calls #call-pass").count() == 1
            assert horizontal_overflow(page) == []
            shot(page, artifacts, f"traditional-announce-{tag}.png")
            page.click("#call-king")
            page.wait_for_selector("#announcer")
            assert page.locator("#announcer").get_attribute("data-seat") == "0"
            for n in range(10):
                wait_for_my_move(page)
                if page.get_attribute("#table", "data-phase") == "over":
                    break
                version = page.get_attribute("#table", "data-version")
                page.locator('#hand.active .card.legal[data-card$="S"]').last.click()
                page.wait_for_function(
                    "v => document.querySelector('#table')?.dataset.version !== v", arg=version
                )
                if n == 4:
                    badge = page.locator('.spot[data-seat="0"] .badge.king')
                    badge.wait_for()
                    shot(page, artifacts, f"traditional-announcer-{tag}.png")
            page.wait_for_selector("#standings")
            state = state_of(game, match_id)
            assert state.result()["end_reason"] == "king"
            banner = page.locator("#king-banner")
            assert banner.get_attribute("data-seat") == "0"
            assert ("made King" if lang == "en" else "King yaptı") in banner.inner_text()
            assert (
                page.locator('#standings li[data-seat="0"]').get_attribute("data-outcome")
                == "cikar"
            )
            for seat in (1, 2, 3):
                row = page.locator(f'#standings li[data-seat="{seat}"]')
                assert row.get_attribute("data-outcome") == "batar"
            assert horizontal_overflow(page) == []
            shot(page, artifacts, f"traditional-king-{tag}.png", full=True)
            assert page.js_errors == []
        finally:
            game.deals, game.prefer = None, []


def test_traditional_match_verifies(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """On KINGDEAL's own deals (the bots ask for every redeal they may): the page remembers
    each deal it was shown by its number, and Verify deck and the replay pass, thrown deals
    included."""
    server, game = stub
    game.prefer = ["king_of_hearts", "redeal", "keep", "pass"]
    with open_page(browser, server.url, DESKTOP, "en") as page:
        try:
            match_id = create_traditional(page, {})
            for _ in range(8):
                press_the_first_offered(
                    page, "#calls button[data-move=keep], #calls button[data-move=pass]"
                )
            # Later on, seat 0 declares: the picker offers the view's contracts and says why the
            # others are not (each penalty at most twice, the picks used).
            advance(
                game,
                match_id,
                lambda s: (
                    s.hand_index >= 12 and s.phase == PHASE_CONTRACT and s.current_player == 0
                ),
            )
            if not state_of(game, match_id).is_over:
                page.reload()
                page.wait_for_selector("#contract-picker")
                view = view0(game, match_id)
                offered = {c["move"] for c in view["allowed_contracts"]}
                moves = page.eval_on_selector_all(
                    "#contract-picker button", "bs => bs.map(b => b.dataset.move)"
                )
                assert set(moves) == offered
                for contract, count in view["contract_counts"].items():
                    line = page.locator(
                        f'#contract-picker .unavailable li[data-contract="{contract}"]'
                    )
                    if contract != "trump" and count >= 2:
                        assert line.count() == 1
                        # the reason: the cap, or (first) this seat's penalty picks used up
                        used_up = view["picks_left"][0]["penalty"] == 0
                        assert ("penalty pick" if used_up else "2×") in line.inner_text()
                shot(page, artifacts, "traditional-picker-1280-en.png")
            advance(game, match_id, lambda s: s.is_over)
            page.reload()
            page.wait_for_selector("#standings")
            page.click("#verify-button")
            page.wait_for_selector("#verify-pass, #verify-fail")
            assert page.locator("#verify-pass").count() == 1, page.inner_text("#verify-result")
            page.goto(f"{server.url}/#/history/{match_id}")
            page.wait_for_selector("#replay-verify-pass")
            state = state_of(game, match_id)
            assert page.locator(".hand-tabs button").count() == len(state.deals)
            shot(page, artifacts, "traditional-history-verified-1280-en.png")
            assert page.js_errors == []
        finally:
            game.prefer = []
