"""Konturlu King in Chromium on the session's game service (``game_server``: the app factory on
this run's Redis and Postgres, a real bot worker): a whole 32-hand match against easy computer
bots played in the page at the ``instant`` pace, its Verify deck and its replay; a live table
where a Rıfkı deal is cancelled; and engine-made transcripts for the replay's settlement and the
verifier.

The match is the one whole konturlu match the browser tests play in the page: the page names
seat 0's contracts (a Dürt first, Koz by suit), answers every call it is asked with a chosen
legal call (kontur, masa, söyleyen hariç, sür, iyi), plays its cards in trick play and onto the
Dürt layout, and presses on through the hands' settlements. What it shows is checked against
the match body: the contracts offered and, at every call, the call log, the pair table and the
speakers; at sampled turns the cards it may play and the Dürt layout; each settlement's lines
(kept as the summary is drawn) against that hand's row of the final sheet; and at the end
the sheet from +122, its row sums (the spec's contract totals, RULES-konturlu.md §6.1), the
totals, çıkar / batar, and each hand's score against an oracle written here from §5. The first
time each phase is on the table (contract choice, each round of calls, trick play with a
kontur, Dürt, a settlement) the page is also looked at 390×844: nothing sticks out sideways
and every button offered can be pressed where it shows. (The settlement looked at on the phone
is a 13-trick hand's: its last trick is played at the ``fast`` pace, whose summary stays up 4 s
rather than the instant pace's 1.5 s, long enough to be looked at before it closes itself.)
"""

from __future__ import annotations

import copy
import json
import random
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from king_engine import deal as kingdeal
from king_engine.cards import CARD_CODES
from king_engine.konturlu import KONTURLU
from king_match import fairness

from .live_game import Player, call
from .pages import DESKTOP, PHONE, create_computer_table, new_page, sign_in_as_guest
from .play import duplicate_ids, horizontal_overflow
from .servers import LiveServer
from .test_turkish import english_on

# The whole match is most of the module: about three minutes on a quiet 2-core machine (the
# page's re-renders and the service's reads, not the pace), up to nine on a busy one.
pytestmark = [
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.timeout(900),
]

#: RULES-konturlu.md §6.1: what the four scores of one hand of each contract add up to.
HAND_TOTALS = {"el": -65, "kupa": -39, "erkek": -48, "kiz": -40, "rifki": -30, "soniki": -30,
               "koz": 65, "durt": 65}  # fmt: skip
PENALTIES = {"el", "kupa", "erkek", "kiz", "rifki", "soniki"}
MULTIPLIER = {"kontur": 1, "sur": 2, "sur_auto": 2}
DESKTOP_SIZE = {"width": DESKTOP[0], "height": DESKTOP[1]}
PHONE_SIZE = {"width": PHONE[0], "height": PHONE[1]}
#: The buttons of ``sel`` that cannot be pressed where they show at this size: outside the
#: width, under something else once scrolled to, or too small to press.
UNREACHABLE_JS = """sel => {
  const buttons = [...document.querySelectorAll(sel)];
  const bad = buttons.filter(b => {
    b.scrollIntoView({ block: 'center', inline: 'nearest' });
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.left < 0 || r.right > innerWidth || r.height < 24 || r.width < 24 || !b.contains(hit);
  }).map(b => b.dataset.move || b.dataset.card || b.id || b.textContent);
  return { count: buttons.length, bad };
}"""
#: A settlement table's lines as drawn (base, transfers, eatings, scores, their sum; data-*).
LINES_JS = """t => {
  const ints = (s) => s.split(',').map(Number);
  return {
    hand: Number(t.dataset.hand),
    base: ints(t.querySelector('tr[data-line=base]').dataset.values),
    transfers: [...t.querySelectorAll('tr[data-line=transfer]')].map(r => ({
      to: +r.dataset.to, from: +r.dataset.from, multiplier: +r.dataset.multiplier,
      amount: +r.dataset.amount })),
    eaten: [...t.querySelectorAll('tr[data-line=eat]')].map(r => ({
      eaten: +r.dataset.eaten, eater: +r.dataset.eater, points: +r.dataset.points })),
    scores: ints(t.querySelector('tr[data-line=score]').dataset.values),
    sum: Number(t.querySelector('tr[data-line=sum]').dataset.sum),
  };
}"""
#: Run in the match's page before its scripts: every settlement a hand's summary shows is kept
#: in ``window.kSummaries`` by hand, read the moment it is drawn (the instant pace's summary
#: closes itself after 1.5 s, so the test does not rely on looking in time).
SUMMARIES_JS = (
    """addEventListener('DOMContentLoaded', () => {
  const lines = LINES;
  window.kSummaries = {};
  new MutationObserver(() => {
    const settle = document.querySelector('#summary-continue')
      && document.querySelector('#k-summary-settle');
    if (settle && !(settle.dataset.hand in window.kSummaries)) {
      window.kSummaries[settle.dataset.hand] = lines(settle);
    }
  }).observe(document.body, { childList: true, subtree: true });
});"""
).replace("LINES", LINES_JS)
#: What the page offers once it has caught up with a version other than ``v``: the summary's
#: Continue (with the settlement it shows), the picker's contracts, the call buttons or the
#: legal cards (or the standings); and what the driver decides by (the Dürt layout, a kontur
#: in the pair table, the cards left in hand).
SNAPSHOT_JS = (
    """v => {
  const table = document.querySelector('#table');
  if (!table || !table.dataset.version) return null;
  const moves = (sel, key) => [...document.querySelectorAll(sel)].map(b => b.dataset[key]);
  const settle = document.querySelector('#summary-continue')
    && document.querySelector('#k-summary-settle');
  const out = {
    version: table.dataset.version, phase: table.dataset.phase,
    over: table.dataset.phase === 'over' && document.querySelector('#standings') !== null,
    summary: document.querySelector('#summary-continue') !== null,
    lines: settle ? ("""
    + LINES_JS
    + """)(settle) : null,
    picker: moves('#contract-picker button', 'move'),
    calls: moves('#calls button', 'move'),
    cards: moves('#hand.active .card.legal', 'card'),
    durt: document.querySelector('#k-durt') !== null,
    kontur: document.querySelectorAll('#k-pairs-play td.kontur').length > 0,
    inHand: Number(document.querySelector('#hand')?.dataset.count ?? -1),
  };
  const ready = out.over || out.summary ||
    (out.version !== v && (out.picker.length || out.calls.length || out.cards.length));
  return ready ? out : null;
}"""
)


def oracle_scores(row: dict[str, Any]) -> list[int]:
    """A hand's four scores from its points and pairs, written from RULES-konturlu.md §5.4."""
    points = row["points"]
    m = [[0] * 4 for _ in range(4)]
    for pair, rel in row["pairs"].items():
        a, b = (int(x) for x in pair.split("-"))
        m[a][b] = m[b][a] = MULTIPLIER[rel]
    if row["contract"] not in PENALTIES:
        return [
            points[i] + sum(m[i][j] * (points[i] - points[j]) for j in range(4)) for i in range(4)
        ]
    scores = [
        -points[i] + sum(m[i][j] * (points[j] - points[i]) for j in range(4)) for i in range(4)
    ]
    for i in range(4):
        if points[i] <= 0:
            continue
        for tier in (2, 1):
            beaters = [j for j in range(4) if m[i][j] == tier and points[j] > points[i]]
            if beaters:
                most = max(points[j] for j in beaters)
                # Ties: the first of them in play order after the eaten seat (D17).
                after = [(i + k) % 4 for k in (1, 2, 3)]
                eater = next(j for j in after if j in beaters and points[j] == most)
                scores[i] += points[i]
                scores[eater] -= points[i]
                break
    return scores


def shown_lines(page: Any, table: str) -> dict[str, Any]:
    """The settlement lines a table shows: base, transfers, eatings, scores (from data-*)."""
    lines: dict[str, Any] = page.locator(table).evaluate(LINES_JS)
    return lines


def expected_lines(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "hand": row["hand"],
        "base": row["base"],
        "transfers": row["transfers"],
        "eaten": row["eaten"],
        "scores": row["scores"],
        "sum": HAND_TOTALS[row["contract"]],
    }


PAIRS_JS = """sel => Object.fromEntries([...document.querySelectorAll(sel + ' td[data-pair]')]
  .map(td => [td.dataset.pair, td.dataset.rel]))"""
CALLS_JS = """sel => [...document.querySelectorAll(sel + ' li[data-call]')].map(li => ({
  round: +li.dataset.round, seat: +li.dataset.seat, call: li.dataset.call }))"""


def related(cells: dict[str, str]) -> dict[str, str]:
    return {pair: rel for pair, rel in cells.items() if rel != "none"}


def shown_pairs(page: Any, table: str) -> dict[str, str]:
    """The pair table as drawn: each pair's relation (the cells above the diagonal)."""
    return related(page.evaluate(PAIRS_JS, table))


def shown_calls(page: Any, log: str) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = page.evaluate(CALLS_JS, log)
    return calls


def choose_call(legal: list[str], rng: random.Random) -> str:
    """Mostly a challenge, so that the pairs and their settlements get exercised."""
    bold = [m for m in legal if m != "iyi" and m != "boz"]
    return rng.choice(bold) if bold and rng.random() < 0.75 else "iyi"


class Driver:
    """Seat 0 in the browser, the match body read beside it through the API."""

    def __init__(self, page: Any, base: str, match_id: str, artifacts: Path) -> None:
        self.page, self.base, self.match_id, self.artifacts = page, base, match_id, artifacts
        self.token = json.loads(page.evaluate("localStorage.getItem('king.session')"))["token"]
        self.rng = random.Random(32)
        self.shots: set[str] = set()
        self.seen = {"calls_r1": 0, "calls_r2": 0, "durt": 0, "contract": 0, "reads": 0}
        self.acted: str | None = None
        self.turns = 0
        self.phoned: set[str] = set()
        #: The page is at phone size and the fast pace for the coming summary (see ``step``).
        self.summary_on_phone = False
        self.started = time.monotonic()

    def body(self) -> Any:
        self.seen["reads"] += 1
        return call(self.base, "GET", f"/v1/matches/{self.match_id}", self.token)

    def shot(self, name: str, full: bool = False) -> None:
        if name not in self.shots:
            self.shots.add(name)
            self.page.screenshot(path=str(self.artifacts / name), full_page=full)

    def phone(self, name: str, buttons: str) -> None:
        """The first time ``name`` is on the table: the page at 390×844 scrolls nowhere
        sideways and every button of ``buttons`` can be pressed; a screenshot."""
        if name in self.phoned:
            return
        self.phoned.add(name)
        page = self.page
        page.set_viewport_size(PHONE_SIZE)
        try:
            page.wait_for_function("w => innerWidth === w", arg=PHONE_SIZE["width"])
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), name
            assert horizontal_overflow(page) == [], name
            reach = page.evaluate(UNREACHABLE_JS, buttons)
            assert reach["count"] > 0 and reach["bad"] == [], (name, reach)
            page.evaluate("scrollTo(0, 0)")
            page.screenshot(path=str(self.artifacts / f"konturlu-{name}-390.png"), full_page=True)
        finally:
            page.set_viewport_size(DESKTOP_SIZE)

    def step(self) -> bool:
        """One move of seat 0 (or one summary pressed on); False once the match is over."""
        page = self.page
        try:
            snap = page.wait_for_function(SNAPSHOT_JS, arg=self.acted, timeout=30_000).json_value()
        except Exception as error:
            page.screenshot(path=str(self.artifacts / "konturlu-stuck.png"), full_page=True)
            body = json.dumps(self.body())[:3000]
            raise AssertionError(f"the page offers no move: {body}") from error
        if snap["over"]:
            return False
        if snap["summary"]:
            self.on_summary(snap)
            return True
        body = self.body() if snap["picker"] or snap["calls"] or self.sample(snap) else None
        if body is not None and str(body["version"]) != snap["version"]:
            return True  # the page is about to catch up: look again
        if snap["picker"]:
            self.seen["contract"] += 1
            assert body is not None and body["my_turn"]
            assert sorted(snap["picker"]) == sorted(body["view"]["legal_moves"])
            self.shot("konturlu-contract-1280.png")
            self.phone("contract", "#contract-picker button")
            durt = [m for m in snap["picker"] if m.startswith("durt:")]
            # Seat 0's first pick is a Dürt: the browser plays one whatever the bots name.
            move = self.rng.choice(durt if durt and self.seen["contract"] == 1 else snap["picker"])
            selector = f'#contract-picker button[data-move="{move}"]'
        elif snap["calls"]:
            assert body is not None and body["my_turn"]
            move = self.check_calls(snap["calls"], body["view"])
            self.phone(f"calls-round{body['view']['challenge']['round']}", "#calls button")
            selector = f'#calls button[data-move="{move}"]'
        else:
            if body is not None:
                self.check_cards(snap["cards"], body["view"])
            if snap["phase"] == "durt" or snap["kontur"]:
                self.phone(
                    "durt" if snap["phase"] == "durt" else "play", "#hand.active .card.legal"
                )
            if snap["phase"] != "durt" and snap["inHand"] == 1 and "summary" not in self.phoned:
                # The hand's last trick: its summary is looked at on the phone. At the fast
                # pace it stays up 4 s, and the page is at phone size before it shows.
                page.evaluate("localStorage.setItem('king.pace', 'fast')")
                page.set_viewport_size(PHONE_SIZE)
                self.summary_on_phone = True
            move = self.rng.choice(snap["cards"])
            selector = f'#hand.active .card.legal[data-card="{move}"]'
        self.acted = snap["version"]
        page.evaluate("sel => document.querySelector(sel).click()", selector)
        return True

    def on_summary(self, snap: dict[str, Any]) -> None:
        """A hand's summary (its settlement is kept by ``SUMMARIES_JS``): look at it on the
        phone once (at the fast pace, see ``step``), and press Continue."""
        page = self.page
        lines = snap["lines"]
        print(f"{time.monotonic() - self.started:.0f} s: a summary, {lines and lines['hand']}")
        if lines is not None and lines["transfers"] and lines["eaten"]:
            self.shot("konturlu-settlement-1280.png")
        if self.summary_on_phone:
            self.summary_on_phone = False
            try:
                self.phone("summary", "#summary-continue")
            finally:
                page.evaluate("localStorage.setItem('king.pace', 'instant')")
        page.evaluate("() => document.querySelector('#summary-continue')?.click()")
        page.wait_for_function("() => !document.querySelector('#summary-continue')")

    def sample(self, snap: dict[str, Any]) -> bool:
        """Check the cards against the body now and then (every other Dürt turn, some trick
        turns): each read of the body costs the service a decode of the whole match."""
        self.turns += 1
        return (snap["durt"] and self.turns % 2 == 0) or self.turns % 9 == 0

    def check_calls(self, offered: list[str], view: dict[str, Any]) -> str:
        page = self.page
        challenge = view["challenge"]
        assert offered == view["legal_moves"]
        assert duplicate_ids(page) == []
        assert shown_calls(page, "#k-calls") == [
            {"round": c["round"], "seat": c["seat"], "call": c["call"]} for c in challenge["calls"]
        ]
        assert shown_pairs(page, "#k-pairs") == challenge["pairs"]
        speakers = page.get_attribute("#k-speakers", "data-speakers")
        assert speakers == ",".join(str(s) for s in challenge["speakers"])
        round_no = challenge["round"]
        self.seen[f"calls_r{round_no}"] += 1
        self.shot(f"konturlu-calls-round{round_no}-1280.png")
        if any(":" in m and len(m.split(":")[1]) > 1 for m in view["legal_moves"]):
            self.shot(f"konturlu-calls-round{round_no}-choice-1280.png")
        return choose_call(offered, self.rng)

    def check_cards(self, legal: list[str], view: dict[str, Any]) -> None:
        page = self.page
        assert sorted(legal) == sorted(view["legal_moves"])
        if view["phase"] == "durt":
            self.seen["durt"] += 1
            rows = page.evaluate(
                """() => Object.fromEntries([...document.querySelectorAll('#k-layout .k-row')]
                    .map(r => [r.dataset.suit, r.dataset.lo ? [r.dataset.lo, r.dataset.hi] : null]))
                """
            )
            assert rows == view["durt"]["layout"]
            places = page.locator("#k-places li").evaluate_all("ls => ls.map(l => +l.dataset.seat)")
            assert places == view["durt"]["places"]
            for seat, last in view["durt"]["last"].items():
                slot = page.locator(f'.spot[data-seat="{seat}"] .slot')
                if int(seat) in view["durt"]["places"]:
                    continue
                if last == "pas":
                    assert slot.locator(".k-pas").count() == 1
                else:
                    assert slot.locator(f'.card[data-card="{last}"]').count() == 1
            if self.seen["durt"] in (1, 8):
                self.page.screenshot(
                    path=str(self.artifacts / f"konturlu-durt-{self.seen['durt']}-1280.png")
                )
        else:
            assert shown_pairs(page, "#k-pairs-play") == view["challenge"]["pairs"] or (
                not view["challenge"]["calls"]
            )
            if view["challenge"]["pairs"]:
                self.shot("konturlu-play-1280.png")


@dataclass
class Played:
    """The finished match as the page that played it left it."""

    page: Any
    driver: Driver
    base: str
    match_id: str
    final: dict[str, Any]
    #: Each hand's settlement as its summary showed it (``SUMMARIES_JS``).
    summaries: dict[int, dict[str, Any]]
    seconds: float
    _transcript: dict[str, Any] = field(default_factory=dict)

    def transcript(self) -> dict[str, Any]:
        """The match's fairness transcript (read once)."""
        if not self._transcript:
            self._transcript = call(
                self.base, "GET", f"/v1/matches/{self.match_id}/fairness", self.driver.token
            )
        return copy.deepcopy(self._transcript)


@pytest.fixture(scope="module")
def played(browser: Any, game_server: LiveServer, artifacts: Path) -> Iterator[Played]:
    """The whole match played in the page (see the module's docstring), ended on its standings."""
    with new_page(
        browser, pace="instant", lang="en", timeout_ms=30_000, init_script=SUMMARIES_JS
    ) as page:
        started = time.monotonic()
        sign_in_as_guest(page, game_server.url, "Kontur")
        match_id = create_computer_table(page, level="easy", hands=32, ruleset="konturlu")
        driver = Driver(page, game_server.url, match_id, artifacts)
        assert driver.body()["ruleset"] == "konturlu"
        moves = 0
        while driver.step():
            moves += 1
            assert moves < 1500, "the match did not end"
            assert page.js_errors == []
        seconds = time.monotonic() - started
        print(f"konturlu: 32 hands in the page in {seconds:.0f} s, {moves} steps, {driver.seen}")
        page.wait_for_selector("#standings")
        final = driver.body()
        assert final["status"] == "finished"
        shown = page.evaluate("window.kSummaries")
        summaries = {int(hand): lines for hand, lines in shown.items()}
        yield Played(page, driver, game_server.url, match_id, final, summaries, seconds)
        assert page.js_errors == []


def test_a_whole_konturlu_match_in_the_browser(played: Played, artifacts: Path) -> None:
    page, final, driver = played.page, played.final, played.driver
    seen = driver.seen
    assert seen["durt"] > 0 and seen["calls_r1"] > 0, seen
    # Seat 0 declares eight times; a picker the page drew again before its pick landed is
    # counted again.
    assert seen["contract"] >= 8, seen
    assert driver.phoned >= {"contract", "calls-round1", "durt", "summary"}, driver.phoned
    sheet = final["view"]["sheet"]
    assert len(sheet) == 32
    # Every hand's summary showed its settlement as the sheet's row, line by line.
    assert sorted(played.summaries) == list(range(32)), sorted(played.summaries)
    for row in sheet:
        assert played.summaries[row["hand"]] == expected_lines(row), row["hand"]
    page.wait_for_selector("#k-outcomes")
    # Every row as the body has it, summing to its contract's total, and equal to §5's
    # formula applied to its points and pairs.
    shown = page.locator("#k-sheet tbody tr[data-hand]").evaluate_all(
        "rs => rs.map(r => ({hand: +r.dataset.hand, contract: r.dataset.contract,"
        " scores: r.dataset.scores.split(',').map(Number)}))"
    )
    assert shown == [{"hand": r["hand"], "contract": r["contract"], "scores": r["scores"]}
                     for r in sheet]  # fmt: skip
    for row in sheet:
        assert sum(row["scores"]) == HAND_TOTALS[row["contract"]], row
        assert oracle_scores(row) == row["scores"], row
    assert sorted(r["contract"] for r in sheet) == sorted(list(HAND_TOTALS) * 4)
    totals = [122 + sum(r["scores"][s] for r in sheet) for s in range(4)]
    assert totals == final["view"]["totals"] and sum(totals) == 0
    shown_totals = page.get_attribute("#k-totals", "data-totals")
    assert shown_totals == ",".join(str(x) for x in totals)
    outcomes = ["cikar" if x >= 0 else "batar" for x in totals]
    assert final["seat_outcomes"] == outcomes
    for seat, outcome in enumerate(outcomes):
        cell = page.locator(f'#k-outcomes th[data-seat="{seat}"]')
        assert cell.get_attribute("data-outcome") == outcome
        li = page.locator(f'#standings li[data-seat="{seat}"]')
        assert li.get_attribute("data-outcome") == outcome
    # The paper's checks: every contract's rows and every declarer's section.
    checks = page.locator("#k-checks tr[data-expected]").evaluate_all(
        "rs => rs.map(r => [+r.dataset.sum, +r.dataset.expected])"
    )
    assert len(checks) == 8 + 4 and all(s == e for s, e in checks)
    assert [e for _, e in checks[8:]] == [-122] * 4
    assert page.get_attribute("#k-check-all", "data-all") == "0"
    # A Dürt hand's and a settlement with eatings, opened from the sheet.
    durt = next(r for r in sheet if r["contract"] == "durt" and r["transfers"])
    eaten = next((r for r in sheet if r["eaten"]), sheet[0])
    for row in (durt, eaten):
        page.click(f'#k-sheet tbody tr[data-hand="{row["hand"]}"]')
        assert shown_lines(page, "#k-settle") == expected_lines(row)
    page.click("#k-checks summary")
    assert horizontal_overflow(page) == []
    page.screenshot(path=str(artifacts / "konturlu-end-1280.png"), full_page=True)
    page.set_viewport_size(PHONE_SIZE)
    try:
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / "konturlu-end-390.png"), full_page=True)
    finally:
        page.set_viewport_size(DESKTOP_SIZE)
    page.click("#lang")  # Türkçe
    page.wait_for_selector("#k-outcomes")
    page.click(f'#k-sheet tbody tr[data-hand="{eaten["hand"]}"]')
    page.click("#k-checks summary")
    assert english_on(page) == []
    page.screenshot(path=str(artifacts / "konturlu-end-1280-tr.png"), full_page=True)
    page.click("#lang")  # back to English


def durt_swapped(transcript: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The transcript with two cards of a Dürt deal swapped between two seats; that hand."""
    altered = copy.deepcopy(transcript)
    entry = next(e for e in altered["hands"] if any(t.startswith("durt:") for _, t in e["moves"]))
    cards = [m for m in entry["moves"] if m[1] in CARD_CODES]
    a = cards[0]
    b = next(m for m in cards if m[0] != a[0])
    a[1], b[1] = b[1], a[1]
    return altered, int(entry["hand"])


def serve(page: Any, match_id: str, transcript: dict[str, Any]) -> str:
    """Answer the match's transcript with ``transcript`` (Playwright's routing)."""
    pattern = f"**/v1/matches/{match_id}/fairness"
    body = json.dumps(transcript)
    page.route(
        pattern,
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )
    return pattern


def test_verify_deck_passes_on_the_match_and_fails_on_a_tampered_transcript(
    played: Played, artifacts: Path
) -> None:
    page = played.page
    page.goto(f"{played.base}/#/match/{played.match_id}")
    page.click("#verify-button")
    page.wait_for_selector("#verify-pass, #verify-fail")
    assert page.locator("#verify-pass").count() == 1, page.inner_text("#verify-result")
    transcript = played.transcript()
    assert [e["deal"] for e in transcript["hands"]] == list(range(len(transcript["hands"])))
    # RULES-konturlu.md §1.3: the first declarer is the opening draw's, re-drawn here.
    checks = page.locator("#verify-result .checks li").all_inner_texts()
    first = [c for c in checks if c.startswith("✔ first declarer: ")]
    assert first == [
        f"✔ first declarer: the opening draw gives seat {transcript['first_declarer']}"
    ]
    assert any(c.startswith("✔ this device's hands: 32 hand(s)") for c in checks), checks
    page.locator("#verify-result").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "konturlu-verify-1280.png"))
    altered, hand = durt_swapped(transcript)
    pattern = serve(page, played.match_id, altered)
    try:
        page.click("#verify-button")
        page.wait_for_selector("#verify-fail")
        problems = page.locator("#verify-fail li").all_inner_texts()
        assert problems and all(p.startswith(f"hand {hand + 1}:") for p in problems), problems
    finally:
        page.unroute(pattern)


STEPS_JS = """() => ({
  label: document.querySelector('#trick-label')?.textContent ?? null,
  cards: [...document.querySelectorAll('#trick .rspot')]
    .map(s => [+s.dataset.seat, s.dataset.card]),
  layout: Object.fromEntries([...document.querySelectorAll('#k-layout .k-row')]
    .map(r => [r.dataset.suit, r.dataset.lo ? [r.dataset.lo, r.dataset.hi] : null])),
  places: [...document.querySelectorAll('#k-places li')].map(l => +l.dataset.seat),
})"""
#: What the replay shows of the hand whose tab ``i`` (from 1) is pressed, in one look: the
#: tab's state, the call log, the pair table, the settlement, the running totals, the step.
REPLAY_HAND_JS = (
    """i => {
  const settle = document.querySelector('#k-replay-settle');
  return {
    pressed: document.querySelector('#hand-' + i).getAttribute('aria-pressed'),
    calls: (CALLS)('#k-replay-log'),
    pairs: (PAIRS)('#k-replay-pairs'),
    lines: settle ? (LINES)(settle) : null,
    totals: document.querySelector('#k-replay-totals')?.dataset.totals ?? null,
    step: (STEPS)(),
  };
}""".replace("CALLS", CALLS_JS)
    .replace("PAIRS", PAIRS_JS)
    .replace("LINES", LINES_JS)
    .replace("STEPS", STEPS_JS)
)


def shown_steps(page: Any) -> dict[str, Any]:
    steps: dict[str, Any] = page.evaluate(STEPS_JS)
    return steps


def test_the_history_page_replays_the_match(played: Played, artifacts: Path) -> None:
    page, final = played.page, played.final
    sheet = {row["hand"]: row for row in final["view"]["sheet"]}
    transcript = played.transcript()
    page.goto(f"{played.base}/#/history/{played.match_id}")
    page.wait_for_selector("#replay-verify-pass, #replay-verify-fail", timeout=30_000)
    assert page.get_attribute("#replay-verify-pass", "data-scope") == "full"
    for seat, total in enumerate(final["view"]["totals"]):
        text = page.inner_text(f'#replay-standings li[data-seat="{seat}"]')
        assert text.split(" — ")[1].split(" ")[0] == str(total), text
    entries = transcript["hands"]
    assert page.locator(".hand-tabs button").count() == len(entries)
    totals = [122] * 4
    for i, entry in enumerate(entries):
        page.click(f"#hand-{i + 1}")  # the replay draws the hand at once
        shown = page.evaluate(REPLAY_HAND_JS, i + 1)
        assert shown["pressed"] == "true", i
        moves = [(seat, text) for seat, text in entry["moves"]]
        said = [(seat, text) for seat, text in moves if text.split(":")[0] in CALL_WORDS]
        assert [(c["seat"], c["call"]) for c in shown["calls"]] == said
        if entry["ended"] != "played":
            continue
        row = sheet[entry["hand"]]
        assert related(shown["pairs"]) == row["pairs"], i
        assert shown["lines"] == expected_lines(row), i
        totals = [t + x for t, x in zip(totals, row["scores"], strict=True)]
        assert shown["totals"] == ",".join(map(str, totals))
        step = shown["step"]
        cards = [(seat, text) for seat, text in moves if text in CARD_CODES]
        if row["contract"] != "durt":
            assert step["label"] == f"Trick 1 of {(len(cards) + 3) // 4}"
            assert sorted(s for s in step["cards"] if s[1]) == sorted(map(list, cards[:4]))
            continue
        # Dürt: the declarer's first card opens its suit at the named rank; at the last card
        # the finishing order is the sheet's.
        rank = row["rank"]
        assert step["label"] == f"Card 1 of {len(cards)}"
        opened = {suit: run for suit, run in step["layout"].items() if run}
        assert opened == {cards[0][1][1]: [rank, rank]} and cards[0][1][0] == rank
        if "durt" not in played.driver.shots:
            played.driver.shots.add("durt")
            for _ in range(len(cards) - 1):
                page.keyboard.press("ArrowRight")
            assert shown_steps(page)["label"] == f"Card {len(cards)} of {len(cards)}"
            assert shown_steps(page)["places"] == row["places"]
            page.screenshot(path=str(artifacts / "konturlu-history-durt-1280.png"), full_page=True)
            page.set_viewport_size(PHONE_SIZE)
            try:
                assert horizontal_overflow(page) == []
                page.screenshot(
                    path=str(artifacts / "konturlu-history-durt-390.png"), full_page=True
                )
            finally:
                page.set_viewport_size(DESKTOP_SIZE)
    assert totals == final["view"]["totals"]
    page.click("#hand-1")
    page.screenshot(path=str(artifacts / "konturlu-history-1280.png"), full_page=True)
    page.set_viewport_size(PHONE_SIZE)
    try:
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / "konturlu-history-390.png"), full_page=True)
    finally:
        page.set_viewport_size(DESKTOP_SIZE)
    # A transcript altered on its way fails, naming the hand.
    altered, hand = durt_swapped(transcript)
    pattern = serve(page, played.match_id, altered)
    try:
        page.reload()
        page.wait_for_selector("#replay-verify-fail", timeout=30_000)
        problems = page.locator("#replay-verify-fail li").all_inner_texts()
        assert problems and all(p.startswith(f"hand {hand + 1}:") for p in problems), problems
    finally:
        page.unroute(pattern)


# ---------------------------------------------------------------- a cancelled Rıfkı deal

CALL_WORDS = {"iyi", "kontur", "masa", "haric", "sur"}
HEARTS = range(26, 39)  # card ids: C, D, H, S by 13, 2 to A


def may_cancel(mask: int) -> bool:
    """RULES-konturlu.md §2.7.1: exactly one heart, and it is K♥ or A♥."""
    hearts = [c for c in HEARTS if mask >> c & 1]
    return len(hearts) == 1 and CARD_CODES[hearts[0]][0] in "KA"


def rifki_seeds(match_id: str, server_seed: bytes, bots: bool = False) -> list[bytes]:
    """Seeds for the four seats (seats 1-3 the zero bot seed with ``bots``) that make seat 0
    declare first (the opening draw) and seat 3 the only seat that may cancel a Rıfkı on
    deal 0; on deal 1 seat 0 may not cancel."""
    rng = random.Random(match_id)
    while True:
        seeds = [rng.randbytes(32) for _ in range(4)]
        if bots:
            seeds[1:] = [kingdeal.BOT_SEED] * 3
        key = kingdeal.match_key(match_id, server_seed, seeds)
        if kingdeal.opening_draw(key).winner != 0:
            continue
        deal0 = kingdeal.deal_hand(key, 0)
        if [may_cancel(m) for m in deal0] == [False, False, False, True] and not may_cancel(
            kingdeal.deal_hand(key, 1)[0]
        ):
            return seeds


def move_when_asked(player: Player, match_id: str, move: str) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        match = player.match(match_id)
        if match["my_turn"]:
            assert move in match["view"]["legal_moves"], match["view"]["legal_moves"]
            call(player.base, "POST", f"/v1/matches/{match_id}/moves", player.token,
                 {"move": move, "version": match["version"]})  # fmt: skip
            return
        time.sleep(0.05)
    raise AssertionError(f"{player.name} was not asked to move")


REDEAL_NOTE_JS = """() => document.querySelector('#status')?.textContent
  .includes('cancelled the deal') && document.querySelectorAll('.k-side .k-redealt li[data-call]')
  .length === 2"""
STRUCK_JS = """sel => [...document.querySelectorAll(sel + ' li[data-call]')].map(li => ({
  seat: +li.dataset.seat, call: li.dataset.call,
  struck: getComputedStyle(li.querySelector('s') || li).textDecorationLine }))"""


def test_a_cancelled_rifki_deal_shows_its_calls_struck_through(
    browser: Any, game_server: LiveServer, artifacts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live table (every seat's seed chosen, the server's too): seat 0, in the page, names
    Rıfkı; seat 1 konturs it, seat 2 says masa, and seat 3, holding the K♥ or A♥ alone,
    cancels the deal (§2.7). The table strikes the two calls through, as the playback says it
    and after a reload; everyone leaves, the abandoned match's deck verifies with the
    cancelled deal, a transcript that hides that deal fails, and the replay strikes the
    calls through too.

    The table plays at the normal pace on Playwright's clock: what is checked first is what
    the page shows while the playback says the redeal (0.9 s of the page's time there, gone at
    once at the instant pace), so the clock stands still from the Rıfkı on and the test moves
    it on in steps of 0.1 s until the redeal is said; nothing waits in real time."""
    server_seed = bytes(range(32, 64))
    # The session's service draws its server seeds in this process: this table's is known.
    monkeypatch.setattr(fairness, "draw_server_seed", lambda: server_seed.hex())
    base = game_server.url
    with new_page(browser, pace="normal", lang="en") as page:
        page.clock.install()
        sign_in_as_guest(page, base, "Kontur")
        token = json.loads(page.evaluate("localStorage.getItem('king.session')"))["token"]
        table = call(base, "POST", "/v1/tables", token,
                     {"mode": "live", "hands": 32, "ruleset": "konturlu", "seat": 0})  # fmt: skip
        match_id = str(table["match_id"])
        assert table["server_commit"] == kingdeal.server_commit(match_id, server_seed)
        seeds = rifki_seeds(match_id, server_seed)
        # What the page keeps when it sits (store.js): the commitment, then its seed.
        record = {"matchId": match_id, "commitment": table["server_commit"],
                  "seed": seeds[0].hex(), "seat": 0, "hands": {}}  # fmt: skip
        page.evaluate("([k, r]) => localStorage.setItem(k, JSON.stringify(r))",
                      [f"king.match.{match_id}", record])  # fmt: skip
        others = [Player(base, f"Masa {seat}") for seat in (1, 2, 3)]
        for seat, player in enumerate([None, *others]):
            call(base, "POST", f"/v1/tables/{match_id}/seats",
                 token if player is None else player.token,
                 {"client_seed": seeds[seat].hex(), "seat": seat})  # fmt: skip
        page.goto(f"{base}/#/match/{match_id}")
        # (a move is sent only from a table that has caught up, not while it plays out the
        # seating; the clock stops once the contract's answer is drawn)
        page.wait_for_function(
            "() => document.querySelector('#table')?.dataset.phase !== 'replay'"
            " && document.querySelector('#contract-picker button[data-move=\"rifki\"]')"
        )
        page.click('#contract-picker button[data-move="rifki"]')
        page.wait_for_function("() => !document.querySelector('#contract-picker button')")
        # From here the page's clock moves only when the test moves it: the calls' notes pass
        # as it is moved on, and the redeal's note stays up while it is looked at.
        page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)
        for player, move in zip(others, ("kontur:0", "masa", "boz"), strict=True):
            move_when_asked(player, match_id, move)

        # While the playback says the redeal, the cancelled deal's calls are struck through.
        deadline = time.monotonic() + 20
        while not page.evaluate(REDEAL_NOTE_JS):
            assert time.monotonic() < deadline, page.inner_text("#status")
            page.clock.run_for(100)  # the note lasts 900 ms of the page's time: not skipped
        struck = page.evaluate(STRUCK_JS, ".k-side .k-redealt")
        assert struck == [
            {"seat": 1, "call": "kontur:0", "struck": "line-through"},
            {"seat": 2, "call": "masa", "struck": "line-through"},
        ]
        assert page.evaluate(REDEAL_NOTE_JS)  # still saying it
        page.clock.resume()
        card = call(base, "GET", f"/v1/matches/{match_id}", token)["view"]["redeals"][0]["card"]
        assert card in ("KH", "AH")
        redealt = page.inner_text(".k-side .k-redealt")
        assert "Masa 3 cancelled deal 1 (only heart" in redealt, redealt
        # The same hand is dealt again and its contract stays Rıfkı (§2.7.3).
        page.wait_for_selector("#contract-picker")
        moves = page.locator("#contract-picker button").evaluate_all(
            "bs => bs.map(b => b.dataset.move)"
        )
        assert moves == ["rifki"]
        assert page.evaluate(STRUCK_JS, ".k-side .k-redealt") == struck
        # The new deal's call log is its own: the struck-through calls are not in it.
        assert duplicate_ids(page) == []
        assert shown_calls(page, "#k-calls") == []
        page.screenshot(path=str(artifacts / "konturlu-redealt-1280.png"), full_page=True)
        page.set_viewport_size(PHONE_SIZE)
        try:
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
            assert horizontal_overflow(page) == []
            page.screenshot(path=str(artifacts / "konturlu-redealt-390.png"), full_page=True)
        finally:
            page.set_viewport_size(DESKTOP_SIZE)
        page.reload()  # now from the view's record of the cancelled deal
        page.wait_for_selector("#contract-picker")
        assert page.evaluate(STRUCK_JS, ".k-side .k-redealt") == struck

        # Everyone leaves: the match is abandoned, and its deck verifies, the cancelled deal
        # (shown to this device) included.
        for player in others:
            version = player.match(match_id)["version"]
            call(base, "POST", f"/v1/matches/{match_id}/resign", player.token,
                 {"version": version})  # fmt: skip
        page.click("#resign")
        page.click("#resign")
        page.click("#verify-button")
        page.wait_for_selector("#verify-pass, #verify-fail")
        assert page.locator("#verify-pass").count() == 1, page.inner_text("#verify-result")
        transcript = call(base, "GET", f"/v1/matches/{match_id}/fairness", token)
        ends = [(e["hand"], e["deal"], e["ended"]) for e in transcript["hands"]]
        assert ends == [(0, 0, "redealt"), (0, 1, "in_progress")]
        kept = json.loads(page.evaluate(f"localStorage.getItem('king.match.{match_id}')"))
        assert sorted(kept["deals"]) == ["0", "1"]
        # A transcript that leaves the cancelled deal out fails.
        hidden = {**transcript, "hands": transcript["hands"][1:]}
        pattern = serve(page, match_id, hidden)
        try:
            page.click("#verify-button")
            page.wait_for_selector("#verify-fail")
            problems = page.locator("#verify-fail li").all_inner_texts()
            assert "deal 1, shown to this device, is missing from the transcript" in problems
        finally:
            page.unroute(pattern)

        # The replay: the cancelled deal's page, its calls struck through.
        page.goto(f"{base}/#/history/{match_id}")
        page.wait_for_selector("#replay-verify-pass, #replay-verify-fail", timeout=30_000)
        assert page.get_attribute("#replay-verify-pass", "data-scope") == "full"
        assert page.get_attribute("#hand-1", "data-thrown") == "redealt"
        assert page.evaluate(STRUCK_JS, "#k-replay-redealt") == struck
        page.screenshot(path=str(artifacts / "konturlu-history-redealt-1280.png"), full_page=True)
        assert page.js_errors == []


# ---------------------------------------------------------------- engine-made transcripts


def engine_match(seed: int) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """A whole konturlu match played by the engine with random legal moves, its hand 0 cancelled
    once by seat 3 after seat 1's kontur and seat 2's masa: the transcript as the service
    serves it, what seat 0's device keeps, and the engine's score sheet."""
    rng = random.Random(seed)
    match_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    server_seed = rng.randbytes(32)
    seeds = rifki_seeds(match_id, server_seed, bots=True)
    key = kingdeal.match_key(match_id, server_seed, seeds)
    state = KONTURLU.new_state(32, key, {}, kingdeal.deal_hand)
    script = ["rifki", "kontur:0", "masa", "boz"]
    hands: dict[str, list[str]] = {}
    deals: dict[str, list[str]] = {}
    while not state.is_over:
        if str(state.deal_no) not in deals:  # the deal as this seat is shown it
            cards = [CARD_CODES[c] for c in range(52) if state.hands[0] >> c & 1]
            deals[str(state.deal_no)] = hands[str(state.hand_index)] = cards
        seat = state.current_player
        assert seat is not None
        if script:
            state.apply(seat, KONTURLU.parse_move(script.pop(0)))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    transcript = {
        "spec": kingdeal.SPEC,
        "match_id": match_id,
        "server_commit": kingdeal.server_commit(match_id, server_seed),
        "server_seed": server_seed.hex(),
        "client_seeds": [s.hex() for s in seeds],
        "seed_sources": ["client", "bot", "bot", "bot"],
        "ruleset": "konturlu",
        "num_hands": 32,
        "options": {},
        "first_declarer": state.first,
        "status": "finished",
        "outcome": "finished",
        "hands": state.deal_log(),
    }
    stored = {"matchId": match_id, "commitment": transcript["server_commit"],
              "seed": seeds[0].hex(), "seat": 0, "hands": hands, "deals": deals}  # fmt: skip
    return transcript, stored, state.sheet


def open_client(page: Any, server: LiveServer) -> None:
    # Any page of the client's origin will do: the tests import the modules themselves.
    page.goto(server.url + "/web/config.json")


REPLAY_JS = """async (transcript) => {
  const k = await import('/web/table-konturlu.js');
  return transcript.hands.map((entry) => {
    const hand = k.replayKonturlu(entry, transcript);
    return { hand: hand.hand, deal: hand.deal, thrown: hand.thrown, row: hand.k.row,
             calls: hand.k.calls.map((c) => [c.round, c.seat, c.call, c.targets]) };
  });
}"""


def test_the_replay_settles_every_hand_as_the_engine(page: Any, static_server: LiveServer) -> None:
    """The history page's replay of a transcript (replayKonturlu) gives each hand the engine's
    row: contract, points, pairs, places, base, transfers, eatings and scores; on three
    engine-made matches, in one page."""
    open_client(page, static_server)
    for seed in (1, 2, 3):
        transcript, _, sheet = engine_match(seed)
        replay = page.evaluate(REPLAY_JS, transcript)
        assert replay[0]["thrown"] == "redealt", seed
        assert [r["thrown"] for r in replay] == [
            "redealt" if e["ended"] == "redealt" else None for e in transcript["hands"]
        ], seed
        assert replay[0]["calls"] == [[1, 1, "kontur:0", [0]], [1, 2, "masa", [0, 1, 3]]], seed
        rows = [r["row"] for r in replay if r["row"] is not None]
        keys = ("hand", "deal", "declarer", "contract", "points", "pairs", "places", "base",
                "transfers", "eaten", "scores")  # fmt: skip
        assert [{k: r.get(k) for k in keys} for r in rows] == [
            {k: r[k] for k in keys} for r in sheet
        ], seed
        for js, row in zip(rows, sheet, strict=True):
            assert js.get("trump") == row.get("trump") and js.get("rank") == row.get("rank")
    assert page.js_errors == []


VERIFY_JS = """async ([transcript, stored]) => {
  const v = await import('/web/verify.js');
  const r = await v.verifyTranscript(transcript, stored, { lang: 'en' });
  return { ok: r.ok, checks: r.checks.map((c) => [c.check, c.ok]),
           problems: r.problems.map((p) => [p.check, p.hand, p.message]) };
}"""


def test_verify_deck_rederives_every_deal_of_a_konturlu_transcript(
    page: Any, static_server: LiveServer
) -> None:
    """Every deal, the cancelled one by its own deal number, against what this device was
    shown; hiding or renumbering the cancelled deal, a card swapped in a Dürt and a first
    declarer the opening draw does not give each fail."""
    transcript, stored, _ = engine_match(4)
    open_client(page, static_server)
    good = page.evaluate(VERIFY_JS, [transcript, stored])
    assert good["problems"] == [] and good["ok"] is True
    assert ["first_declarer", True] in good["checks"]
    assert len(transcript["hands"]) == 33 and transcript["hands"][0]["ended"] == "redealt"

    hidden = {**transcript, "hands": transcript["hands"][1:]}
    problems = page.evaluate(VERIFY_JS, [hidden, stored])["problems"]
    assert ["own_hands", None, "deal 1, shown to this device, is missing from the transcript"] in (
        problems
    )
    assert any(p[0] == "plays" and "not numbered" in p[2] for p in problems), problems

    renumbered = copy.deepcopy(transcript)
    renumbered["hands"][0]["deal"] = 40
    problems = page.evaluate(VERIFY_JS, [renumbered, stored])["problems"]
    assert {p[0] for p in problems} == {"plays", "own_hands"}, problems

    swapped, hand = durt_swapped(transcript)
    problems = page.evaluate(VERIFY_JS, [swapped, stored])["problems"]
    assert problems and {(p[0], p[1]) for p in problems} == {("plays", hand)}, problems

    drawn = {**transcript, "first_declarer": (transcript["first_declarer"] + 1) % 4}
    problems = page.evaluate(VERIFY_JS, [drawn, stored])["problems"]
    assert [p[0] for p in problems] == ["first_declarer"]


def test_the_replay_of_an_engine_made_match_fits_a_phone(
    browser: Any, static_server: LiveServer, artifacts: Path
) -> None:
    """The history page on a transcript served by routing (no game service): the cancelled
    deal's calls struck through, a Dürt step's layout, each at 390×844 without sideways
    scrolling; and a reader without the record gets the public check."""
    transcript, _, sheet = engine_match(5)
    with new_page(browser, lang="en", size=PHONE) as page:
        serve(page, transcript["match_id"], transcript)
        page.goto(f"{static_server.url}/#/history/{transcript['match_id']}")
        page.wait_for_selector("#replay-verify-pass, #replay-verify-fail")
        assert page.get_attribute("#replay-verify-pass", "data-scope") == "public"
        struck = page.evaluate(STRUCK_JS, "#k-replay-redealt")
        assert [(c["seat"], c["call"], c["struck"]) for c in struck] == [
            (1, "kontur:0", "line-through"), (2, "masa", "line-through"),
        ]  # fmt: skip
        assert horizontal_overflow(page) == []
        page.screenshot(path=str(artifacts / "konturlu-history-redealt-390.png"), full_page=True)
        durt = next(i for i, e in enumerate(transcript["hands"]) if e["ended"] == "played"
                    and any(t.startswith("durt:") for _, t in e["moves"]))  # fmt: skip
        page.click(f"#hand-{durt + 1}")
        for _ in range(20):
            page.click("#trick-next")
        assert shown_steps(page)["label"].startswith("Card 21 of ")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert horizontal_overflow(page) == []
        page.screenshot(
            path=str(artifacts / "konturlu-history-durt-engine-390.png"), full_page=True
        )
        totals = [122 + sum(r["scores"][s] for r in sheet) for s in range(4)]
        for seat, total in enumerate(totals):
            text = page.inner_text(f'#replay-standings li[data-seat="{seat}"]')
            assert text.split(" — ")[1].split(" ")[0] == str(total), text
        assert page.js_errors == []
