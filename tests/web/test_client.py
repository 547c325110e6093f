"""The client in Chromium against the engine-backed stand-in of the game API (stub_game.py).

These pin the client's own behaviour — refusals with the server's reason, reload recovery, a
forfeited seat, the contract picker, keyboard play, the language switch, the move clock, a
dropped connection, "Verify deck" passing and failing, the layouts — without the game service.
The match Verify deck checks is played to the end by the engine (the one whole match clicked
through in the page is test_full_match.py's, on the real service).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from king_engine import MatchState, move_of_action, view_for

from .pages import DESKTOP, PHONE, create_computer_table, new_page, sign_in_as_guest, table_page
from .play import click_an_illegal_card, horizontal_overflow, wait_for_my_move
from .servers import LiveServer, load_web_blueprint
from .stub_game import StubGame, stub_app
from .tableclock import clocked_table
from .tablekit import advance, reload_table, state_of

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def stub() -> Iterator[tuple[LiveServer, StubGame]]:
    app, game = stub_app(load_web_blueprint(), seed=5)
    server = LiveServer(app)
    try:
        yield server, game
    finally:
        server.stop()


def must_follow(state: MatchState) -> bool:
    """Seat 0 to play with a suit to follow: some of its cards may not be played."""
    view = view_for(state, 0).to_dict()
    return view["phase"] == "play" and 0 < len(view["legal_cards"]) < len(view["my_cards"])


@pytest.fixture(scope="module")
def finished(browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path) -> Iterator[Any]:
    """An 8-hand match the engine plays to the end (first legal moves) while the page follows
    it: the client sees and stores each hand's cards as a player's would. The page stays open
    on the result."""
    server, game = stub
    with table_page(browser, server.url) as (page, match_id):
        key = f"king.match.{match_id}"
        for hand in range(8):
            advance(game, match_id, lambda s, h=hand: s.hand_index == h and s.current_player == 0)
            page.wait_for_function(
                "([key, h]) => JSON.parse(localStorage.getItem(key)).hands[h] !== undefined",
                arg=[key, hand],
            )
        advance(game, match_id, lambda s: False)
        assert state_of(game, match_id).is_over
        page.reload()
        page.wait_for_selector("#standings")
        page.screenshot(path=str(artifacts / "stub-standings-1280.png"), full_page=True)
        page.match_id = match_id
        yield page


def test_verify_deck_passes_after_the_match(finished: Any, artifacts: Path) -> None:
    """The result shows the 8 hands' score sheet and the four places; every hand shown was
    stored, and the deck verifies, the seeds named by their source."""
    assert finished.locator("#score-sheet tbody tr").count() == 8
    assert finished.locator("#standings li").count() == 4
    record = finished.evaluate(
        f"JSON.parse(localStorage.getItem('king.match.{finished.match_id}'))"
    )
    assert record["seat"] == 0 and len(record["seed"]) == 64
    assert sorted(record["hands"]) == [str(h) for h in range(8)], "every hand shown is stored"
    finished.click("#verify-button")
    finished.wait_for_selector("#verify-pass, #verify-fail")
    finished.locator("#verify-result").scroll_into_view_if_needed()
    finished.screenshot(path=str(artifacts / "stub-verify-pass.png"), full_page=True)
    assert finished.locator("#verify-fail").count() == 0, finished.inner_text("#verify-result")
    assert finished.locator("#verify-pass").count() == 1
    seeds = finished.locator("#verify-seeds li")
    assert [seeds.nth(i).get_attribute("data-source") for i in range(4)] == [
        "client", "bot", "bot", "bot",
    ]  # fmt: skip


def test_an_altered_transcript_fails_naming_the_hand(
    finished: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """The transcript is changed on its way to the page: seat 1's first card in hand 3 is
    swapped with seat 2's; the browser's check names hand 3."""
    _, game = stub
    real = game.transcript(game.matches[finished.match_id])
    altered = json.loads(json.dumps(real))
    plays = altered["hands"][2]["plays"]
    a = next(i for i, (s, _) in enumerate(plays) if s == 1)
    b = next(i for i, (s, _) in enumerate(plays) if s == 2)
    plays[a][1], plays[b][1] = plays[b][1], plays[a][1]

    def serve_altered(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(altered))

    pattern = f"**/v1/matches/{finished.match_id}/fairness"
    finished.route(pattern, serve_altered)
    try:
        finished.click("#verify-button")
        finished.wait_for_selector("#verify-fail")
        finished.locator("#verify-result").scroll_into_view_if_needed()
        finished.screenshot(path=str(artifacts / "stub-verify-fail.png"), full_page=True)
        problems = finished.locator("#verify-fail li").all_inner_texts()
        assert problems, "the failure lists what failed"
        assert all(text.startswith("hand 3:") for text in problems), problems
        assert any("seat 1 played" in text for text in problems), problems
        assert finished.locator("#verify-pass").count() == 0
    finally:
        finished.unroute(pattern)


def test_an_illegal_card_is_refused_with_the_servers_reason(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    server, game = stub
    with table_page(browser, server.url) as (page, match_id):
        wait_for_my_move(page)
        advance(game, match_id, must_follow, contract="tricks")
        reload_table(page)
        version = page.get_attribute("#table", "data-version")
        card = click_an_illegal_card(page)  # the table never offers one (test_table_play.py)
        page.wait_for_selector("#toast:not([hidden])")
        text = page.inner_text("#toast")
        assert "illegal_card" in text and "Refused" in text, text
        assert page.get_attribute("#table", "data-version") == version
        assert page.locator(f'#hand [data-card="{card}"]').count() == 1, "the card stays in hand"
        assert page.js_errors == []


def test_the_table_comes_back_after_a_reload(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    server, _ = stub
    with table_page(browser, server.url) as (page, match_id):
        wait_for_my_move(page)
        cards = "els => els.map(e => e.dataset.card)"
        before = sorted(page.locator("#hand .card").evaluate_all(cards))
        page.reload()
        wait_for_my_move(page)
        assert page.evaluate("location.hash") == f"#/match/{match_id}"
        after = sorted(page.locator("#hand .card").evaluate_all(cards))
        assert after == before and len(after) == 13


def test_a_forfeited_seat_is_the_computers_not_the_players_turn(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """The service says the computer plays my seat (my_turn false) while the engine's mover is
    still my seat: the table offers no move and says so; at the end a bot is the winner."""
    server, game = stub
    with table_page(browser, server.url) as (page, match_id):
        wait_for_my_move(page)
        with game.lock:
            match = game.matches[match_id]
            match.forfeited = True
            assert match.state is not None and match.state.current_player == 0
        page.reload()
        page.wait_for_selector("#table[data-version]")
        assert (
            page.locator("#status").inner_text()
            == "You forfeited: the computer plays your seat to the end"
        )
        shown = page.locator("#hand.active, #hand .card.legal, #contract-picker, #resign")
        assert shown.count() == 0
        with game.lock:  # the computer plays the seat to the end
            state = match.state
            while not state.is_over:
                game._apply(match, state.current_player, move_of_action(state.legal_actions()[0]))
        page.reload()
        page.wait_for_selector("#standings")
        rows = page.locator("#standings li").all_inner_texts()
        mine = [row for row in rows if "Misafir" in row or "you" in row]
        assert len(mine) == 1 and mine[0].startswith("4.") and "forfeited" in mine[0]
        assert "winner" not in mine[0] and any("winner" in row for row in rows)


def test_contract_picker_offers_only_allowed_contracts(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """Seat 0 declares hand 1: every penalty contract plus Koz in each of the four suits."""
    server, game = stub
    with table_page(browser, server.url) as (page, match_id):
        wait_for_my_move(page)
        offered = page.locator("#contract-picker button").evaluate_all(
            "els => els.map(e => e.dataset.move)"
        )
        state = state_of(game, match_id)
        allowed = [c["move"] for c in view_for(state, 0).to_dict()["allowed_contracts"]]
        assert offered == allowed
        labels = page.locator("#contract-picker button .name").all_inner_texts()
        assert "Rıfkı" in labels and "Kız Almaz" in labels


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
def test_no_horizontal_overflow(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path, size: tuple[int, int]
) -> None:
    server, _ = stub
    width = size[0]
    with new_page(browser, size=size) as page:
        page.goto(server.url + "/")
        page.wait_for_selector("#guest-form")
        assert horizontal_overflow(page) == [], "sign-in page"
        sign_in_as_guest(page, server.url)
        assert horizontal_overflow(page) == [], "lobby"
        page.screenshot(path=str(artifacts / f"stub-lobby-{width}.png"), full_page=True)
        create_computer_table(page)
        wait_for_my_move(page)
        picker = page.locator("#contract-picker button")
        assert picker.count(), "seat 0 declares hand 1"
        assert horizontal_overflow(page) == [], "contract picker"
        page.screenshot(path=str(artifacts / f"stub-picker-{width}.png"), full_page=True)
        version = page.get_attribute("#table", "data-version")
        picker.first.click()
        page.wait_for_function(
            "v => document.querySelector('#table').dataset.version !== v", arg=version
        )
        wait_for_my_move(page)
        assert horizontal_overflow(page) == [], "table"
        page.screenshot(path=str(artifacts / f"stub-table-{width}.png"), full_page=True)
        page.click("#lang")
        wait_for_my_move(page)
        assert horizontal_overflow(page) == [], "table in Turkish"


def test_keyboard_only_play(browser: Any, stub: tuple[LiveServer, StubGame]) -> None:
    """A contract and a card chosen with the keyboard: focus, arrow keys and Enter."""
    server, _ = stub
    with table_page(browser, server.url) as (page, _match_id):
        wait_for_my_move(page)
        version = page.get_attribute("#table", "data-version")
        page.focus("#contract-picker button")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "v => document.querySelector('#table').dataset.version !== v", arg=version
        )
        wait_for_my_move(page)
        version = page.get_attribute("#table", "data-version")
        page.focus("#hand .card")
        for _ in range(13):  # walk right until a legal card has the focus
            if page.evaluate("document.activeElement.classList.contains('legal')"):
                break
            page.keyboard.press("ArrowRight")
        played = page.evaluate("document.activeElement.dataset.card")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "v => document.querySelector('#table').dataset.version !== v", arg=version
        )
        assert page.locator(f'#hand [data-card="{played}"]').count() == 0


def test_labels_switch_to_turkish_and_contracts_stay_turkish(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    server, _ = stub
    with table_page(browser, server.url) as (page, _match_id):
        wait_for_my_move(page)
        page.click("#lang")
        wait_for_my_move(page)
        assert page.inner_text("#contract-picker h3") == "Oyunu seç"
        assert page.inner_text("#status") == "Sıra sende"
        assert "Kupa Almaz" in page.locator("#contract-picker button .name").all_inner_texts()
        assert page.evaluate("document.documentElement.lang") == "tr"
        page.click("#lang")
        wait_for_my_move(page)
        assert page.inner_text("#contract-picker h3") == "Choose the contract"
        assert "Kupa Almaz" in page.locator("#contract-picker button .name").all_inner_texts()


def test_the_move_clock_counts_down_from_the_servers_deadline(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """The stand-in gives 10 minutes a move: the seat to move shows a clock below 10:00 once
    a second and a half has passed (on Playwright's clock)."""
    server, _ = stub
    with clocked_table(browser, server.url, pace="instant") as (page, _match_id):
        wait_for_my_move(page)
        page.clock.fast_forward(1_500)
        page.wait_for_function(
            "() => /^Move 9:[0-5]\\d$/.test(document.querySelector('[data-clock-seat=\"0\"]')"
            ".textContent)"
        )
        assert page.inner_text('[data-clock-seat="1"]') == ""


def test_a_dropped_connection_shows_a_banner_and_recovers(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """Offline, the table's following of the match fails: a banner says so; back online, the
    next try (after a pause that grows with each failure, up to 8 s: moved on with
    Playwright's clock) hides it, and moves are sent again."""
    server, _ = stub
    with clocked_table(browser, server.url, pace="instant") as (page, _match_id):
        wait_for_my_move(page)
        page.context.set_offline(True)
        page.wait_for_selector("#conn:not([hidden])")
        page.context.set_offline(False)
        page.clock.fast_forward(8_000)
        page.wait_for_selector("#conn", state="hidden")
        version = page.get_attribute("#table", "data-version")
        page.locator("#contract-picker button").first.click()
        page.wait_for_function(
            "v => document.querySelector('#table').dataset.version !== v", arg=version
        )
