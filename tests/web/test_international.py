"""`international` in Chromium on the session's real game service (``game_server``: the app
factory with its bot worker), at the instant pace.

One whole match is played in the page, on the 52-card deck in English. The page is driven only
through what it draws: the auction's buttons, the contract buttons, the legal cards and each
hand's Continue. At every move the buttons on the page are exactly the view's ``legal_moves``
(read from the API with the page's own session) and the auction panel (ladder, log with auto
moves marked, auctioneer, priority) is the view's. Each hand's settlement on the page is
compared with the match body's score sheet, and that row with the scores the spec's formulas
give (RULES-international.md R1.6, R2.7, R3.8, R4.2, R5.2; worked out here, not read from the
client). At the end the standings are the match totals (sum 0), Verify deck passes on the table
(every hand kept, 13 cards each; the first dealer re-drawn) and on the history page, and the
replay's totals are the match's.

The 32-card deck is played in Turkish on a phone without a second whole match in the page: the
page plays the first hand (8 cards each, a negative hand's settlement), the API plays the next
five with the page's session, the page plays the first positive hand (the 32-card auction and
ladder, a positive hand's settlement) and the API the rest. Every row of the score sheet then
has the 32-card values; the page shows the standings, Verify deck passes (the first dealer
re-drawn) and the replay verifies. No screen of it, auction phases included, has an English
word or anything wider than the phone (but for a positive hand's settlement table: a known
layout bug, see ``Driver.check_summary``).

Without a match, in the page: the client's settlement of the spec's worked examples, both
ladders and the trick winner, and Verify deck on an engine-built 32-card transcript.
"""

from __future__ import annotations

import json
import time
import urllib.error
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from king_engine import deal as kingdeal
from king_engine import format_cards

from .live_game import call
from .pages import DESKTOP, PHONE, new_page, sign_in_as_guest
from .play import OVERFLOW_JS, horizontal_overflow
from .servers import LiveServer
from .test_turkish import ENGLISH_ON_PAGE_JS, english_on

pytestmark = [pytest.mark.integration, pytest.mark.slow]

# R5.2, per deck: plus unit, minus unit, positive hand total, annul scores (auctioneer, other),
# the six negative hands' totals.
VALUES = {
    52: {"plus": 25, "minus": 75, "total": 325, "annul": (100, 75),
         "negative": (-260, -260, -200, -240, -160, -180), "per_seat": 13},
    32: {"plus": 40, "minus": 120, "total": 320, "annul": (95, 75),
         "negative": (-320, -160, -200, -240, -160, -200), "per_seat": 8},
}  # fmt: skip
# R3.2 and R5.2: the ladder, lowest first, and what each bid pays.
LADDER = {
    52: [("+1", 25), ("+2", 50), ("+3", 75), ("-1", 75), ("+4", 100), ("+5", 125), ("+6", 150),
         ("-2", 150), ("+7", 175), ("+8", 200)],
    32: [("+1", 40), ("+2", 80), ("+3", 120), ("-1", 120), ("+4", 160), ("+5", 200)],
}  # fmt: skip
DECK_LABELS = {52: "52 cards (13 each)", 32: "32 kart, yediliden asa (kişi başı 8)"}
# What the Driver waits for, once the table is drawn at another version than ``v`` (any, if
# None; with ``quiet``, once no summary is up): "auction" or "cards" at seat 0's move, "summary"
# at a hand's summary, "over" at the standings; false until then.
READY_JS = """([v, quiet]) => {
  const table = document.querySelector('#table');
  if (!table || !table.dataset.version || table.dataset.version === v) return false;
  if (table.dataset.phase === 'over') return document.querySelector('#standings') && 'over';
  if (document.querySelector('#summary-continue')) return !quiet && 'summary';
  if (document.querySelector('#intl-actions button')) return 'auction';
  return document.querySelector('#hand.active .card.legal') !== null && 'cards';
}"""
# What the table offers, read in one step (no redraw in between): the version it is drawn
# at, the auction's phase and buttons, the legal cards and how many cards the hand holds.
OFFERED_JS = """() => ({
  version: document.querySelector('#table').dataset.version,
  phase: document.querySelector('#intl-actions')?.dataset.phase ?? null,
  moves: [...document.querySelectorAll('#intl-actions button')].map(b => b.dataset.move),
  cards: [...document.querySelectorAll('#hand.active .card.legal')].map(c => c.dataset.card),
  held: document.querySelectorAll('#hand .card').length })"""
# At the instant pace a hand's summary closes by itself after 1.5 s: the Driver makes it wait
# for Continue (the client's own pace table, changed in this page only), which it presses once
# it has read the summary; the pace of the moves stays instant.
HOLD_SUMMARY_JS = """async () => {
  (await import('/web/table-playback.js')).PACES.instant.summary = 600000;
}"""
# The summary is read once it has its score sheet row (the view read after the hand's events).
SUMMARY_ROW_JS = """() => !document.querySelector('#hand-summary')
  || document.querySelector('#settlement-rule') !== null"""
# The whole summary in one step, with what sticks out of the screen and the English words on it.
SUMMARY_JS = f"""async (turkish) => {{
  const read = [+(document.querySelector('#hand-summary')?.dataset.hand ?? -1),
    document.querySelector('#hand-summary')?.dataset.kind ?? '',
    [...document.querySelectorAll('#settlement tbody tr')].map(tr => ({{
      seat: +tr.dataset.seat, base: +tr.dataset.base, payment: +tr.dataset.payment,
      points: +tr.dataset.points, total: +tr.dataset.total, tricks: +tr.dataset.tricks,
      shown: tr.querySelector('.hp').textContent }})),
    document.querySelector('#settlement-rule')?.textContent ?? '',
    ({OVERFLOW_JS})()];
  read.push(turkish ? await ({ENGLISH_ON_PAGE_JS})() : []);
  return read;
}}"""


def bid_value(bid: str, deck: int) -> int:
    unit = VALUES[deck]["minus"] if bid.startswith("-") else VALUES[deck]["plus"]
    return unit * int(bid[1:])


def expected_points(row: dict[str, Any], deck: int) -> list[int]:
    """A positive hand's scores by R4.2 from its tricks, buyer and price."""
    v = VALUES[deck]
    dealer = row["dealer"]
    if row["outcome"] == "annulled":
        return [v["annul"][0] if s == dealer else v["annul"][1] for s in range(4)]
    if row["contract"] == "minus":
        points = [v["total"] - v["minus"] * t for t in row["tricks"]]
    else:
        points = [v["plus"] * t for t in row["tricks"]]
    if row["outcome"] == "sold":
        value = bid_value(row["price"], deck)
        points[row["buyer"]] -= value
        points[dealer] += value
    return points


def check_row(row: dict[str, Any], deck: int) -> None:
    """A score sheet row has the deck's values: a negative hand its fixed total (hand 0 a fixed
    penalty per trick, R1.6), a positive one the R4.2 scores of its tricks, buyer and price."""
    v = VALUES[deck]
    hand = row["hand"]
    if hand < 6:
        assert sum(row["points"]) == v["negative"][hand], row
        if hand == 0:
            assert row["points"] == [v["negative"][0] // v["per_seat"] * t for t in row["tricks"]]
    else:
        assert sum(row["points"]) == v["total"], row
        assert row["points"] == expected_points(row, deck), row


class Driver:
    """Seat 0 of one match: reads the match as the page's session, clicks what the page offers.

    Every screenshot of a Turkish page checks that no English word is on it, and every one of a
    phone page that nothing sticks out of the screen sideways."""

    def __init__(self, page: Any, base: str, deck: int, artifacts: Path, tag: str) -> None:
        self.page = page
        self.base = base
        self.deck = deck
        self.artifacts = artifacts
        self.tag = tag
        self.turkish = tag.endswith("tr")
        self.phone = page.viewport_size["width"] <= PHONE[0]
        self.token = json.loads(page.evaluate("localStorage.getItem('king.session')"))["token"]
        self.match_id = str(page.evaluate("location.hash.split('/')[2]"))
        self.settled: set[int] = set()
        self.dealt: set[int] = set()  # the hands whose whole deal the page showed
        self.shots: set[str] = set()
        self.my_bids: set[int] = set()
        self.auction_moves: list[str] = []
        #: READY_JS's arguments: the version of the last move made, whether a summary was closed.
        self.after: list[Any] = [None, False]
        page.evaluate(HOLD_SUMMARY_JS)

    def body(self) -> Any:
        return call(self.base, "GET", f"/v1/matches/{self.match_id}", self.token)

    def shot(self, name: str, once: bool = True, fits: bool = True) -> None:
        if once and name in self.shots:
            return
        self.shots.add(name)
        path = self.artifacts / f"international-{self.tag}-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        if self.turkish:
            assert english_on(self.page) == [], name
        if self.phone and fits:
            assert horizontal_overflow(self.page) == [], name

    def body_at(self, version: str) -> Any:
        for _ in range(100):
            body = self.body()
            if str(body["version"]) == version:
                return body
            time.sleep(0.05)
        raise AssertionError(f"the match never read at version {version}")

    def check_summary(self) -> None:
        self.page.wait_for_function(SUMMARY_ROW_JS, timeout=15_000)
        hand, kind, rows, rule, overflow, english = self.page.evaluate(SUMMARY_JS, self.turkish)
        if hand < 0 or hand in self.settled:
            return
        # A positive hand's settlement (six columns) is still wider than a 390-px phone when its
        # numbers are long (a known layout bug of the client): only the negative hands' is held
        # to the phone's width here.
        self.shot(f"settlement-{kind}", fits=kind == "negative")
        assert overflow == [] or not self.phone or kind != "negative", (hand, overflow)
        assert english == [], (hand, english)
        sheet = self.body()["view"]["scores"]["sheet"]
        row = next(r for r in sheet if r["hand"] == hand)
        by_seat = sorted(rows, key=lambda r: r["seat"])
        assert [r["points"] for r in by_seat] == row["points"], (hand, rows, row)
        assert [int(r["shown"]) for r in by_seat] == row["points"]
        totals = [sum(r2["points"][s] for r2 in sheet if r2["hand"] <= hand) for s in range(4)]
        assert [r["total"] for r in by_seat] == totals
        check_row(row, self.deck)
        if hand >= 6:
            for r in rows:  # the page's base and payment add up to the score it shows
                assert r["base"] + r["payment"] == r["points"], (hand, r)
            assert [r["tricks"] for r in by_seat] == row["tricks"]
            if row["outcome"] == "sold":
                assert str(bid_value(row["price"], self.deck)) in rule, rule
        self.settled.add(hand)

    def check_auction(self, view: dict[str, Any]) -> None:
        """The auction panel: the ladder of the deck, the top bid marked, the log as the view's
        (auto moves marked), the auctioneer and the priority order."""
        panel = self.page.evaluate(
            """() => ({
              ladder: [...document.querySelectorAll('#ladder li')].map(
                li => [li.dataset.bid, +li.dataset.value, li.classList.contains('top')]),
              log: [...document.querySelectorAll('#auction-log li')].map(
                li => [+li.dataset.seat, li.dataset.move, li.dataset.auto === '1']),
              autoBadges: document.querySelectorAll('#auction-log li .badge.auto').length,
              auctioneer: document.querySelector('#auctioneer').dataset.seat,
              priority: document.querySelector('#priority').dataset.order })"""
        )
        assert panel["ladder"] == [[b, v, b == view["top_bid"]] for b, v in LADDER[self.deck]]
        log = [[e["seat"], e["move"], e["auto"]] for e in view["auction_log"]]
        assert panel["log"] == log
        assert panel["autoBadges"] == sum(1 for e in log if e[2])
        dealer = view["dealer"]
        assert panel["auctioneer"] == str(dealer)
        assert panel["priority"] == ",".join(str((dealer + k) % 4) for k in (1, 2, 3))

    def choose(self, phase: str, moves: list[str], view: dict[str, Any]) -> str:
        """Seat 0's auction move: bid once a hand, then pass; as auctioneer annul when the 52-card
        match may, else demand the lowest ultimatum (32) or accept; take an ultimatum on 32."""
        hand = view["hand_index"]
        if phase == "bidding":
            raises = [m for m in moves if m.startswith("bid:") and m[4:] != view["top_bid"]]
            if hand not in self.my_bids and raises:
                self.my_bids.add(hand)
                return raises[0]
            return "pass"
        if phase == "decision":
            order = ["annul", "accept", "refuse"] if self.deck == 52 else []
            demands = [m for m in moves if m.startswith("ultimatum:")]
            for move in [*order, *demands[:1], "accept", "refuse"]:
                if move in moves:
                    return move
        if phase == "ultimatum":
            return "take" if self.deck == 32 else "decline"
        if phase == "contract":  # each hand another contract: the list is in the view's order
            return moves[hand % len(moves)]
        return moves[0]

    def move(self, kind: str) -> None:
        """Make seat 0's next move through the page (the match is at seat 0's turn): a button
        of the auction's (``kind`` "auction") or a legal card ("cards")."""
        page = self.page
        offered = page.evaluate(OFFERED_JS)
        version = str(offered["version"])
        body = self.body_at(version)
        view = body["view"]
        assert body["my_turn"], view["phase"]
        if kind == "auction":
            moves = offered["moves"]
            assert moves == view["legal_moves"], (moves, view["legal_moves"])  # same order too
            phase = offered["phase"]
            assert phase == view["phase"]
            self.check_auction(view)
            self.shot(f"{phase}")
            move = self.choose(phase, moves, view)
            self.auction_moves.append(move)
            target = f'#intl-actions button[data-move="{move}"]'
        else:
            cards = offered["cards"]
            assert view["phase"] == "play"
            assert sorted(cards) == sorted(view["legal_moves"]), (cards, view["legal_moves"])
            held = offered["held"]
            assert held == len(view["my_cards"])
            if held == VALUES[self.deck]["per_seat"]:
                self.dealt.add(view["hand_index"])
                self.shot(
                    f"dealt-hand{view['hand_index']}" if view["hand_index"] in (0, 6) else "dealt"
                )
            if view["hand_index"] >= 6 and view["trick_no"] == 1:
                self.shot("positive-play")
            target = f'#hand.active .card.legal[data-card="{cards[0]}"]'
        # Clicked in the page's own script (one step): Playwright's waits before a click are
        # for pages that move, and this table is caught up and waits for seat 0.
        page.evaluate("selector => document.querySelector(selector).click()", target)
        self.after = [version, False]

    def play(self, stop: Callable[[Driver], bool] | None = None, max_steps: int = 600) -> None:
        """Play through the page until the match is over, or until ``stop`` holds after a hand's
        summary was checked."""
        for _ in range(max_steps):
            kind = self.page.wait_for_function(READY_JS, arg=self.after, timeout=60_000)
            kind = kind.json_value()
            self.after = [None, False]
            if kind == "over":
                return
            if kind == "summary":
                self.check_summary()
                self.page.evaluate("document.querySelector('#summary-continue')?.click()")
                self.after = [None, True]
                if stop is not None and stop(self):
                    return
                continue
            self.move(kind)
        raise AssertionError("the match did not end")


def play_by_api(base: str, token: str, match_id: str, until: Callable[[Any], bool]) -> Any:
    """Seat 0's first legal move (a pass in an auction) through the API until ``until(body)``
    or the end of the match: the last body read."""
    deadline, after = time.monotonic() + 120, 0
    while time.monotonic() < deadline:
        match = call(base, "GET", f"/v1/matches/{match_id}", token)
        if match["status"] != "active" or until(match):
            return match
        if not match["my_turn"]:  # wait for the bots' next move (long-poll)
            after = call(base, "GET", f"/v1/matches/{match_id}/events?after={after}&wait=5",
                         token)["last_seq"]  # fmt: skip
            continue
        moves = match["view"]["legal_moves"]
        move = "pass" if "pass" in moves else moves[0]
        try:
            call(base, "POST", f"/v1/matches/{match_id}/moves", token,
                 {"move": move, "version": match["version"]})  # fmt: skip
        except urllib.error.HTTPError as error:
            if error.code != 409:  # a stale version: read the match again
                raise
    raise AssertionError(f"match {match_id} did not get there through the API")


def create_international(page: Any, deck: int) -> None:
    page.select_option("#create-mode", "computer:easy")
    page.select_option("#create-ruleset", "international")
    page.wait_for_selector("#create-options:not([hidden])")
    page.select_option("#create-hands", "10")
    page.select_option("#create-option-deck", label=DECK_LABELS[deck])
    page.click("#create-button")
    page.wait_for_selector("#table[data-version]")


def start(page: Any, base: str, deck: int, artifacts: Path, tag: str) -> Driver:
    """A guest creates an international table on ``deck`` from the lobby's form."""
    sign_in_as_guest(page, base, "Uluslararası")
    create_international(page, deck)
    driver = Driver(page, base, deck, artifacts, tag)
    first = driver.body()
    assert first["ruleset"] == "international"
    assert first["view"]["deck"] == deck and first["options"]["deck"] == deck
    return driver


def check_the_end(driver: Driver, lang: str) -> list[int]:
    """The finished match on its table (standings, score sheet, Verify deck with the first
    dealer re-drawn) and on its history page (the replay's totals, its deck verified)."""
    page, over = driver.page, driver.body()
    assert over["status"] == "finished"
    view = over["view"]
    sheet = view["scores"]["sheet"]
    assert [r["hand"] for r in sheet] == list(range(10))
    for row in sheet:
        check_row(row, driver.deck)
    totals = view["scores"]["totals"]
    assert sum(totals) == 0  # R1.1: every match sums to 0
    assert totals == [sum(r["points"][s] for r in sheet) for s in range(4)]
    for seat, total in enumerate(totals):
        row = page.locator(f'#standings li[data-seat="{seat}"]')
        assert row.inner_text().split(" — ")[1].split(" ")[0] == str(total)
    cells = page.locator("#score-sheet tfoot th").all_inner_texts()[2:]
    assert [int(c) for c in cells] == totals
    # Every hand this page was dealt was kept for Verify deck (8 or 13 cards each).
    record = json.loads(page.evaluate(f"localStorage.getItem('king.match.{driver.match_id}')"))
    seen = {int(h) for h in record["hands"]}
    assert driver.dealt and driver.dealt <= seen, (sorted(seen), sorted(driver.dealt))
    assert {len(cards) for cards in record["hands"].values()} == {VALUES[driver.deck]["per_seat"]}
    page.click("#verify-button")
    page.wait_for_selector("#verify-pass, #verify-fail")
    driver.shot("end", once=False)
    assert page.locator("#verify-pass").count() == 1, page.inner_text("#verify-result")
    # R1.2: the first dealer is the opening draw's, re-drawn on this device.
    label = "first dealer" if lang == "en" else "ilk dağıtıcı"
    checks = page.locator("#verify-result .checks li").all_inner_texts()
    first_dealer = [c for c in checks if c.startswith(f"✔ {label}: ")]
    assert len(first_dealer) == 1, checks
    assert f" {view['first_dealer']}" in first_dealer[0], (first_dealer, view["first_dealer"])

    # The history page replays the transcript: the same totals, and the deck verifies.
    page.goto(f"{driver.base}/#/history/{driver.match_id}")
    page.wait_for_selector("#replay-verify-pass, #replay-verify-fail", timeout=30_000)
    assert page.locator("#replay-verify-pass").count() == 1, page.inner_text("#replay-verify")
    for seat, total in enumerate(totals):
        text = page.inner_text(f'#replay-standings li[data-seat="{seat}"]')
        assert text.split(" — ")[1].split(" ")[0] == str(total), text
    page.click("#hand-7")
    assert page.locator("#replay-auction").count() == 1
    driver.shot("history", once=False)
    return list(totals)


def test_whole_match_in_the_browser(browser: Any, game_server: LiveServer, artifacts: Path) -> None:
    """52 cards, English, on a desktop: every move of seat 0 through the page."""
    with new_page(browser, lang="en", size=DESKTOP, timeout_ms=30_000) as page:
        driver = start(page, game_server.url, 52, artifacts, "52-en")
        driver.play()
        assert page.js_errors == []
        assert driver.settled == set(range(10)), sorted(driver.settled)
        record = json.loads(page.evaluate(f"localStorage.getItem('king.match.{driver.match_id}')"))
        assert sorted(record["hands"], key=int) == [str(h) for h in range(10)]
        # The auction buttons were pressed: at least one bid or decision of seat 0's.
        assert any(m != "pass" for m in driver.auction_moves), driver.auction_moves
        check_the_end(driver, "en")
        assert page.js_errors == []


def test_32_card_match_in_turkish_on_a_phone(
    browser: Any, game_server: LiveServer, artifacts: Path
) -> None:
    """32 cards, Turkish, on a phone: the first hand and the first positive hand (its auction)
    through the page, the others through the API with the page's session."""
    with new_page(browser, lang="tr", size=PHONE, timeout_ms=30_000) as page:
        driver = start(page, game_server.url, 32, artifacts, "32-tr")
        table = page.url
        driver.play(stop=lambda d: bool(d.settled))
        assert driver.settled == {0}, sorted(driver.settled)
        # Hands 2-6 through the API, the page on the lobby meanwhile (it does not replay them).
        page.goto(f"{game_server.url}/#/")
        page.wait_for_selector("#create-form")
        at_six = play_by_api(
            game_server.url, driver.token, driver.match_id, lambda m: m["view"]["hand_index"] >= 6
        )
        assert at_six["status"] == "active" and at_six["view"]["hand_index"] == 6
        # The first positive hand through the page (and the next, should seat 0 have had no
        # auction move in it): a bid or a decision of seat 0's on the 32-card ladder.
        page.goto(table)
        driver.play(
            stop=lambda d: max(d.settled) >= 6 and any(m != "pass" for m in d.auction_moves)
        )
        assert 6 in driver.settled and any(m != "pass" for m in driver.auction_moves), (
            sorted(driver.settled),
            driver.auction_moves,
        )
        assert page.js_errors == []
        page.goto(f"{game_server.url}/#/")
        page.wait_for_selector("#create-form")
        play_by_api(game_server.url, driver.token, driver.match_id, lambda m: False)
        page.goto(table)
        page.wait_for_selector("#standings")
        driver.shot("standings")
        check_the_end(driver, "tr")
        assert page.js_errors == []


# ---------------------------------------------------------------- the client's own rules code

# RULES-international.md R4.4 and §5 (W1-W9): auctioneer, buyer, price, contract, tricks and the
# scores the spec states for them.
WORKED = [
    ("W1", 52, {"dealer": 2, "buyer": 0, "price": "+5", "contract": "trump:S",
                "tricks": [6, 2, 3, 2]}, [25, 50, 200, 50]),
    ("W2", 52, {"dealer": 3, "buyer": 1, "price": "-2", "contract": "minus",
                "tricks": [4, 3, 4, 2]}, [25, -50, 25, 325]),
    ("W3", 52, {"dealer": 0, "buyer": 2, "price": "+7", "contract": "notrump",
                "tricks": [5, 3, 4, 1]}, [300, 75, -75, 25]),
    ("W4", 52, {"dealer": 1, "buyer": None, "price": None, "contract": "trump:H",
                "tricks": [1, 7, 3, 2]}, [25, 175, 75, 50]),
    ("W5", 52, {"dealer": 2, "buyer": None, "price": None, "contract": None,
                "tricks": [0, 0, 0, 0], "outcome": "annulled"}, [75, 75, 100, 75]),
    ("W6", 52, {"dealer": 0, "buyer": 1, "price": "+8", "contract": "trump:D",
                "tricks": [1, 10, 1, 1]}, [225, 50, 25, 25]),
    ("W7", 52, {"dealer": 0, "buyer": 3, "price": "+8", "contract": "trump:C",
                "tricks": [2, 1, 1, 9]}, [250, 25, 25, 25]),
    ("W8", 52, {"dealer": 1, "buyer": None, "price": None, "contract": "minus",
                "tricks": [5, 1, 4, 3]}, [-50, 250, 25, 100]),
    ("W9", 32, {"dealer": 2, "buyer": 0, "price": "+4", "contract": "trump:D",
                "tricks": [4, 1, 2, 1]}, [0, 40, 240, 40]),
]  # fmt: skip

SETTLE_JS = """async (cases) => {
  const m = await import('/web/table-international.js');
  return cases.map(([size, row]) => {
    const s = m.settlementOf({ hand: 6, outcome: 'played', points: [0, 0, 0, 0], ...row }, size);
    return [s.kind, s.base.map((b, i) => b + s.payment[i])];
  });
}"""


def test_settlement_of_the_worked_examples(page: Any, static_server: LiveServer) -> None:
    """The table's base + payment is the spec's score in every worked case (R4.2, R5.2)."""
    page.goto(static_server.url + "/web/config.json")
    got = page.evaluate(SETTLE_JS, [[size, row] for _, size, row, _ in WORKED])
    for (name, _, row, want), (kind, scores) in zip(WORKED, got, strict=True):
        assert scores == want, name
        assert kind == ("annulled" if row.get("outcome") else "minus" if row["contract"] == "minus"
                        else "plus"), name  # fmt: skip


def test_ladder_and_trick_winner(page: Any, static_server: LiveServer) -> None:
    """A1's ladder and values on both decks; P3: with hearts trumps K♥ beats 2♥ and the led A♣."""
    page.goto(static_server.url + "/web/config.json")
    got = page.evaluate(
        """async () => {
          const m = await import('/web/table-international.js');
          const values = (size) => m.LADDER.slice(0, m.DECKS[size].ladder).map(
            (b) => [b, m.bidValue(b, size)]);
          const plays = [['AC', 0], ['2H', 1], ['KH', 2], ['3C', 3]].map(
            ([card, seat]) => ({ seat, card }));
          return { v52: values(52), v32: values(32), p3: m.trickWinner(plays, 'H'),
                   nt: m.trickWinner(plays, null) };
        }"""
    )
    assert got["v52"] == [list(x) for x in LADDER[52]]
    assert got["v32"] == [list(x) for x in LADDER[32]]
    assert got["p3"] == 2 and got["nt"] == 0


VERIFY_JS = """async ([transcript, stored]) => {
  const v = await import('/web/verify.js');
  const r = await v.verifyTranscript(transcript, stored, { lang: 'en' });
  return { ok: r.ok, checks: r.checks.map((c) => [c.check, c.ok]),
           problems: r.problems.map((p) => p.check) };
}"""


def test_verify_deck_on_an_international_32_card_transcript(
    page: Any, static_server: LiveServer
) -> None:
    """Verify deck re-deals a 32-card international deal (FAIRNESS.md's inputs), takes the card
    codes among its moves as the plays, and re-draws the first dealer; each wrong fact fails."""
    match_id = "00112233-4455-6677-8899-aabbccddeeff"
    server_seed = bytes(range(32))
    seeds = [bytes([b]) * 32 for b in (0x11, 0x22, 0x33, 0x44)]
    key = kingdeal.match_key(match_id, server_seed, seeds)
    first = kingdeal.opening_draw(key).winner
    hands = [format_cards(mask).split() for mask in kingdeal.deal_hand(key, 0, kingdeal.DECK_32)]
    # FAIRNESS.md's 32-card vector, deal 0, seat 0
    assert sorted(hands[0]) == sorted(["7C", "JD", "QD", "8H", "KH", "8S", "9S", "AS"])
    moves = [[s, hands[s][k]] for k in range(8) for s in range(4)]
    positive = [[1, "pass"], [2, "bid:+1"], [3, "pass"], [0, "accept"], [2, "contract:notrump"]]
    transcript = {
        "spec": "KINGDEAL-v1", "match_id": match_id,
        "server_commit": kingdeal.server_commit(match_id, server_seed),
        "server_seed": server_seed.hex(), "client_seeds": [c.hex() for c in seeds],
        "seed_sources": ["client"] * 4, "ruleset": "international", "num_hands": 10,
        "options": {"deck": 32, "annul_condition": "top_below_plus3"}, "first_declarer": first,
        "hands": [{"deal": 0, "hand": 0, "deck_size": 32, "dealer": first, "ended": "played",
                   "moves": positive + moves, "contract": "no_tricks"}],
    }  # fmt: skip
    stored = {"matchId": match_id, "commitment": transcript["server_commit"], "seat": 0,
              "seed": seeds[0].hex(), "hands": {"0": hands[0]}}  # fmt: skip
    page.goto(static_server.url + "/web/config.json")
    good = page.evaluate(VERIFY_JS, [transcript, stored])
    assert good["ok"], good
    assert ["first_dealer", True] in good["checks"]

    wrong_dealer = {**transcript, "first_declarer": (first + 1) % 4}
    assert page.evaluate(VERIFY_JS, [wrong_dealer, stored])["problems"] == ["first_dealer"]
    stolen = [[(s + 1) % 4, card] if i == 0 else [s, card] for i, (s, card) in enumerate(moves)]
    other_plays = {**transcript, "hands": [{**transcript["hands"][0], "moves": stolen}]}
    assert page.evaluate(VERIFY_JS, [other_plays, stored])["problems"] == ["plays"]
    as_52 = {**transcript, "hands": [{**transcript["hands"][0], "deck_size": 52}]}
    assert "own_hands" in page.evaluate(VERIFY_JS, [as_52, stored])["problems"]
