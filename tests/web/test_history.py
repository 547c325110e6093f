"""The match replay (#/history/<id>) in Chromium, on the real game service: a guest plays an
8-hand computer match to the end through the API (a real bot worker plays the other seats),
then opens the replay, steps through the tricks, finds each trick's cards as the transcript
has them, and sees the deck verified; the replay is linked from My matches and the profile."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .live_game import Player, game_service
from .play import horizontal_overflow
from .servers import LiveServer

pytestmark = [pytest.mark.integration, pytest.mark.slow]

try:
    import king_game.app  # noqa: F401
except ImportError as missing:  # the game service is not installed in this environment
    pytest.skip(f"the game service cannot be imported: {missing}", allow_module_level=True)


@pytest.fixture(scope="module")
def game_server(redis_url: str, database_url: str) -> Iterator[LiveServer]:
    with game_service(redis_url, database_url, db=8, bots=True) as server:
        yield server


@pytest.fixture(scope="module")
def finished(game_server: LiveServer) -> tuple[Player, str, dict[str, Any]]:
    """A guest's 8-hand match against easy bots, played to the end; its transcript."""
    player = Player(game_server.url, "Tekrar")
    match_id = player.open_table(mode="computer", level="easy", hands=8, ruleset="standard")
    over = player.play_to_the_end(match_id)
    assert over["status"] == "finished"
    url = f"{game_server.url}/v1/matches/{match_id}/fairness"
    with urllib.request.urlopen(url, timeout=10) as answer:
        transcript = json.load(answer)
    return player, match_id, transcript


def open_as(
    browser: Any, server: LiveServer, player: Player | None, match_id: str, size: tuple[int, int]
) -> tuple[Any, Any]:
    """A page whose localStorage holds the player's session and fairness record (what the
    device that played the match keeps), or nothing at all."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    page.goto(server.url + "/")
    if player is not None:
        page.evaluate(
            """([session, key, record]) => {
                localStorage.setItem('king.session', JSON.stringify(session));
                localStorage.setItem(key, JSON.stringify(record));
            }""",
            [player.session(), f"king.match.{match_id}", player.records[match_id]],
        )
    page.goto(f"{server.url}/#/history/{match_id}")
    page.wait_for_selector("#trick")
    return context, page


def shown_trick(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => {
                const trick = document.querySelector('#trick');
                const cards = {};
                for (const spot of trick.querySelectorAll('[data-seat]')) {
                  if (spot.dataset.card) cards[spot.dataset.seat] = spot.dataset.card;
                }
                return {hand: Number(trick.dataset.hand), trick: Number(trick.dataset.trick),
                        winner: trick.dataset.winner, cards};
            }"""
        )
    )


def expected_trick(transcript: dict[str, Any], hand: int, trick: int) -> dict[str, Any]:
    """The trick's cards by seat, and its winner by the rules (led suit, else trump)."""
    entry = transcript["hands"][hand]
    plays = entry["plays"][4 * trick : 4 * trick + 4]
    best = plays[0]
    for seat, card in plays[1:]:
        if card[1] == best[1][1]:
            if "23456789TJQKA".index(card[0]) > "23456789TJQKA".index(best[1][0]):
                best = [seat, card]
        elif entry["trump"] and card[1] == entry["trump"]:
            best = [seat, card]
    return {"cards": {str(seat): card for seat, card in plays}, "winner": str(best[0])}


def test_the_replay_steps_through_the_tricks_as_the_transcript_has_them(
    browser: Any, game_server: LiveServer, finished: Any, artifacts: Path
) -> None:
    player, match_id, transcript = finished
    context, page = open_as(browser, game_server, player, match_id, (1280, 800))
    try:
        assert page.locator(".hand-tabs button").count() == len(transcript["hands"]) == 8
        first = shown_trick(page)
        assert (first["hand"], first["trick"]) == (0, 0)
        assert first == {"hand": 0, "trick": 0, **expected_trick(transcript, 0, 0)}
        for n in range(1, 4):  # three steps forward, each trick as the transcript has it
            page.click("#trick-next")
            page.wait_for_function(f"() => document.querySelector('#trick').dataset.trick == {n}")
            assert shown_trick(page) == {"hand": 0, "trick": n, **expected_trick(transcript, 0, n)}
        page.click("#trick-prev")
        page.wait_for_function("() => document.querySelector('#trick').dataset.trick == 2")
        # Another hand, by its tab: its first trick, its contract in the title.
        page.click("#hand-5")
        page.wait_for_function("() => document.querySelector('#trick').dataset.hand == 4")
        assert shown_trick(page) == {"hand": 4, "trick": 0, **expected_trick(transcript, 4, 0)}
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('#trick').dataset.trick == 1")
        assert shown_trick(page) == {"hand": 4, "trick": 1, **expected_trick(transcript, 4, 1)}
        # The device that played it verifies the whole deal, its own seed and hands included.
        page.wait_for_selector("#replay-verify-pass, #replay-verify-fail")
        assert page.get_attribute("#replay-verify-pass", "data-scope") == "full"
        assert "forfeited" in page.inner_text("#standings-rule")
        assert page.js_errors == []
        page.screenshot(path=str(artifacts / "history-1280.png"), full_page=True)
    finally:
        context.close()


def test_hand_points_add_up_to_the_contract(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    """Each hand's points column sums to what its contract hands out in all (−650 for El
    Almaz … +650 for Koz), and the last hand's totals are the match's standings."""
    whole = {"tricks": -650, "hearts": -390, "queens": -400, "boys": -480, "last_two": -360,
             "king_of_hearts": -320, "trump": 650}  # fmt: skip
    player, match_id, transcript = finished
    context, page = open_as(browser, game_server, player, match_id, (1280, 800))
    try:
        over = player.match(match_id)
        for hand, entry in enumerate(transcript["hands"]):
            page.click(f"#hand-{hand + 1}")
            page.wait_for_function(f"() => document.querySelector('#trick').dataset.hand == {hand}")
            points = page.locator("#hand-points tbody td:nth-child(3)").all_inner_texts()
            assert sum(map(int, points)) == whole[entry["contract"]], (hand, entry["contract"])
        totals = page.locator("#hand-points tbody td:nth-child(4)").all_inner_texts()
        assert list(map(int, totals)) == over["view"]["totals"]
        places = page.locator("#replay-standings li").evaluate_all(
            "items => items.map(li => [Number(li.dataset.seat), Number(li.dataset.place)])"
        )
        assert sorted(places) == [[seat, place] for seat, place in enumerate(over["places"])]
    finally:
        context.close()


def test_forfeited_players_are_placed_last_in_the_order_they_left(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    """The match as the service would show it had seats 1 then 3 forfeited (a live match's
    resignations): whatever their totals, seat 3 is third and seat 1, who left first, last."""
    player, match_id, _ = finished
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(game_server.url + "/")
        page.evaluate(
            "s => localStorage.setItem('king.session', JSON.stringify(s))", player.session()
        )
        real = player.match(match_id)

        def with_forfeits(route: Any) -> None:
            body = {**real, "forfeits": [1, 3]}
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

        page.route(f"**/v1/matches/{match_id}", with_forfeits)
        page.goto(f"{game_server.url}/#/history/{match_id}")
        page.wait_for_selector("#replay-standings li")
        rows = page.locator("#replay-standings li").evaluate_all(
            "items => items.map(li => [Number(li.dataset.seat), Number(li.dataset.place),"
            " li.textContent])"
        )
        assert [(seat, place) for seat, place, _ in rows[2:]] == [(3, 3), (1, 4)], rows
        assert "left 2" in rows[2][2] and "left 1" in rows[3][2], rows
        assert sorted(place for _, place, _ in rows[:2]) in ([1, 2], [1, 1])
    finally:
        context.close()


def test_a_device_without_the_record_checks_the_deal_only(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    _, match_id, _ = finished
    context, page = open_as(browser, game_server, None, match_id, (1280, 800))
    try:
        page.wait_for_selector("#replay-verify-pass, #replay-verify-fail")
        assert page.get_attribute("#replay-verify-pass", "data-scope") == "public"
    finally:
        context.close()


def test_an_altered_transcript_fails_on_the_replay(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    _, match_id, transcript = finished
    altered = json.loads(json.dumps(transcript))
    plays = altered["hands"][1]["plays"]
    a = next(i for i, (seat, _) in enumerate(plays) if seat == 1)
    b = next(i for i, (seat, _) in enumerate(plays) if seat == 2)
    plays[a][1], plays[b][1] = plays[b][1], plays[a][1]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        body = json.dumps(altered)
        page.route(
            f"**/v1/matches/{match_id}/fairness",
            lambda route: route.fulfill(status=200, content_type="application/json", body=body),
        )
        page.goto(f"{game_server.url}/#/history/{match_id}")
        page.wait_for_selector("#replay-verify-fail")
        problems = page.locator("#replay-verify-fail li").all_inner_texts()
        assert problems and all(text.startswith("hand 2:") for text in problems), problems
    finally:
        context.close()


def test_the_replay_is_linked_from_my_matches_and_the_profile(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    player, match_id, _ = finished
    context, page = open_as(browser, game_server, player, match_id, (1280, 800))
    try:
        page.goto(game_server.url + "/#/")
        link = page.locator(f'#recent-matches li[data-match="{match_id}"] a.replay-link')
        link.wait_for()
        row = page.inner_text(f'#recent-matches li[data-match="{match_id}"]')
        assert "Bot" in row and "8 hands" in row and "Finished" in row, row
        link.click()
        page.wait_for_selector("#trick")
        assert page.evaluate("location.hash") == f"#/history/{match_id}"
        page.goto(f"{game_server.url}/#/profile/{player.player_id}")
        page.locator(f'#profile-matches li[data-match="{match_id}"] a.replay-link').click()
        page.wait_for_selector("#trick")
        assert page.evaluate("location.hash") == f"#/history/{match_id}"
    finally:
        context.close()


def test_the_replay_fits_a_phone(
    browser: Any, game_server: LiveServer, finished: Any, artifacts: Path
) -> None:
    player, match_id, _ = finished
    context, page = open_as(browser, game_server, player, match_id, (390, 844))
    try:
        page.wait_for_selector("#replay-verify-pass, #replay-verify-fail")
        page.click("#trick-next")
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / "history-390.png"), full_page=True)
        page.click("#lang")  # the Turkish labels are longer
        page.wait_for_selector("#replay-verify-pass")
        assert horizontal_overflow(page) == [], "Türkçe"
        page.screenshot(path=str(artifacts / "history-tr-390.png"), full_page=True)
    finally:
        context.close()
