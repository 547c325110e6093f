"""Worked examples of RULES-konturlu.md and RULES-international.md reached through HTTP: live
matches of four players whose calls and bids are the examples' (seats turned so that the
example's declarer or auctioneer is the match's), every list of legal moves checked as the
spec gives it, the same version and idempotency rules as a card, and every call or bid a
public event. The deals are the seeds', so a position's cards are not the example's: what the
cards decide (tricks, the settlement) is checked against the rules' formulas."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from king_engine import GameState
from king_match import Player

from .helpers import signup, start_live_match, view

pytestmark = pytest.mark.integration


def turned(text: str, by: int) -> str:
    """``text`` with every seat number of a seat list moved on by ``by`` (canonical order)."""
    word, colon, seats = text.partition(":")
    if word not in ("kontur", "sur") or not colon:
        return text
    return f"{word}:" + ",".join(
        str(s) for s in sorted((int(x) + by) % 4 for x in seats.split(","))
    )


def send(
    client: Any,
    match_id: str,
    player: dict[str, Any],
    move: str,
    key: str = "",
    version: int | None = None,
) -> Any:
    if version is None:
        version = view(client, match_id, player)["version"]
    headers = {**player["headers"], **({"Idempotency-Key": key} if key else {})}
    return client.post(
        f"/v1/matches/{match_id}/moves", json={"move": move, "version": version}, headers=headers
    )


def call_order(moves: list[str]) -> list[str]:
    """Calls in the spec's canonical order (§3.3, §3.5): iyi, single seats ascending, then
    lists of more seats, then masa and haric."""

    def rank(move: str) -> tuple[int, int, list[int]]:
        word, _, seats = move.partition(":")
        listed = [int(x) for x in seats.split(",")] if seats else []
        kind = {"iyi": 0, "masa": 2, "haric": 3}.get(word, 1)
        return kind, len(listed), listed

    return sorted(moves, key=rank)


def legal_of(client: Any, match_id: str, players: list[dict[str, Any]], seat: int) -> list[str]:
    """The legal moves ``seat`` is sent; every other seat is sent none."""
    bodies = [view(client, match_id, p) for p in players]
    for other, body in enumerate(bodies):
        if other != seat:
            assert body["view"].get("legal_moves", []) == [], (other, body["view"]["phase"])
    moves: list[str] = bodies[seat]["view"]["legal_moves"]
    return moves


def play_on(
    client: Any,
    match_id: str,
    players: list[dict[str, Any]],
    until: Callable[[GameState], bool],
    rng: random.Random,
) -> dict[str, Any]:
    """Random legal moves by whoever is to move until ``until(state)`` holds; seat 0's view
    then. The moves that only lead to an example's position go straight to the match store
    (what the move endpoint calls), not over HTTP: the examples' own moves are sent."""
    store = client.application.extensions["king_game"].store
    accounts = {p["id"]: Player(p["id"], p["name"], False, False) for p in players}
    record, state = store.load(match_id)
    by_seat = [accounts[seat.player_id] for seat in record.seats]
    for _ in range(5000):
        assert state is not None
        if until(state):
            return view(client, match_id, players[0])
        seat = state.current_player
        assert seat is not None
        store.play(match_id, by_seat[seat], rng.choice(state.legal_moves(seat)))
        record, state = store.load(match_id)
    raise AssertionError("the position was not reached")


# ---------------------------------------------------------------------- konturlu §3.8


EXAMPLE_A = {  # Kız, d = 0: round 1 iyi, iyi, masa; round 2 seat 0 sürs 3, seats 1, 2 iyi
    "contract": "kiz",
    "calls": [
        (
            1,
            [
                "iyi",
                "kontur:0",
                "kontur:2",
                "kontur:3",
                "kontur:0,2",
                "kontur:0,3",
                "masa",
                "haric",
            ],
            "iyi",
        ),
        (
            2,
            [
                "iyi",
                "kontur:0",
                "kontur:1",
                "kontur:3",
                "kontur:0,1",
                "kontur:0,3",
                "masa",
                "haric",
            ],
            "iyi",
        ),
        (
            3,
            [
                "iyi",
                "kontur:0",
                "kontur:1",
                "kontur:2",
                "kontur:0,1",
                "kontur:0,2",
                "masa",
                "haric",
            ],
            "masa",
        ),
        (0, ["iyi", "sur:3"], "sur:3"),
        (1, ["iyi", "sur:3"], "iyi"),
        (2, ["iyi", "sur:3"], "iyi"),
    ],
    "pairs": {(0, 3): "sur", (1, 3): "kontur", (2, 3): "kontur"},
}
EXAMPLE_D = {  # Erkek, d = 0: masa, iyi, haric; 1-3 sür at once; 0 sürs 1, 2 sürs 3
    "contract": "erkek",
    "calls": [
        (1, None, "masa"),
        (2, None, "iyi"),
        (3, None, "haric"),
        (0, ["iyi", "sur:1"], "sur:1"),
        (2, ["iyi", "sur:1", "sur:3", "sur:1,3"], "sur:3"),
    ],
    "pairs": {(0, 1): "sur", (1, 3): "sur_auto", (2, 3): "sur", (1, 2): "kontur"},
}


@pytest.mark.parametrize("example", [EXAMPLE_A, EXAMPLE_D], ids=["A", "D"])
def test_a_konturlu_challenge_example_through_the_move_endpoint(client, example) -> None:
    players = [signup(client) for _ in range(4)]
    match_id = start_live_match(client, players, 32, ruleset="konturlu")["id"]
    first = view(client, match_id, players[0])["view"]
    d = first["declarer"]
    assert first["phase"] == "contract" and not first["contract"]
    chosen = send(client, match_id, players[d], example["contract"], "contract")
    assert chosen.status_code == 200, chosen.get_json()
    for step, (speaker, legal, call) in enumerate(example["calls"]):
        seat = (speaker + d) % 4
        sent = legal_of(client, match_id, players, seat)
        if legal is not None:
            assert sent == call_order([turned(m, d) for m in legal]), step
        wrong = players[(seat + 1) % 4]
        refused = send(client, match_id, wrong, turned(call, d))
        assert refused.status_code in (409, 422), refused.get_json()
        version = view(client, match_id, players[seat])["version"]
        first_try = send(client, match_id, players[seat], turned(call, d), f"c{step}", version)
        again = send(client, match_id, players[seat], turned(call, d), f"c{step}", version)
        assert first_try.status_code == 200, first_try.get_json()
        assert again.get_json() == first_try.get_json()
        assert view(client, match_id, players[seat])["version"] == version + 1
    after = view(client, match_id, players[0])["view"]
    assert after["phase"] == "play"
    expected = {
        f"{min((a + d) % 4, (b + d) % 4)}-{max((a + d) % 4, (b + d) % 4)}": rel
        for (a, b), rel in example["pairs"].items()
    }
    assert after["challenge"]["pairs"] == expected
    # Every call is a public event: a seat that made none sees them all.
    events = client.get(f"/v1/matches/{match_id}/events?after=0", headers=players[d]["headers"])
    said = [(e["seat"], e["call"]) for e in events.get_json()["events"] if e["type"] == "call"]
    assert said == [((s + d) % 4, turned(c, d)) for s, _, c in example["calls"]]


def test_a_konturlu_call_list_in_any_order_is_recorded_in_its_canonical_form(client) -> None:
    players = [signup(client) for _ in range(4)]
    match_id = start_live_match(client, players, 32, ruleset="konturlu")["id"]
    d = view(client, match_id, players[0])["view"]["declarer"]
    assert send(client, match_id, players[d], "kiz").status_code == 200
    for k in (1, 2):
        assert send(client, match_id, players[(d + k) % 4], "iyi").status_code == 200
    # Seat d + 3 names the two seats that are not the declarer, backwards: that is haric.
    others = sorted(((d + 1) % 4, (d + 2) % 4), reverse=True)
    spelled = f"kontur:{others[0]},{others[1]}"
    assert send(client, match_id, players[(d + 3) % 4], spelled).status_code == 200
    calls = view(client, match_id, players[0])["view"]["challenge"]["calls"]
    assert calls[-1]["call"] == "haric"
    own = send(client, match_id, players[(d + 1) % 4], f"sur:{(d + 1) % 4}")
    assert own.status_code == 422, own.get_json()


# ---------------------------------------------------------------------- international W1, A2-A7

LADDER = ["+1", "+2", "+3", "-1", "+4", "+5", "+6", "-2", "+7", "+8"]


def bids_over(top: str | None) -> list[str]:
    start = 0 if top is None else LADDER.index(top) + 1
    return [f"bid:{b}" for b in LADDER[start:]]


def test_international_w1_through_the_move_endpoint(client) -> None:
    """W1 (plus sale with matching) on hand 7, the first positive hand: its auction's legal
    lists are A2-A7's, the buyer names trump:S, and the hand scores as R4.2 says for the
    tricks the seeds' cards gave."""
    players = [signup(client) for _ in range(4)]
    match_id = start_live_match(client, players, 10, ruleset="international")["id"]
    body = play_on(client, match_id, players, lambda s: s.hand_index == 6, random.Random(3))
    D = body["view"]["dealer"]
    assert body["view"]["phase"] == "bidding" and body["view"]["auctioneer"] == D
    s = [(D + k) % 4 for k in (1, 2, 3)]  # priority order
    assert body["view"]["priority"] == s
    assert legal_of(client, match_id, players, s[0]) == ["pass", *bids_over(None)]  # A2
    assert send(client, match_id, players[s[0]], "bid:+2").status_code == 200
    assert legal_of(client, match_id, players, s[1]) == ["pass", *bids_over("+2")]  # A3
    low = send(client, match_id, players[s[1]], "bid:+1")
    assert low.status_code == 422 and low.get_json()["code"] == "bid_too_low"
    version = view(client, match_id, players[0])["version"]
    assert send(client, match_id, players[s[1]], "bid:+4", "b1", version).status_code == 200
    again = send(client, match_id, players[s[1]], "bid:+4", "b1", version)
    assert (
        again.status_code == 200 and view(client, match_id, players[0])["view"]["top_bid"] == "+4"
    )
    assert legal_of(client, match_id, players, s[2]) == ["pass", *bids_over("+4")]  # A4
    assert send(client, match_id, players[s[2]], "pass").status_code == 200
    assert legal_of(client, match_id, players, s[0]) == ["pass", "bid:+4", *bids_over("+4")]  # A5
    assert send(client, match_id, players[s[0]], "bid:+4").status_code == 200  # the match
    assert legal_of(client, match_id, players, s[1]) == ["pass", *bids_over("+4")]  # A6
    matched = send(client, match_id, players[s[1]], "bid:+4")
    assert matched.status_code == 422 and matched.get_json()["code"] == "match_not_allowed"
    passed = send(client, match_id, players[s[2]], "bid:+8")
    assert passed.status_code in (409, 422), passed.get_json()
    assert send(client, match_id, players[s[1]], "bid:+5").status_code == 200
    assert send(client, match_id, players[s[0]], "pass").status_code == 200
    decision = legal_of(client, match_id, players, D)  # A7
    assert decision == [
        "accept",
        "refuse",
        "ultimatum:+6",
        "ultimatum:-2",
        "ultimatum:+7",
        "ultimatum:+8",
    ]
    assert send(client, match_id, players[D], "accept").status_code == 200
    buyer = s[1]
    contracts = legal_of(client, match_id, players, buyer)
    assert contracts == [
        "contract:trump:S",
        "contract:trump:H",
        "contract:trump:D",
        "contract:trump:C",
        "contract:notrump",
    ]
    assert send(client, match_id, players[buyer], "contract:trump:S").status_code == 200
    events = client.get(f"/v1/matches/{match_id}/events?after=0", headers=players[D]["headers"])
    bids = [(e["seat"], e["move"]) for e in events.get_json()["events"] if e["type"] == "bid"]
    assert bids == [(s[0], "bid:+2"), (s[1], "bid:+4"), (s[0], "bid:+4"), (s[1], "bid:+5")]
    end = play_on(client, match_id, players, lambda s: s.hand_index == 7, random.Random(4))
    row = end["view"]["scores"]["sheet"][6]
    tricks = row["tricks"]
    assert sum(tricks) == 13 and row["contract"] == "trump:S"
    expected = [25 * t for t in tricks]
    expected[buyer] -= 125
    expected[D] += 125
    assert row["points"] == expected and sum(row["points"]) == 325


# Each worked example's auction as (seat relative to the auctioneer D, move); then the buyer
# (relative seat, or None) and the price paid in points, or "annul".
W = {
    "W1": (
        [
            (1, "bid:+2"),
            (2, "bid:+4"),
            (3, "pass"),
            (1, "bid:+4"),
            (2, "bid:+5"),
            (1, "pass"),
            (0, "accept"),
            (2, "contract:trump:S"),
        ],
        2,
        125,
    ),
    "W2": (
        [
            (1, "bid:+3"),
            (2, "bid:-1"),
            (3, "bid:+6"),
            (1, "bid:+6"),
            (2, "bid:-2"),
            (3, "pass"),
            (1, "pass"),
            (0, "accept"),
        ],
        2,
        150,
    ),  # contract:minus is automatic
    "W3": (
        [(1, "pass"), (2, "bid:+7"), (3, "pass"), (0, "accept"), (2, "contract:notrump")],
        2,
        175,
    ),
    "W4": (
        [(1, "bid:+3"), (2, "pass"), (3, "pass"), (0, "refuse"), (0, "contract:trump:H")],
        None,
        0,
    ),
    "W5": ([(1, "bid:+1"), (2, "pass"), (3, "bid:+2"), (1, "pass"), (0, "annul")], None, "annul"),
    # +8 is matched; the lower seats pass automatically and +8 is accepted automatically
    "W6": ([(1, "bid:+1"), (2, "bid:+8"), (1, "bid:+8"), (1, "contract:trump:D")], 1, 200),
    "W7": (
        [
            (1, "bid:+2"),
            (2, "bid:+3"),
            (3, "bid:-1"),
            (1, "pass"),
            (2, "bid:-1"),
            (3, "pass"),
            (0, "ultimatum:+8"),
            (1, "decline"),
            (2, "decline"),
            (3, "take"),
            (3, "contract:trump:C"),
        ],
        3,
        200,
    ),
    "W8": (
        [
            (1, "pass"),
            (2, "pass"),
            (3, "pass"),
            (0, "ultimatum:+4"),
            (1, "decline"),
            (2, "decline"),
            (3, "decline"),
            (0, "contract:minus"),
        ],
        None,
        0,
    ),
    "W9": (
        [
            (1, "bid:+2"),
            (2, "bid:-1"),
            (3, "pass"),
            (1, "bid:-1"),
            (2, "bid:+4"),
            (1, "pass"),
            (0, "accept"),
            (2, "contract:trump:D"),
        ],
        2,
        160,
    ),
}


def expected_scores(row: dict[str, Any], dealer: int, example: str, deck: int) -> list[int]:
    """R2.7, R4.2 and R5.2 applied to the tricks the hand's row reports."""
    buyer, price = W[example][1], W[example][2]
    if price == "annul":
        return [(100 if deck == 52 else 95) if s == dealer else 75 for s in range(4)]
    unit, minus_unit, start = (25, 75, 325) if deck == 52 else (40, 120, 320)
    tricks = row["tricks"]
    if row["contract"] == "minus":
        scores = [start - minus_unit * t for t in tricks]
    else:
        scores = [unit * t for t in tricks]
    if buyer is not None:
        scores[(dealer + buyer) % 4] -= int(price)
        scores[dealer] += int(price)
    return scores


@pytest.mark.parametrize(
    ("deck", "examples"),
    [(52, ["W1", "W2", "W3", "W4"]), (52, ["W5", "W6", "W7", "W8"]), (32, ["W9"])],
    ids=["W1-W4", "W5-W8", "W9"],
)
def test_international_worked_auctions_through_the_move_endpoint(client, deck, examples) -> None:
    """The examples' auctions on the positive hands of one live match each: every move goes
    through the endpoint (the automatic ones are not sent), and each hand scores as the
    settlement formulas say for its tricks (they sum to 325, or 320)."""
    players = [signup(client) for _ in range(4)]
    table = start_live_match(client, players, 10, ruleset="international", options={"deck": deck})
    match_id = table["id"]
    rng = random.Random(deck + len(examples))
    for offset, example in enumerate(examples):
        hand = 6 + offset
        body = play_on(client, match_id, players, lambda s, h=hand: s.hand_index == h, rng)
        dealer = body["view"]["dealer"]
        for step, (relative, move) in enumerate(W[example][0]):
            seat = (dealer + relative) % 4
            answer = send(client, match_id, players[seat], move)
            assert answer.status_code == 200, (example, step, move, answer.get_json())
        if W[example][2] == "annul":
            after = view(client, match_id, players[0])["view"]
            assert after["hand_index"] == hand + 1 or after["phase"] == "over"
        else:
            current = view(client, match_id, players[0])["view"]
            assert (
                current["phase"] == "play"
                and current["turn" if "turn" in current else "to_act"] == dealer
            )
        done = play_on(
            client,
            match_id,
            players,
            lambda s, h=hand: s.hand_index > h or s.is_over,
            rng,
        )
        row = done["view"]["scores"]["sheet"][hand]
        assert row["points"] == expected_scores(row, dealer, example, deck), example
        assert sum(row["points"]) == (325 if deck == 52 else 320)
