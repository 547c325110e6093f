"""The match replay (#/history/<id>) in Chromium, on the run's real game service
(``game_server``): four guests sit at a live 8-hand table through the API (seat 0 keeps its
fairness record as the client does: the commitment before its seed, each hand's 13 cards as
the API showed them) and the match is played to the end at once through the service's own
move path (its match store, a random legal move for whoever is to act). Then the replay is
opened, steps through the tricks, finds each trick's cards as the transcript has them, and
sees the deck verified (the whole deal on the device that played it, the public part on one
without its record; an altered transcript fails); the places put forfeited players last in
the order they left; the replay is linked from My matches and the profile, and fits a phone.
"""

from __future__ import annotations

import json
import random
import secrets
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from king_engine import CONTRACTS, move_of_action
from king_engine.moves import ChooseContract
from king_match import Player as SeatedPlayer

from .live_game import Player, call
from .pages import DESKTOP, PHONE, new_page
from .play import horizontal_overflow
from .servers import LiveServer

pytestmark = [pytest.mark.integration]

OTHERS = ("Ayla", "Berk", "Cenk")
#: Seat 0 declares hand 1 (index 0) with a penalty that never ends a hand early, so hand 5 is
#: its Koz (one penalty and one Koz each in 8 hands): the replay test steps through tricks of
#: both, which all 13 of each hand then has.
FIRST_CONTRACTS = ("tricks", "last_two")


def play_the_match(server: LiveServer, players: list[Player], match_id: str) -> None:
    """Play every seat to the end through the app's match store (the path of every move the
    API takes): a random legal move of the seat to act, by its own player (the first hand's
    contract one of ``FIRST_CONTRACTS``). Seat 0 keeps each hand's cards as
    ``GET /v1/matches/{id}`` shows them, as the client's record does."""
    store = server.app.extensions["king_game"].store
    record_of_seat0 = players[0].records[match_id]
    rng = random.Random(match_id)
    while True:
        record, state = store.load(match_id)
        if record.ended:
            return
        hand = str(state.hand_index)
        if hand not in record_of_seat0["hands"]:
            view = players[0].match(match_id)["view"]
            assert str(view["hand"]) == hand and len(view["my_cards"]) == 13, view
            record_of_seat0["hands"][hand] = sorted(view["my_cards"])
        seat = record.player_to_act(state)
        assert seat is not None, (record.status, state.current_player)
        who = players[seat]
        moves = [move_of_action(action) for action in state.legal_actions()]
        if state.hand_index == 0 and isinstance(moves[0], ChooseContract):
            moves = [m for m in moves if CONTRACTS[m.contract].code in FIRST_CONTRACTS]
        move = rng.choice(moves)
        store.play(
            match_id,
            SeatedPlayer(who.player_id, who.name, is_guest=True),
            move,
            expected_version=record.version,
        )


@pytest.fixture(scope="module")
def finished(game_server: LiveServer) -> tuple[Player, str, dict[str, Any]]:
    """Seat 0's guest, the match id and the transcript of a finished live 8-hand match."""
    players = [Player(game_server.url, name) for name in ("Tekrar", *OTHERS)]
    match_id = players[0].open_table(mode="live", hands=8, ruleset="standard")
    for seat, player in enumerate(players[1:], start=1):
        call(game_server.url, "POST", f"/v1/tables/{match_id}/seats", player.token,
             {"client_seed": secrets.token_hex(32), "seat": seat})  # fmt: skip
    play_the_match(game_server, players, match_id)
    over = players[0].match(match_id)
    assert over["status"] == "finished", over["status"]
    url = f"{game_server.url}/v1/matches/{match_id}/fairness"
    with urllib.request.urlopen(url, timeout=10) as answer:
        transcript = json.load(answer)
    assert transcript["seed_sources"] == ["client"] * 4
    assert transcript["hands"][0]["contract"] in FIRST_CONTRACTS
    assert transcript["hands"][4]["contract"] == "trump"
    assert len(transcript["hands"][0]["plays"]) == len(transcript["hands"][4]["plays"]) == 52
    return players[0], match_id, transcript


@contextmanager
def opened_as(
    browser: Any,
    server: LiveServer,
    player: Player | None,
    match_id: str,
    size: tuple[int, int] = DESKTOP,
) -> Iterator[Any]:
    """The replay on a page whose localStorage holds the player's session and fairness record
    (what the device that played the match keeps), or nothing at all."""
    script = None
    if player is not None:
        stored = {
            "king.session": player.session(),
            f"king.match.{match_id}": player.records[match_id],
        }
        script = "".join(
            f"localStorage.setItem({json.dumps(key)}, {json.dumps(json.dumps(value))});"
            for key, value in stored.items()
        )
    with new_page(browser, size=size, init_script=script) as page:
        page.goto(f"{server.url}/#/history/{match_id}")
        page.wait_for_selector("#trick")
        yield page


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
    with opened_as(browser, game_server, player, match_id) as page:
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


def test_hand_points_add_up_to_the_contract(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    """Each hand's points column sums to what its contract hands out in all (−650 for El
    Almaz … +650 for Koz), and the last hand's totals are the match's standings."""
    whole = {"tricks": -650, "hearts": -390, "queens": -400, "boys": -480, "last_two": -360,
             "king_of_hearts": -320, "trump": 650}  # fmt: skip
    player, match_id, transcript = finished
    over = player.match(match_id)
    with opened_as(browser, game_server, player, match_id) as page:
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


def test_forfeited_players_are_placed_last_in_the_order_they_left(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    """The match as the service would show it had seats 1 then 3 forfeited (a live match's
    resignations): whatever their totals, seat 3 is third and seat 1, who left first, last."""
    player, match_id, _ = finished
    real = player.match(match_id)

    def with_forfeits(route: Any) -> None:
        body = {**real, "forfeits": [1, 3]}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    session = json.dumps(json.dumps(player.session()))
    with new_page(browser, init_script=f"localStorage.setItem('king.session', {session});") as page:
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


def test_a_device_without_the_record_checks_the_deal_only(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    _, match_id, _ = finished
    with opened_as(browser, game_server, None, match_id) as page:
        page.wait_for_selector("#replay-verify-pass, #replay-verify-fail")
        assert page.get_attribute("#replay-verify-pass", "data-scope") == "public"


def test_an_altered_transcript_fails_on_the_replay(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    _, match_id, transcript = finished
    altered = json.loads(json.dumps(transcript))
    plays = altered["hands"][1]["plays"]
    a = next(i for i, (seat, _) in enumerate(plays) if seat == 1)
    b = next(i for i, (seat, _) in enumerate(plays) if seat == 2)
    plays[a][1], plays[b][1] = plays[b][1], plays[a][1]
    body = json.dumps(altered)
    with new_page(browser) as page:
        page.route(
            f"**/v1/matches/{match_id}/fairness",
            lambda route: route.fulfill(status=200, content_type="application/json", body=body),
        )
        page.goto(f"{game_server.url}/#/history/{match_id}")
        page.wait_for_selector("#replay-verify-fail")
        problems = page.locator("#replay-verify-fail li").all_inner_texts()
        assert problems and all(text.startswith("hand 2:") for text in problems), problems


def test_the_replay_is_linked_from_my_matches_and_the_profile(
    browser: Any, game_server: LiveServer, finished: Any
) -> None:
    player, match_id, _ = finished
    with opened_as(browser, game_server, player, match_id) as page:
        page.goto(game_server.url + "/#/")
        link = page.locator(f'#recent-matches li[data-match="{match_id}"] a.replay-link')
        link.wait_for()
        row = page.inner_text(f'#recent-matches li[data-match="{match_id}"]')
        assert all(name in row for name in OTHERS), row
        assert "Live table" in row and "8 hands" in row and "Finished" in row, row
        link.click()
        page.wait_for_selector("#trick")
        assert page.evaluate("location.hash") == f"#/history/{match_id}"
        page.goto(f"{game_server.url}/#/profile/{player.player_id}")
        page.locator(f'#profile-matches li[data-match="{match_id}"] a.replay-link').click()
        page.wait_for_selector("#trick")
        assert page.evaluate("location.hash") == f"#/history/{match_id}"


def test_the_replay_fits_a_phone(
    browser: Any, game_server: LiveServer, finished: Any, artifacts: Path
) -> None:
    player, match_id, _ = finished
    with opened_as(browser, game_server, player, match_id, PHONE) as page:
        page.wait_for_selector("#replay-verify-pass, #replay-verify-fail")
        page.click("#trick-next")
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / "history-390.png"), full_page=True)
        page.click("#lang")  # the Turkish labels are longer
        page.wait_for_selector("#replay-verify-pass")
        assert horizontal_overflow(page) == [], "Türkçe"
        page.screenshot(path=str(artifacts / "history-tr-390.png"), full_page=True)
