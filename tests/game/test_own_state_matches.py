"""``konturlu`` and ``international`` through HTTP: whole international computer matches and
konturlu's first deals, every move through the one move endpoint, views that show only what
the seat may see, the end's result and a transcript the verifier re-deals (the 32-card deck
too)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from . import verifier
from .helpers import CARD_CODES, EventFollower, cards_in, signup

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def play_computer_match(
    client: Any,
    ruleset: str,
    hands: int,
    options: dict[str, Any] | None,
    seed: int,
    resign_at_deal: int | None = None,
) -> tuple[dict[str, Any], dict[str, Any], list[tuple[int, set[str]]]]:
    """Play a computer match as seat 0 with random legal moves (resigning once the deal
    ``resign_at_deal`` begins, if given); returns the last body, the player and, for each view
    seen, (deal, the card codes it showed outside my cards)."""
    me = signup(client)
    body: dict[str, Any] = {"mode": "computer", "ruleset": ruleset, "hands": hands}
    if options:
        body["options"] = options
    created = client.post("/v1/tables", json=body, headers=me["headers"])
    assert created.status_code == 201, created.get_json()
    match_id = created.get_json()["id"]
    me["match_id"], me["commit"] = match_id, created.get_json()["server_commit"]
    seated = client.post(
        f"/v1/tables/{match_id}/seats", json={"client_seed": me["seed"]}, headers=me["headers"]
    )
    assert seated.status_code == 201, seated.get_json()
    rng = random.Random(seed)
    shown: list[tuple[int, set[str]]] = []
    deadline = time.monotonic() + 400
    moves = 0
    events = EventFollower(client, match_id, me)
    while time.monotonic() < deadline:
        current = client.get(f"/v1/matches/{match_id}", headers=me["headers"]).get_json()
        if current["status"] != "active":
            return current, me, shown
        view = current["view"]
        assert view["ruleset"] == ruleset
        if resign_at_deal is not None and view["deal"] >= resign_at_deal:
            resigned = client.post(f"/v1/matches/{match_id}/resign", json={}, headers=me["headers"])
            assert resigned.status_code == 200, resigned.get_json()
            continue
        # The opening draw and a redeal's shown card are public by the rules (konturlu §1.3,
        # §2.7); everything else outside my hand must have been played.
        hidden = ("my_cards", "legal_moves", "seat", "draw", "redeals")
        shown.append((view["deal"], cards_in({k: v for k, v in view.items() if k not in hidden})))
        if not current["my_turn"]:
            assert view.get("legal_moves", []) == []
            events.wait()
            continue
        legal = view["legal_moves"]
        assert legal, view
        move = rng.choice(legal)
        assert (move in CARD_CODES) <= (move in view["my_cards"])
        played = client.post(
            f"/v1/matches/{match_id}/moves",
            json={"move": move, "version": current["version"]},
            headers={**me["headers"], "Idempotency-Key": f"m{moves}"},
        )
        assert played.status_code in (200, 409), played.get_json()
        moves += 1
    raise AssertionError("the match did not end in time")


def check_the_end(client: Any, final: dict[str, Any], me: dict[str, Any], shown: list) -> None:
    assert final["status"] == "finished", final["status"]
    totals = final["view"]["totals"]
    assert sum(totals) == 0  # both systems are zero-sum over a whole match
    top = max(totals)
    assert final["winners"] == [s for s in range(4) if totals[s] == top]
    assert final["places"] == [1 + sum(t > totals[s] for t in totals) for s in range(4)]
    transcript = client.get(f"/v1/matches/{me['match_id']}/fairness").get_json()
    verifier.verify(transcript, me["commit"], my_seat=0, my_seed=me["seed"])
    check_the_views(transcript, shown)


def check_the_views(transcript: dict[str, Any], shown: list[tuple[int, set[str]]]) -> None:
    """Every card a view showed outside my hand was played in that deal, or was my own."""
    seed_bytes = [bytes.fromhex(s) for s in transcript["client_seeds"]]
    key = verifier.match_key(
        transcript["match_id"], bytes.fromhex(transcript["server_seed"]), seed_bytes
    )
    played: dict[int, set[str]] = {}
    mine: dict[int, set[str]] = {}
    for entry in transcript["hands"]:
        deck = verifier.DECK_32 if entry["deck_size"] == 32 else verifier.DECK_52
        mine[entry["deal"]] = verifier.hands(key, entry["deal"], deck)[0]
        played[entry["deal"]] = {text for _, text in entry["moves"] if text in CARD_CODES}
    for deal, cards in shown:
        assert cards <= played[deal] | mine[deal], (deal, cards - played[deal] - mine[deal])


@pytest.mark.parametrize("deck", [52, 32])
def test_an_international_computer_match_is_played_to_the_end(client, bot_worker, sweeper, deck):
    final, me, shown = play_computer_match(client, "international", 10, {"deck": deck}, deck)
    check_the_end(client, final, me, shown)
    sheet = final["view"]["scores"]["sheet"]
    assert len(sheet) == 10
    negative = sum(sum(row["points"]) for row in sheet[:6])
    assert negative == (-1300 if deck == 52 else -1280)
    transcript = client.get(f"/v1/matches/{me['match_id']}/fairness").get_json()
    assert {entry["deck_size"] for entry in transcript["hands"]} == {deck}


def test_konturlu_hands_through_the_move_endpoint_show_only_what_the_seat_may_see(
    client, bot_worker, sweeper
):
    """The first deals of a konturlu computer match through HTTP (contracts, the call rounds,
    tricks): every view shows only my cards and cards already played, and the aborted match's
    transcript re-deals. A whole 32-hand match, its §5 settlements from +122 and çıkar /
    batar are played in the browser (tests/web/test_konturlu.py) and by the engine's own tests
    (tests/engine/konturlu)."""
    final, me, shown = play_computer_match(client, "konturlu", 32, None, 7, resign_at_deal=4)
    assert final["status"] == "aborted", final["status"]
    assert {deal for deal, _ in shown} >= {0, 1, 2, 3}
    transcript = client.get(f"/v1/matches/{me['match_id']}/fairness").get_json()
    verifier.verify(transcript, me["commit"], my_seat=0, my_seed=me["seed"])
    check_the_views(transcript, shown)
