"""The client in Chromium against the engine-backed stand-in of the game API (stub_game.py).

These pin the client's own behaviour — playing by clicks, refusals with the server's reason,
reload recovery, "Verify deck" passing and failing, the layouts — without the game service.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from king_engine import move_of_action

from .play import (
    FAST_PACE_JS,
    click_an_illegal_card,
    create_computer_table,
    horizontal_overflow,
    play_to_the_end,
    sign_in_as_guest,
    wait_for_my_move,
    wait_for_my_move_pressing_on,
)
from .servers import LiveServer, load_web_blueprint
from .stub_game import StubGame, stub_app

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def stub() -> Iterator[tuple[LiveServer, StubGame]]:
    app, game = stub_app(load_web_blueprint(), seed=5)
    server = LiveServer(app)
    try:
        yield server, game
    finally:
        server.stop()


@pytest.fixture(scope="module")
def finished(browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path) -> Iterator[Any]:
    """One 8-hand match played to the end by clicks; the page stays open on the result."""
    server, _ = stub
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15_000)
    context.add_init_script(FAST_PACE_JS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in_as_guest(page, server.url)
    match_id = create_computer_table(page)
    moves = play_to_the_end(page, shots=artifacts / "stub-table-1280.png")
    page.screenshot(path=str(artifacts / "stub-standings-1280.png"), full_page=True)
    page.match_id = match_id
    page.moves = moves
    page.js_errors = errors
    try:
        yield page
    finally:
        context.close()


def test_a_guest_plays_an_8_hand_match_by_clicking(finished: Any) -> None:
    """8 contracts chosen (seat 0 declares hands 0 and 4) and 8 hands of cards clicked."""
    assert finished.js_errors == []
    rows = finished.locator("#score-sheet tbody tr")
    assert rows.count() == 8
    assert finished.locator("#standings li").count() == 4
    assert 2 * 13 <= finished.moves <= 8 * 13 + 2


def test_verify_deck_passes_after_the_match(finished: Any, artifacts: Path) -> None:
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
    page: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    server, _ = stub
    page.context.add_init_script(FAST_PACE_JS)
    sign_in_as_guest(page, server.url)
    create_computer_table(page)
    for _ in range(60):  # play until a turn offers an illegal card (a suit to follow)
        wait_for_my_move_pressing_on(page)
        version = page.get_attribute("#table", "data-version")
        if page.locator("#hand.active .card.illegal").count():
            break
        picker = page.locator("#contract-picker button")
        (picker if picker.count() else page.locator("#hand.active .card.legal")).first.click()
        page.wait_for_function(
            "v => document.querySelector('#table').dataset.version !== v", arg=version
        )
    version = page.get_attribute("#table", "data-version")
    card = click_an_illegal_card(page)  # the table never offers one (test_table_play.py)
    page.wait_for_selector("#toast:not([hidden])")
    text = page.inner_text("#toast")
    assert "illegal_card" in text and "Refused" in text, text
    assert page.get_attribute("#table", "data-version") == version
    assert page.locator(f'#hand [data-card="{card}"]').count() == 1, "the card stays in hand"


def test_the_table_comes_back_after_a_reload(page: Any, stub: tuple[LiveServer, StubGame]) -> None:
    server, _ = stub
    sign_in_as_guest(page, server.url)
    match_id = create_computer_table(page)
    wait_for_my_move(page)
    before = sorted(page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))
    page.reload()
    wait_for_my_move(page)
    assert page.evaluate("location.hash") == f"#/match/{match_id}"
    after = sorted(page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert after == before and len(after) == 13


def test_a_forfeited_seat_is_the_computers_not_the_players_turn(
    page: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """The service says the computer plays my seat (my_turn false) while the engine's mover is
    still my seat: the table offers no move and says so; at the end a bot is the winner."""
    server, game = stub
    sign_in_as_guest(page, server.url)
    match_id = create_computer_table(page)
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
    assert page.locator("#hand.active, #hand .card.legal, #contract-picker, #resign").count() == 0
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
    page: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """Seat 0 declares hand 1: every penalty contract plus Koz in each of the four suits."""
    server, game = stub
    sign_in_as_guest(page, server.url)
    match_id = create_computer_table(page)
    wait_for_my_move(page)
    offered = page.locator("#contract-picker button").evaluate_all(
        "els => els.map(e => e.dataset.move)"
    )
    state = game.matches[match_id].state
    assert state is not None
    from king_engine import view_for

    allowed = [c["move"] for c in view_for(state, 0).to_dict()["allowed_contracts"]]
    assert offered == allowed
    labels = page.locator("#contract-picker button .name").all_inner_texts()
    assert "Rıfkı" in labels and "Kız Almaz" in labels


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_no_horizontal_overflow(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path, width: int, height: int
) -> None:
    server, _ = stub
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#guest-form")
        assert horizontal_overflow(page) == [], "sign-in page"
        sign_in_as_guest(page, server.url)
        assert horizontal_overflow(page) == [], "lobby"
        page.screenshot(path=str(artifacts / f"stub-lobby-{width}.png"), full_page=True)
        create_computer_table(page)
        wait_for_my_move(page)
        picker = page.locator("#contract-picker button")
        if picker.count():
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
    finally:
        context.close()


def test_keyboard_only_play(page: Any, stub: tuple[LiveServer, StubGame]) -> None:
    """A contract and a card chosen with the keyboard: focus, arrow keys and Enter."""
    server, _ = stub
    sign_in_as_guest(page, server.url)
    create_computer_table(page)
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
    page: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    server, _ = stub
    sign_in_as_guest(page, server.url)
    create_computer_table(page)
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
    page: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """The stand-in gives 10 minutes a move: the seat to move shows a clock below 10:00."""
    server, _ = stub
    sign_in_as_guest(page, server.url)
    create_computer_table(page)
    wait_for_my_move(page)
    page.wait_for_function(
        "() => /^Move 9:[0-5]\\d$/.test(document.querySelector('[data-clock-seat=\"0\"]')"
        ".textContent)"
    )
    assert page.inner_text('[data-clock-seat="1"]') == ""


def test_a_dropped_connection_shows_a_banner_and_recovers(
    page: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    server, _ = stub
    sign_in_as_guest(page, server.url)
    create_computer_table(page)
    wait_for_my_move(page)
    page.context.set_offline(True)
    page.wait_for_selector("#conn:not([hidden])")
    page.context.set_offline(False)
    page.wait_for_selector("#conn", state="hidden")
    version = page.get_attribute("#table", "data-version")
    page.locator("#contract-picker button").first.click()
    page.wait_for_function(
        "v => document.querySelector('#table').dataset.version !== v", arg=version
    )
