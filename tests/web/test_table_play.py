"""The table plays the match out at a readable pace (against the engine-backed stand-in).

Each seat's card appears in turn, at least the pace's pause apart, the trick's leader and
winner are marked and the trick goes to its winner; the last trick can be looked at again;
every hand ends on a summary whose numbers are the hand's (checked against the stand-in's
events and the engine's score sheet), which waits for Continue or closes itself after the
pace's time, the last one onto the result; only the cards that may be played now can be
played, and cards have spoken names. Pacing is checked on Playwright's clock (tableclock.py),
never by waiting for it; the other tests play at the ``instant`` pace.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from king_engine import MatchState, view_for

from .live_game import call
from .pages import create_computer_table, table_page
from .play import wait_for_my_move
from .servers import LiveServer, load_web_blueprint
from .stub_game import StubGame, stub_app
from .tableclock import clocked_table, now, pause, run_until, run_until_my_move
from .tablekit import (
    advance,
    english_name,
    reload_table,
    served,
    state_of,
    turkish_name,
    view0,
)

pytestmark = pytest.mark.integration

# Records what the felt shows after every change of the page: the cards by seat, the leader
# and winner marks, whether the trick is on its way to its winner, whether the hand is active.
RECORDER_JS = """() => {
  window.__felt = [];
  const t0 = performance.now();
  const note = () => {
    const trick = document.querySelector('#trick');
    if (!trick) return;
    const cards = [...trick.querySelectorAll('.spot .slot .card:not(.empty)')]
      .map((c) => `${c.closest('.spot').dataset.seat}:${c.dataset.card}`);
    const entry = {
      cards,
      leader: trick.querySelector('.spot.leader')?.dataset.seat ?? null,
      winner: trick.querySelector('.spot.winner')?.dataset.seat ?? null,
      collect: trick.classList.contains('collect'),
      active: document.querySelector('#hand.active') !== null,
    };
    const last = window.__felt.at(-1);
    const key = (e) => JSON.stringify([e.cards, e.leader, e.winner, e.collect, e.active]);
    if (last && key(last) === key(entry)) return;
    window.__felt.push({ ...entry, t: performance.now() - t0 });
  };
  new MutationObserver(note).observe(document.querySelector('#table'),
    { childList: true, subtree: true, attributes: true });
  note();
}"""


@pytest.fixture(scope="module")
def stub() -> Iterator[tuple[LiveServer, StubGame]]:
    app, game = stub_app(load_web_blueprint(), seed=11)
    server = LiveServer(app)
    try:
        yield server, game
    finally:
        server.stop()


# The paces' pauses (table-playback.js PACES), in milliseconds.
NORMAL = {"card": 650, "own": 400, "summary": 8000}
SUMMARY_MS = {None: 8000, "fast": 4000, "instant": 1500}  # None: the default pace, normal

FELT_HAS_JS = "n => window.__felt.some((e) => e.cards.length === n)"


def test_cards_appear_one_by_one_and_the_trick_goes_to_its_winner(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """At the normal pace, on the page's clock: I lead; the three bots' cards come one at a
    time (my card stays alone for the pace's pause after one's own card, each bot's card for
    the pause after another's), my seat is marked as the leader, the winner the engine names
    is marked, the trick goes to it, and my hand only becomes playable once all of that has
    been shown."""
    server, game = stub
    with clocked_table(browser, server.url, pace="normal") as (page, match_id):
        wait_for_my_move(page)
        page.click("#contract-picker button[data-move='tricks']")
        # (the picker stays until the contract's answer is drawn: wait for the cards, not for
        # any move, before the page's time stops)
        page.wait_for_selector("#hand.active .card.legal")
        page.evaluate(RECORDER_JS)
        pause(page)
        page.locator("#hand.active .card.legal").first.click()
        run_until(page, FELT_HAS_JS, 3, served=served(game, match_id))
        page.screenshot(path=str(artifacts / "table-pacing-1280.png"))
        run_until_my_move(page, served=served(game, match_id))
        felt = page.evaluate("window.__felt")
        trick = view0(game, match_id)["tricks"][0]
        assert page.js_errors == []

    # The first trick: from my card to the felt cleared after it (the bots then lead on).
    mine = next(i for i, e in enumerate(felt) if e["cards"])
    shown = next(i for i, e in enumerate(felt) if len(e["cards"]) == 4)
    cleared = next(i for i, e in enumerate(felt) if i > shown and not e["cards"])
    assert not any(e["active"] for e in felt[mine:cleared]), "nothing playable meanwhile"
    assert felt[-1]["active"] is True, "my turn once the table has caught up"
    felt = felt[: cleared + 1]
    plays = [f"{p['seat']}:{p['card']}" for p in trick["plays"]]
    first_seen: dict[int, dict[str, Any]] = {}
    for entry in felt:
        first_seen.setdefault(len(entry["cards"]), entry)
    assert [first_seen[n]["cards"] for n in (1, 2, 3, 4)] == [plays[:n] for n in (1, 2, 3, 4)]
    times = [first_seen[n]["t"] for n in (1, 2, 3, 4)]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert gaps[0] >= NORMAL["own"] and all(g >= NORMAL["card"] for g in gaps[1:]), times
    assert all(e["leader"] == "0" for e in felt if e["cards"]), "I led the trick"
    marked = [e for e in felt if e["winner"] is not None]
    assert marked and {e["winner"] for e in marked} == {str(trick["winner"])}
    assert any(e["collect"] for e in marked), "the trick goes to its winner"
    assert felt[-1]["cards"] == []


def test_only_the_legal_cards_are_raised_and_playable(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """While the contract is chosen no card can be played; in play the engine's legal cards
    are raised, the others dimmed, and a click on one of them sends nothing."""
    server, game = stub
    with table_page(browser, server.url) as (page, match_id):
        moves: list[str] = []
        page.on("request", lambda r: moves.append(r.url) if r.url.endswith("/moves") else None)
        wait_for_my_move(page)
        hand = page.locator("#hand .card")
        assert hand.count() == 13
        assert page.locator("#hand .card[aria-disabled='true']").count() == 13
        hand.first.click(force=True)  # Playwright would wait: the card is aria-disabled
        page.wait_for_timeout(400)
        assert moves == [] and page.locator("#toast:not([hidden])").count() == 0

        # On to a turn of mine where I must follow suit (some cards are not allowed).
        def must_follow(state: Any) -> bool:
            view = view_for(state, 0).to_dict()
            return view["phase"] == "play" and 0 < len(view["legal_cards"]) < len(view["my_cards"])

        advance(game, match_id, must_follow, contract="tricks")
        reload_table(page)
        view = view0(game, match_id)
        legal = set(view["legal_cards"])
        shown_legal = page.locator("#hand.active .card.legal").evaluate_all(
            "els => els.map((e) => e.dataset.card)"
        )
        assert set(shown_legal) == legal
        dimmed = page.locator("#hand .card.illegal[aria-disabled='true']")
        assert set(dimmed.evaluate_all("els => els.map((e) => e.dataset.card)")) == (
            set(view["my_cards"]) - legal
        )
        # A card is raised by a short CSS transition: measure where it ends, not mid-way.
        tops = page.locator("#hand .card").evaluate_all(
            """async (els) => {
              await Promise.all(els.flatMap((e) => e.getAnimations().map((a) => a.finished)));
              return els.map((e) => [e.dataset.card, e.getBoundingClientRect().top]);
            }"""
        )
        raised = max(top for card, top in tops if card in legal)
        lowered = min(top for card, top in tops if card not in legal)
        assert raised < lowered - 5, tops
        page.screenshot(path=str(artifacts / "table-legal-1280.png"))

        version = page.get_attribute("#table", "data-version")
        card = dimmed.first.get_attribute("data-card")
        dimmed.first.click(force=True)
        page.wait_for_timeout(400)
        assert moves == [], "a card that may not be played is not sent"
        assert page.get_attribute("#table", "data-version") == version
        assert page.locator(f'#hand [data-card="{card}"]').count() == 1
        assert page.js_errors == []


MARK_JS = "() => { for (const s of ['.match-head', '#hand']) document.querySelector(s).mark = s; }"
MARKS_JS = "() => ['.match-head', '#hand'].map((s) => document.querySelector(s).mark ?? null)"
MOVED_ON_JS = "v => document.querySelector('#table').dataset.version !== v"


def test_a_redraw_keeps_what_did_not_change_and_a_move_carries_the_version_shown(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """The table is drawn again at every step of play: a part whose markup did not change
    stays the same element (the header through a whole trick), a part that did is drawn anew
    (the hand I played from); my card goes out with the version the page showed."""
    server, _ = stub
    with table_page(browser, server.url) as (page, _match_id):
        wait_for_my_move(page)
        picked_at = page.get_attribute("#table", "data-version")
        page.click("#contract-picker button[data-move='tricks']")
        page.wait_for_function(MOVED_ON_JS, arg=picked_at)
        wait_for_my_move(page)
        page.evaluate(MARK_JS)
        shown = page.get_attribute("#table", "data-version")
        sent: list[Any] = []
        page.on("request", lambda r: r.url.endswith("/moves") and sent.append(r.post_data_json))
        card = page.locator("#hand.active .card.legal").first
        code = card.get_attribute("data-card")
        card.click()
        page.wait_for_function(MOVED_ON_JS, arg=shown)
        wait_for_my_move(page)
        marks = page.evaluate(MARKS_JS)
        assert marks == [".match-head", None]
        assert sent == [{"move": code, "version": int(shown or "")}]
        assert page.js_errors == []


def test_cards_have_spoken_names_in_the_pages_language(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    server, game = stub
    with table_page(browser, server.url) as (page, match_id):
        wait_for_my_move(page)
        mine = view0(game, match_id)["my_cards"]
        labels = dict(
            page.locator("#hand .card").evaluate_all(
                "els => els.map((e) => [e.dataset.card, e.getAttribute('aria-label')])"
            )
        )
        assert labels == {code: english_name(code) for code in mine}
        page.click("#lang")
        wait_for_my_move(page)
        labels = dict(
            page.locator("#hand .card").evaluate_all(
                "els => els.map((e) => [e.dataset.card, e.getAttribute('aria-label')])"
            )
        )
        assert labels == {code: turkish_name(code) for code in mine}
        assert turkish_name("TH") == "kupa onlusu"


def last_trick_of_hand(hand: int) -> Any:
    return lambda s: s.hand_index == hand and s.trick_no == 12 and s.current_player == 0


def test_the_last_trick_and_the_hands_summary_show_the_hands_numbers(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    """El Almaz to the 13th trick: the last trick shown again is the engine's; after my last
    card the summary lists each seat's tricks (counted from the trick_won events), its points
    for the hand and the running totals (the hand_scored event, the engine's score sheet),
    and stays (the default pace, on the page's clock) until I press Continue."""
    server, game = stub
    with clocked_table(browser, server.url, pace=None) as (page, match_id):
        assert page.evaluate("localStorage.getItem('king.pace')") is None, "the default pace"
        wait_for_my_move(page)
        advance(game, match_id, last_trick_of_hand(0), contract="tricks")
        reload_table(page)
        previous = view0(game, match_id)["tricks"][-1]
        page.click("#last-trick-button")
        shown = page.locator("#last-trick li").evaluate_all(
            "els => els.map((e) => [Number(e.dataset.seat), e.dataset.card, e.className])"
        )
        assert [(s, c) for s, c, _ in shown] == [(p["seat"], p["card"]) for p in previous["plays"]]
        assert [s for s, _, cls in shown if "winner" in cls] == [previous["winner"]]
        assert [s for s, _, cls in shown if "leader" in cls] == [previous["leader"]]
        page.screenshot(path=str(artifacts / "table-last-trick-1280.png"))
        page.click("#last-trick-button")
        assert page.locator("#last-trick").count() == 0

        pause(page)
        page.locator("#hand.active .card.legal").first.click()
        run_until(
            page,
            "() => document.querySelector(`#hand-summary[data-hand='0']`)",
            served=served(game, match_id),
        )
        page.screenshot(path=str(artifacts / "table-summary-1280.png"))
        events = game.matches[match_id].events
        won = Counter(e["seat"] for e in events if e["type"] == "trick_won" and e["hand"] == 0)
        scored = next(e for e in events if e["type"] == "hand_scored" and e["hand"] == 0)
        assert list(state_of(game, match_id).sheet[0].points) == scored["points"]
        rows = page.locator("#hand-summary tbody tr").evaluate_all(
            """els => els.map((r) => [Number(r.dataset.seat),
                r.querySelector('.tricks').textContent, r.querySelector('.hp').textContent,
                r.querySelector('.tot').textContent])"""
        )
        assert rows == [
            [s, str(won[s]), str(scored["points"][s]), str(scored["totals"][s])] for s in range(4)
        ]
        assert sum(won.values()) == 13 and sum(scored["points"]) == -650
        page.clock.run_for(NORMAL["summary"] - 1_000)
        assert page.locator("#hand-summary").count() == 1, "the summary waits for the player"
        page.click("#summary-continue")
        run_until(page, "() => document.querySelector('#hand-summary') === null")
        sheet = page.locator("#score-sheet tbody tr[data-hand='0'] td").all_inner_texts()
        assert sheet[2:] == [str(p) for p in scored["points"]]
        assert page.js_errors == []


# Notes the page's time when a hand's summary first shows and when it goes.
SUMMARY_TIMES_JS = """() => {
  window.__summary = {};
  new MutationObserver(() => {
    const box = document.querySelector('#hand-summary');
    if (box && !window.__summary.shown) window.__summary.shown = Date.now();
    if (!box && window.__summary.shown) window.__summary.gone ??= Date.now();
  }).observe(document.body, { childList: true, subtree: true });
}"""


@pytest.mark.parametrize("pace", [None, "fast", "instant"], ids=["default", "fast", "instant"])
def test_the_summary_closes_itself_after_the_paces_time(
    browser: Any, stub: tuple[LiveServer, StubGame], pace: str | None
) -> None:
    """Nobody presses Continue: the summary stays for the pace's time (8 s at the default
    pace, 4 s fast, 1.5 s instant) on the page's clock, then closes itself and the next hand
    begins; at the default pace the last hand's summary closes itself onto the result."""
    server, game = stub
    summary_ms = SUMMARY_MS[pace]
    with clocked_table(browser, server.url, pace=pace) as (page, match_id):
        wait_for_my_move(page)
        for hand in [0, 7] if pace is None else [0]:
            advance(game, match_id, last_trick_of_hand(hand), contract="tricks")
            state = state_of(game, match_id)
            assert (state.hand_index, state.trick_no) == (hand, 12), "a 13th trick to play"
            reload_table(page)
            page.evaluate(SUMMARY_TIMES_JS)
            pause(page)
            page.locator("#hand.active .card.legal").first.click()
            run_until(page, "() => window.__summary.shown", served=served(game, match_id))
            shown = page.evaluate("window.__summary.shown")
            page.clock.run_for(shown + summary_ms - 100 - now(page))
            assert page.locator(f"#hand-summary[data-hand='{hand}']").count() == 1
            run_until(page, "() => window.__summary.gone", step_ms=50)
            lasted = page.evaluate("window.__summary.gone") - shown
            assert abs(lasted - summary_ms) <= 50, lasted  # (a frame either way at instant)
            page.clock.resume()
            if hand < 7:
                wait_for_my_move(page)
                assert page.locator("#score-sheet tbody tr").count() == hand + 1
                assert view0(game, match_id)["hand"] == hand + 1
        if pace is None:
            page.wait_for_selector("#standings")
            assert page.locator("#score-sheet tbody tr").count() == 8
        assert page.js_errors == []


def test_the_pace_and_the_four_colour_suits_are_kept(
    browser: Any, stub: tuple[LiveServer, StubGame], artifacts: Path
) -> None:
    server, _ = stub
    with table_page(browser, server.url, pace="normal") as (page, _match_id):
        wait_for_my_move(page)
        red = page.locator("#hand .card.suit-D, #hand .card.suit-H").first
        assert red.evaluate("e => getComputedStyle(e).color") == "rgb(192, 38, 45)"
        page.click(".table-settings summary")
        page.select_option("#pace", "fast")
        page.check("#four-colour")
        assert page.evaluate("localStorage.getItem('king.pace')") == "fast"
        reload_table(page)
        assert page.locator("#table.four-colour").count() == 1
        colours = page.locator("#hand .card").evaluate_all(
            "els => els.map((e) => [e.dataset.card[1], getComputedStyle(e).color])"
        )
        expected = {"S": "rgb(27, 27, 27)", "H": "rgb(192, 38, 45)", "D": "rgb(29, 95, 191)",
                    "C": "rgb(19, 128, 59)"}  # fmt: skip
        assert all(colour == expected[suit] for suit, colour in colours), colours
        page.screenshot(path=str(artifacts / "table-four-colour-1280.png"))


def test_a_hand_the_bots_finish_between_two_polls_still_ends_on_its_summary(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """The log keeps the write that ended a hand and what follows it (docs/game-api.md,
    Events). When the bots play the last cards of a hand between two polls, the poll answers
    ``reset`` with that write; the page plays it through (at the fast pace, on the page's
    clock): the whole last trick, then the hand's summary with the hand_scored event's
    points."""
    server, game = stub

    def two_bots_after_me_in_the_last_trick(state: MatchState) -> bool:
        return state.trick_no == 12 and state.current_player == 0 and state.trick_count <= 1

    with clocked_table(browser, server.url, pace="fast") as (page, match_id):
        resets: list[bool] = []
        page.on(
            "response",
            lambda r: resets.append(r.json()["reset"]) if "/events?" in r.url else None,
        )
        for _attempt in range(4):  # the deal decides whether a match has such a trick
            wait_for_my_move(page)
            advance(game, match_id, two_bots_after_me_in_the_last_trick, contract="tricks")
            state = state_of(game, match_id)
            if not state.is_over:
                break
            page.goto(server.url + "/")
            page.wait_for_selector("#create-form")
            match_id = create_computer_table(page)
        assert not state.is_over, "no match had two bots after me in a 13th trick"
        hand = state.hand_index
        reload_table(page)
        page.evaluate(RECORDER_JS)
        pause(page)
        page.locator("#hand.active .card.legal").first.click()
        run_until(
            page,
            "h => document.querySelector(`#hand-summary[data-hand='${h}']`)",
            hand,
            served=served(game, match_id),
        )
        assert True in resets, "the poll answered reset"
        events = game.matches[match_id].events
        scored = next(e for e in events if e["type"] == "hand_scored" and e["hand"] == hand)
        points = [int(text) for text in page.locator("#hand-summary .hp").all_inner_texts()]
        assert points == scored["points"]
        last = next(e for e in events if e["type"] == "trick_won" and e["hand"] == hand and
                    e["trick"] == 12)  # fmt: skip
        felt = page.evaluate("window.__felt")
        full = [e["cards"] for e in felt if len(e["cards"]) == 4]
        assert full and sorted(c.split(":")[1] for c in full[-1]) == sorted(last["cards"])
        at = {card: int(seat) for seat, card in (c.split(":") for c in full[-1])}
        leader = at[last["cards"][0]]
        assert [at[card] for card in last["cards"]] == [(leader + i) % 4 for i in range(4)]
        assert page.js_errors == []


def test_the_standings_wait_for_the_read_that_says_the_match_ended(
    browser: Any, stub: tuple[LiveServer, StubGame]
) -> None:
    """The events that end a match can be played out before a read of the match says it
    ended (its places, its çıkar / batar). Until such a read arrives the page shows no
    standings: here every read after my last card answers the match as it was before it,
    until the test lets the real answer through."""
    server, game = stub

    def my_card_ends_it(state: MatchState) -> bool:
        """The last trick of the match, me to play: the bots' cards after mine end it."""
        last_hand = state.hand_index == state.num_hands - 1
        return last_hand and state.trick_no == 12 and state.current_player == 0

    with table_page(browser, server.url, pace="instant") as (page, match_id):
        for _attempt in range(4):  # the deal decides whether the last hand has a 13th trick
            wait_for_my_move(page)
            advance(game, match_id, my_card_ends_it, contract="tricks")
            if not state_of(game, match_id).is_over:
                break
            page.goto(server.url + "/")
            page.wait_for_selector("#create-form")
            match_id = create_computer_table(page)
        assert not state_of(game, match_id).is_over, "no match reached a 13th trick at its end"
        reload_table(page)
        token = json.loads(page.evaluate("localStorage.getItem('king.session')"))["token"]
        # The match as it is before my last card: what the held reads answer.
        before = call(server.url, "GET", f"/v1/matches/{match_id}", token)
        assert before["status"] == "active"
        held: dict[str, Any] = {"on": True, "served": 0, "body": before, "final": None}

        def reads(route: Any) -> None:
            response = route.fetch()
            body = response.json()
            if body["status"] == "active":
                held["body"] = body
            elif held["on"]:
                held["served"] += 1
                route.fulfill(response=response, json=held["body"])
                return
            else:
                held["final"] = body
            route.fulfill(response=response)

        page.route(f"**/v1/matches/{match_id}", reads)
        page.locator("#hand.active .card.legal").first.click()
        page.wait_for_selector("#summary-continue")
        page.click("#summary-continue")
        deadline = time.monotonic() + 15
        while held["served"] < 3:  # the page has read again since the summary closed
            assert time.monotonic() < deadline, "the page did not read the match again"
            page.wait_for_timeout(50)
        assert page.locator("#standings").count() == 0
        assert page.get_attribute("#table", "data-phase") != "over"
        held["on"] = False
        page.wait_for_selector("#standings")
        places = page.locator("#standings li").evaluate_all(
            "ls => Object.fromEntries(ls.map((l) => [l.dataset.seat, Number(l.dataset.place)]))"
        )
        final = held["final"]
        assert isinstance(final, dict) and final["status"] == "finished"
        assert places == {str(seat): place for seat, place in enumerate(final["places"])}
        assert page.js_errors == []
