"""An `international` computer match played to its end in Chromium, on the real game service
with its bot worker, once on each deck (52 cards in English, 32 cards in Turkish).

The page is driven only through what it draws: the auction's buttons, the contract buttons, the
legal cards and each hand's Continue. At every move the buttons on the page are exactly the
view's ``legal_moves`` (read from the API with the page's own session). Each hand's settlement
on the page is compared with the match body's score sheet, and that row with the scores the
spec's formulas give (RULES-international.md R1.6, R2.7, R3.8, R4.2, R5.2; worked out here,
not read from the client). At the end the standings are the match totals (sum 0), Verify deck
passes on the table and on the history page, and the replay's totals are the match's.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from king_engine import deal as kingdeal
from king_engine import format_cards

from .live_game import call, game_service
from .play import horizontal_overflow, sign_in_as_guest
from .servers import LiveServer
from .test_turkish import english_on

pytestmark = [pytest.mark.integration, pytest.mark.slow]

try:
    import king_game.app  # noqa: F401
except ImportError as missing:  # the game service is not installed in this environment
    pytest.skip(f"the game service cannot be imported: {missing}", allow_module_level=True)

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
READY_JS = """() => {
  const table = document.querySelector('#table');
  if (!table || !table.dataset.version) return false;
  if (table.dataset.phase === 'over') return document.querySelector('#standings') !== null;
  return document.querySelector(
    '#summary-continue, #intl-actions button, #hand.active .card.legal') !== null;
}"""


@pytest.fixture(scope="module")
def game_server(redis_url: str, database_url: str) -> Iterator[LiveServer]:
    with game_service(redis_url, database_url, db=14, bots=True) as server:
        yield server


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


class Driver:
    """Seat 0 of one match: reads the match as the page's session, clicks what the page offers."""

    def __init__(self, page: Any, base: str, deck: int, artifacts: Path, tag: str) -> None:
        self.page = page
        self.base = base
        self.deck = deck
        self.artifacts = artifacts
        self.tag = tag
        self.token = json.loads(page.evaluate("localStorage.getItem('king.session')"))["token"]
        self.match_id = str(page.evaluate("location.hash.split('/')[2]"))
        self.settled: set[int] = set()
        self.shots: set[str] = set()
        self.my_bids: set[int] = set()
        self.auction_moves: list[str] = []

    def body(self) -> Any:
        return call(self.base, "GET", f"/v1/matches/{self.match_id}", self.token)

    def shot(self, name: str, once: bool = True) -> None:
        if once and name in self.shots:
            return
        self.shots.add(name)
        path = self.artifacts / f"international-{self.tag}-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        if self.tag.endswith("tr"):
            assert english_on(self.page) == [], name

    def offered(self, selector: str, attribute: str) -> tuple[str, list[str]]:
        """The table's version and what it offers, read in one step (no redraw in between)."""
        version, moves = self.page.evaluate(
            """([sel, attr]) => [document.querySelector('#table').dataset.version,
                [...document.querySelectorAll(sel)].map(b => b.getAttribute(attr))]""",
            [selector, attribute],
        )
        return str(version), list(moves)

    def body_at(self, version: str) -> Any:
        for _ in range(50):
            body = self.body()
            if str(body["version"]) == version:
                return body
            time.sleep(0.05)
        raise AssertionError(f"the match never read at version {version}")

    def check_summary(self) -> None:
        # One read of the whole summary: at the fast pace it closes by itself after 4 s.
        hand, rows, rule = self.page.evaluate(
            """() => [+(document.querySelector('#hand-summary')?.dataset.hand ?? -1),
                [...document.querySelectorAll('#settlement tbody tr')].map(tr => ({
                seat: +tr.dataset.seat, base: +tr.dataset.base, payment: +tr.dataset.payment,
                points: +tr.dataset.points, total: +tr.dataset.total, tricks: +tr.dataset.tricks,
                shown: tr.querySelector('.hp').textContent })),
                document.querySelector('#settlement-rule')?.textContent ?? ''];"""
        )
        if hand < 0 or hand in self.settled:
            return
        sheet = self.body()["view"]["scores"]["sheet"]
        row = next(r for r in sheet if r["hand"] == hand)
        shown = [r["points"] for r in sorted(rows, key=lambda r: r["seat"])]
        assert shown == row["points"], (hand, rows, row)
        assert [int(r["shown"]) for r in sorted(rows, key=lambda r: r["seat"])] == row["points"]
        totals = [sum(r2["points"][s] for r2 in sheet if r2["hand"] <= hand) for s in range(4)]
        assert [r["total"] for r in sorted(rows, key=lambda r: r["seat"])] == totals
        v = VALUES[self.deck]
        if hand < 6:
            assert sum(row["points"]) == v["negative"][hand], row
            if hand == 0:  # R1.6: a fixed penalty per trick
                assert row["points"] == [
                    v["negative"][0] // v["per_seat"] * t for t in row["tricks"]
                ]
        else:
            assert sum(row["points"]) == v["total"], row
            assert row["points"] == expected_points(row, self.deck), row
            for r in rows:  # the page's base and payment add up to the score it shows
                assert r["base"] + r["payment"] == r["points"], (hand, r)
            assert [r["tricks"] for r in sorted(rows, key=lambda r: r["seat"])] == row["tricks"]
            if row["outcome"] == "sold":
                assert str(bid_value(row["price"], self.deck)) in rule, rule
            self.shot(f"settlement-{row['outcome']}")
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

    def move(self) -> None:
        """Make seat 0's next move through the page (the match is at seat 0's turn)."""
        page = self.page
        if page.locator("#intl-actions button").count():
            version, moves = self.offered("#intl-actions button", "data-move")
            body = self.body_at(version)
            view = body["view"]
            assert body["my_turn"], view["phase"]
            assert moves == view["legal_moves"], (moves, view["legal_moves"])  # same order too
            phase = str(page.get_attribute("#intl-actions", "data-phase"))
            assert phase == view["phase"]
            self.check_auction(view)
            self.shot(f"{phase}")
            if self.tag.endswith("tr") and "phone" not in self.shots:
                # The auction on a phone: the panel and the buttons stay inside the screen.
                page.set_viewport_size({"width": 390, "height": 844})
                self.shot("phone")
                assert horizontal_overflow(page) == []
                page.set_viewport_size({"width": 1280, "height": 900})
            move = self.choose(phase, moves, view)
            self.auction_moves.append(move)
            page.click(f'#intl-actions button[data-move="{move}"]')
        else:
            version, cards = self.offered("#hand.active .card.legal", "data-card")
            body = self.body_at(version)
            view = body["view"]
            assert body["my_turn"] and view["phase"] == "play"
            assert sorted(cards) == sorted(view["legal_moves"]), (cards, view["legal_moves"])
            held = page.locator("#hand .card").count()
            assert held == len(view["my_cards"])
            if held == VALUES[self.deck]["per_seat"]:
                self.shot(
                    f"dealt-hand{view['hand_index']}" if view["hand_index"] in (0, 6) else "dealt"
                )
            if view["hand_index"] >= 6 and view["trick_no"] == 1:
                self.shot("positive-play")
            page.click(f'#hand.active .card.legal[data-card="{cards[0]}"]')
        page.wait_for_function(
            "v => document.querySelector('#table')?.dataset.version !== v", arg=version
        )

    def play(self, max_steps: int = 600) -> None:
        for _ in range(max_steps):
            self.page.wait_for_function(READY_JS, timeout=90_000)
            if self.page.get_attribute("#table", "data-phase") == "over":
                return
            if self.page.locator("#summary-continue").count():
                self.check_summary()
                with contextlib.suppress(Exception):  # the summary may close itself meanwhile
                    self.page.click("#summary-continue", timeout=2_000)
                continue
            self.move()
        raise AssertionError("the match did not end")


def create_international(page: Any, deck_label: str) -> None:
    page.select_option("#create-mode", "computer:easy")
    page.select_option("#create-ruleset", "international")
    page.wait_for_selector("#create-options:not([hidden])")
    page.select_option("#create-hands", "10")
    page.select_option("#create-option-deck", label=deck_label)
    page.click("#create-button")
    page.wait_for_selector("#table[data-version]")


@pytest.mark.parametrize(
    ("deck", "lang", "deck_label"),
    [(52, "en", "52 cards (13 each)"), (32, "tr", "32 kart, yediliden asa (kişi başı 8)")],
)
def test_whole_match_in_the_browser(
    browser: Any, game_server: LiveServer, artifacts: Path, deck: int, lang: str, deck_label: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(30_000)
    context.add_init_script(
        f"localStorage.setItem('king.pace', 'fast'); localStorage.setItem('king.lang', '{lang}')"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        sign_in_as_guest(page, game_server.url, "Uluslararası")
        create_international(page, deck_label)
        driver = Driver(page, game_server.url, deck, artifacts, f"{deck}-{lang}")
        first = driver.body()
        assert first["ruleset"] == "international"
        assert first["view"]["deck"] == deck and first["options"]["deck"] == deck
        driver.play()
        assert errors == []

        over = driver.body()
        assert over["status"] == "finished"
        view = over["view"]
        sheet = view["scores"]["sheet"]
        assert [r["hand"] for r in sheet] == list(range(10))
        assert driver.settled == set(range(10)), sorted(driver.settled)
        totals = view["scores"]["totals"]
        assert sum(totals) == 0  # R1.1: every match sums to 0
        assert totals == [sum(r["points"][s] for r in sheet) for s in range(4)]
        # The auction buttons were pressed: at least one bid or decision of seat 0's.
        assert any(m != "pass" for m in driver.auction_moves), driver.auction_moves
        for seat, total in enumerate(totals):
            row = page.locator(f'#standings li[data-seat="{seat}"]')
            assert row.inner_text().split(" — ")[1].split(" ")[0] == str(total)
        cells = page.locator("#score-sheet tfoot th").all_inner_texts()[2:]
        assert [int(c) for c in cells] == totals
        # Every hand as dealt to this seat was kept for Verify deck (8 or 13 cards each).
        record = json.loads(page.evaluate(f"localStorage.getItem('king.match.{driver.match_id}')"))
        assert sorted(record["hands"], key=int) == [str(h) for h in range(10)]
        assert {len(cards) for cards in record["hands"].values()} == {VALUES[deck]["per_seat"]}
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
        page.goto(f"{game_server.url}/#/history/{driver.match_id}")
        page.wait_for_selector("#replay-verify-pass, #replay-verify-fail", timeout=30_000)
        assert page.locator("#replay-verify-pass").count() == 1, page.inner_text("#replay-verify")
        for seat, total in enumerate(totals):
            text = page.inner_text(f'#replay-standings li[data-seat="{seat}"]')
            assert text.split(" — ")[1].split(" ")[0] == str(total), text
        page.click("#hand-7")
        assert page.locator("#replay-auction").count() == 1
        driver.shot("history", once=False)
        assert errors == []
    finally:
        context.close()


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
