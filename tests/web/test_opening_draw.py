"""The opening draw in the browser (FAIRNESS.md, "The opening draw"; RULES-konturlu.md §1.3,
RULES-international.md R1.2): Verify deck re-draws the drawn cards the transcript records and
fails on a tampered draw, and the international table shows the draw when the match starts.

Verify deck runs on transcripts the match layer builds (``fairness.transcript``) for matches
the engine played a little of: no whole match in the browser. The table is a real computer
match on the session's game service, resigned once the draw was seen (so it ends at once).
"""

from __future__ import annotations

import copy
import json
import random
import uuid
from pathlib import Path
from typing import Any

import pytest
from game import verifier  # tests/game: pytest puts tests/ on the path

from king_engine import RULESETS, new_game
from king_engine import deal as kingdeal
from king_engine.cards import CARD_CODES
from king_match import fairness
from king_match.record import MatchRecord, Seat, encode_move

from .live_game import call
from .pages import DESKTOP, PHONE, table_page
from .play import horizontal_overflow
from .servers import LiveServer
from .test_turkish import english_on

pytestmark = pytest.mark.integration

VERIFY_JS = """async ([transcript, stored, lang]) => {
  const v = await import('/web/verify.js');
  const r = await v.verifyTranscript(transcript, stored, { lang });
  return { ok: r.ok, checks: r.checks.map((c) => [c.check, c.ok, c.label, c.detail]),
           problems: r.problems.map((p) => [p.check, p.message]) };
}"""


def engine_transcript(
    ruleset: str, seed: int, moves: int = 60
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A match of ``ruleset`` that the engine played ``moves`` random moves of and that then
    ended (aborted): its transcript as the service serves it, and what seat 0's device kept
    (its commitment, seed and the cards of every deal it was shown)."""
    rng = random.Random(seed)
    match_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    server_seed = rng.randbytes(32)
    seeds = [rng.randbytes(32), kingdeal.BOT_SEED, kingdeal.BOT_SEED, kingdeal.BOT_SEED]
    seats = [Seat("p-0", "me", False, seed=seeds[0].hex())] + [
        Seat(f"bot-{i}", f"bot {i}", True, server_bot=True, seed=seeds[i].hex(), seed_source="bot")
        for i in (1, 2, 3)
    ]
    record = MatchRecord(
        match_id=match_id,
        mode="computer",
        ranked=False,
        ruleset=ruleset,
        hands=min(RULESETS[ruleset].lengths),
        creator_id="p-0",
        server_seed=server_seed.hex(),
        server_commit=kingdeal.server_commit(match_id, server_seed),
        created_ms=1,
        status="aborted",
        outcome="aborted",
        started_ms=2,
        seats=list(seats),
    )
    state = new_game(ruleset, record.hands, fairness.match_key(record), None)
    log = bytearray()
    hands: dict[str, list[str]] = {}
    deals: dict[str, list[str]] = {}
    for _ in range(moves):
        if str(state.deal_no) not in deals:  # the deal as seat 0 is shown it
            cards = [CARD_CODES[c] for c in range(52) if state.hands[0] >> c & 1]
            deals[str(state.deal_no)] = hands[str(state.hand_index)] = cards
        seat = state.current_player
        assert seat is not None
        action = rng.choice(state.legal_actions())
        log += encode_move(seat, action)
        state.apply_action(action)
    transcript = fairness.transcript(record, bytes(log), state)
    stored = {"matchId": match_id, "commitment": record.server_commit, "seat": 0,
              "seed": seeds[0].hex(), "hands": hands, "deals": deals}  # fmt: skip
    return transcript, stored


def verify(
    page: Any, transcript: dict[str, Any], stored: dict[str, Any], lang: str = "en"
) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(VERIFY_JS, [transcript, stored, lang])
    return result


@pytest.mark.parametrize("ruleset", ["konturlu", "international"])
def test_verify_deck_rederives_the_drawn_cards_and_fails_on_a_tampered_draw(
    page: Any, static_server: LiveServer, ruleset: str
) -> None:
    transcript, stored = engine_transcript(ruleset, 11)
    key = verifier.match_key(
        transcript["match_id"],
        bytes.fromhex(transcript["server_seed"]),
        [bytes.fromhex(s) for s in transcript["client_seeds"]],
    )
    rounds, winner = verifier.opening_draw(key)  # FAIRNESS.md, derived without the engine
    assert transcript["draw"] == [[[s, c] for s, c in rnd] for rnd in rounds]
    assert transcript["first_declarer"] == winner
    page.goto(static_server.url + "/web/config.json")
    first = {"konturlu": "first_declarer", "international": "first_dealer"}[ruleset]

    good = verify(page, transcript, stored)
    assert good["problems"] == [] and good["ok"] is True, good
    checks = {check: (ok, label, detail) for check, ok, label, detail in good["checks"]}
    cards = " | ".join(", ".join(f"{s} {c}" for s, c in rnd) for rnd in rounds)
    assert checks["draw"] == (True, "opening draw", f"the drawn cards re-drawn: {cards}")
    assert checks[first][0] is True
    turkish = verify(page, transcript, stored, "tr")
    assert next(c for c in turkish["checks"] if c[0] == "draw")[2] == "açılış çekilişi"

    # Another card, two seats' cards swapped, a card left out of each round, no draw at all:
    # each is a draw the seeds do not give (the first seat is still the draw's).
    other = next(code for code in CARD_CODES if code != rounds[0][0][1])
    tampered = [copy.deepcopy(transcript) for _ in range(4)]
    tampered[0]["draw"][0][0][1] = other
    tampered[1]["draw"][0][0][0], tampered[1]["draw"][0][1][0] = 1, 0
    tampered[2]["draw"] = [rnd[:-1] for rnd in transcript["draw"]]
    tampered[3]["draw"] = None
    for bad in tampered:
        result = verify(page, bad, stored)
        assert [p[0] for p in result["problems"]] == ["draw"], (bad["draw"], result)
        assert result["ok"] is False
        assert result["problems"][0][1].startswith(f"the opening draw turns over {cards}, but")

    # A transcript made before draws were recorded has no `draw`: nothing to compare.
    older = {k: v for k, v in transcript.items() if k != "draw"}
    result = verify(page, older, stored)
    assert result["ok"] is True and "draw" not in [c[0] for c in result["checks"]]


DRAW_JS = """() => {
  const p = document.querySelector('#intl-draw');
  return p && { text: p.textContent, winner: +p.dataset.winner, cards: p.dataset.cards };
}"""


#: The page's words, English on a desktop and Turkish on a phone.
WORDS = {
    "en": ("Opening draw: ", "deals first", "✔ opening draw: "),
    "tr": ("Başlangıç çekilişi: ", "ilk dağıtıcı", "✔ açılış çekilişi: "),
}


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("tr", PHONE)], ids=["en", "tr"])
def test_the_international_table_shows_the_draw_and_verify_deck_rederives_it(
    browser: Any, game_server: LiveServer, artifacts: Path, lang: str, size: tuple[int, int]
) -> None:
    """At the start of a computer match the table shows each round's drawn cards and who deals
    first, as the match view has them (in Turkish on a phone: no English word, nothing wider
    than the screen); resigned, the transcript records the same cards, the ones the seeds give,
    and Verify deck on the table re-draws them."""
    opening, first, check = WORDS[lang]
    with table_page(
        browser, game_server.url, ruleset="international", hands=10, size=size, lang=lang
    ) as (page, match_id):
        token = json.loads(page.evaluate("localStorage.getItem('king.session')"))["token"]
        page.wait_for_selector("#intl-draw")
        shown = page.evaluate(DRAW_JS)
        view = call(game_server.url, "GET", f"/v1/matches/{match_id}", token)["view"]
        draw = view["draw"]
        assert draw["winner"] == view["first_dealer"] == shown["winner"]
        assert shown["cards"] == "|".join(
            ",".join(f"{s}:{c}" for s, c in rnd) for rnd in draw["rounds"]
        )
        assert shown["text"].startswith(opening) and first in shown["text"], shown["text"]
        page.locator("#intl-draw").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"international-draw-{lang}-{size[0]}.png"))
        if lang == "tr":
            assert english_on(page) == []
            assert horizontal_overflow(page) == []

        call(game_server.url, "POST", f"/v1/matches/{match_id}/resign", token, {})
        transcript = call(game_server.url, "GET", f"/v1/matches/{match_id}/fairness", token)
        assert transcript["draw"] == draw["rounds"]
        key = verifier.match_key(
            match_id,
            bytes.fromhex(transcript["server_seed"]),
            [bytes.fromhex(s) for s in transcript["client_seeds"]],
        )
        rounds, winner = verifier.opening_draw(key)
        assert draw["rounds"] == [[[s, c] for s, c in rnd] for rnd in rounds]
        assert winner == draw["winner"]
        page.wait_for_selector("#verify-button")
        page.click("#verify-button")
        page.wait_for_selector("#verify-pass, #verify-fail")
        assert page.locator("#verify-pass").count() == 1, page.inner_text("#verify-result")
        checks = page.locator("#verify-result .checks li").all_inner_texts()
        assert [c for c in checks if c.startswith(check)], checks
        assert page.js_errors == []
