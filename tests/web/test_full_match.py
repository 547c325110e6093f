"""End to end: a guest plays an 8-hand match against three easy bots in Chromium, through the
real game service (its app factory on this run's Redis and Postgres, a real RQ bot worker
process, the clock sweeper), then verifies the deck in the browser — and sees a transcript
altered on its way fail, naming the hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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

pytestmark = [pytest.mark.integration, pytest.mark.slow]
ARTIFACTS_RESIGN = Path(__file__).resolve().parents[2] / "test-artifacts" / "web" / "resign.png"

try:
    from king_game.app import create_app
    from king_game.config import Settings
    from king_game.migrate import migrate
    from king_match import MatchSettings, Sweeper
except ImportError as missing:  # the game service is not installed in this environment
    pytest.skip(f"the game service cannot be imported: {missing}", allow_module_level=True)


def private_redis_db(url: str, db: int = 7) -> str:
    """The same Redis server, another database: the bots' RQ queue is named ``bots`` in every
    test folder, so a worker of another folder on database 0 must not take our jobs."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path=f"/{db}"))


@pytest.fixture(scope="module")
def game_env(redis_url: str, database_url: str) -> dict[str, str]:
    migrate(database_url)
    return {
        "REDIS_URL": private_redis_db(redis_url),
        "DATABASE_URL": database_url,
        "KING_KEY_PREFIX": f"w{uuid.uuid4().hex[:8]}:",
        "KING_COMPUTER_MOVE_MS": "600000",
    }


@pytest.fixture(scope="module")
def game_server(game_env: dict[str, str]) -> Iterator[LiveServer]:
    """The game app with the web client's blueprint, a bot worker and the sweeper."""
    settings = Settings(
        database_url=game_env["DATABASE_URL"],
        match=MatchSettings.from_env(game_env),
        rate_limits_enabled=False,
        longpoll_max_s=5,
    )
    app = create_app(settings)
    if "web" not in app.blueprints:  # until the factory registers the client itself
        app.register_blueprint(load_web_blueprint())
    worker = subprocess.Popen(
        [sys.executable, "-m", "king_bots.worker"],
        env={**os.environ, **game_env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    sweeper = Sweeper(app.extensions["king_game"].store, interval_s=0.2)
    thread = sweeper.start_thread()
    server = LiveServer(app)
    try:
        yield server
    finally:
        server.stop()
        notifier = getattr(app.extensions["king_game"].store, "notifier", None)
        if notifier is not None:  # its Pub/Sub thread would outlive the test Redis
            notifier.stop()
        sweeper.stop()
        thread.join(timeout=5)
        worker.terminate()
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()


@pytest.fixture(scope="module")
def played(browser: Any, game_server: LiveServer, artifacts: Path) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(30_000)
    context.add_init_script(FAST_PACE_JS)  # test_table_full.py plays at the default pace
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_in_as_guest(page, game_server.url, "Deneme")
    page.match_id = create_computer_table(page, level="easy", hands=8)
    started = time.monotonic()
    page.moves = play_to_the_end(page, shots=artifacts / "table-1280.png")
    page.seconds = time.monotonic() - started
    page.screenshot(path=str(artifacts / "standings-1280.png"), full_page=True)
    page.js_errors = errors
    try:
        yield page
    finally:
        context.close()


def test_a_guest_plays_8_hands_against_easy_bots(played: Any) -> None:
    assert played.js_errors == []
    assert played.locator("#score-sheet tbody tr").count() == 8
    assert played.locator("#standings li").count() == 4
    record = played.evaluate(
        "key => JSON.parse(localStorage.getItem(key))", f"king.match.{played.match_id}"
    )
    assert record["seat"] == 0
    assert sorted(record["hands"], key=int) == [str(h) for h in range(8)]


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
    url = f"{game_server.url}/v1/matches/{played.match_id}/fairness"
    with urllib.request.urlopen(url, timeout=10) as response:
        altered = json.load(response)
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


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_real_table_has_no_horizontal_overflow(
    browser: Any, game_server: LiveServer, artifacts: Path, width: int, height: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        sign_in_as_guest(page, game_server.url, "Telefon")
        assert horizontal_overflow(page) == []
        create_computer_table(page, level="easy", hands=8)
        page.wait_for_selector("#contract-picker button, #hand .card")
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / f"table-{width}.png"), full_page=True)
    finally:
        context.close()


def test_a_live_table_fills_from_the_lobby(browser: Any, game_server: LiveServer) -> None:
    """Ayşe opens a live table; Burak sees it in the lobby and sits; Ayşe's page follows the
    match's events and shows him without a reload."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        ayse, burak = (context.new_page() for context in contexts)
        for page in (ayse, burak):
            page.set_default_timeout(30_000)
        sign_in_as_guest(ayse, game_server.url, "Ayşe")
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
    finally:
        for context in contexts:
            context.close()


def test_an_illegal_card_is_refused_with_the_services_reason(
    page: Any, game_server: LiveServer
) -> None:
    page.set_default_timeout(30_000)
    page.context.add_init_script(FAST_PACE_JS)
    sign_in_as_guest(page, game_server.url, "Kural")
    create_computer_table(page, level="easy", hands=8)
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
    page: Any, game_server: LiveServer
) -> None:
    """Against the computer a resignation aborts the match; the seeds are revealed all the
    same, and the hand that was under way re-deals as shown."""
    page.set_default_timeout(30_000)
    sign_in_as_guest(page, game_server.url, "Çekilen")
    create_computer_table(page, level="easy", hands=8)
    wait_for_my_move(page)
    page.click("#resign")
    page.click("#resign")  # the second click confirms
    page.wait_for_selector("#verify-button")
    page.click("#verify-button")
    page.wait_for_selector("#verify-pass, #verify-fail, #verify-result .fail")
    page.screenshot(path=str(ARTIFACTS_RESIGN), full_page=True)
    assert page.locator("#verify-pass").count() == 1, page.inner_text("#verify-result")
