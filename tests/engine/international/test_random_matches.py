"""Random full matches, both decks, checked move by move against the plain oracle
(``oracle.py``), with the invariants: hand sums, zero-sum matches, the dealer leads, a refused
move changes nothing, bytes round-trip, views never show another seat's cards."""

from __future__ import annotations

import json
import random

import pytest

from king_engine.deal import deal_hand
from king_engine.errors import BadInput, IllegalMove
from king_engine.international import INTERNATIONAL, InternationalState, move_of_action

from . import oracle
from .helpers import filler_key

NEGATIVE_SUMS = {52: [-260, -260, -200, -240, -160, -180], 32: [-320, -160, -200, -240, -160, -200]}
CONDITIONS = ["top_below_plus3", "fewer_than_3_bids", "top_at_most_plus1"]


def check_view_hides_cards(state: InternationalState) -> None:
    for seat in (0, 1, 2, 3, None):
        view = state.view(seat)
        del view["draw"]  # the opening draw's cards are public (R1.2), whoever holds them now
        dumped = json.dumps(view)
        for other in range(4):
            if other == seat:
                continue
            for code in oracle_codes(state.hands[other]):
                assert f'"{code}"' not in dumped, (seat, other, code)


def oracle_codes(mask: int) -> list[str]:
    ranks, suits = "23456789TJQKA", "CDHS"
    return [ranks[c % 13] + suits[c // 13] for c in range(52) if mask >> c & 1]


def check_refusal(state: InternationalState, rng: random.Random) -> None:
    """A random move that is not legal now (or by the wrong seat) is refused, state intact."""
    before, data = state.copy(), state.to_bytes()
    legal = set(state.legal_actions())
    action = rng.choice([a for a in range(84) if a not in legal])
    seat = state.turn if rng.random() < 0.7 else (state.turn + rng.randrange(1, 4)) % 4
    if rng.random() < 0.3:
        action = rng.choice(sorted(legal))
        seat = (state.turn + rng.randrange(1, 4)) % 4
    with pytest.raises((IllegalMove, BadInput)):
        state.apply(seat, move_of_action(action))
    assert state == before and state.to_bytes() == data


def play_checked_match(seed: int, deck: int) -> InternationalState:
    rng = random.Random(seed)
    options = {"deck": deck, "annul_condition": CONDITIONS[seed % 3]}
    state = INTERNATIONAL.new_state(10, filler_key(seed), options, deal_hand)
    first_cards: dict[int, int] = {}
    current: list[tuple[int, str]] = []  # the trick in progress, from the events
    while not state.is_over:
        seat = state.turn
        view = state.view(seat)
        assert state.legal_moves(seat) and all(
            not state.legal_moves(o) for o in range(4) if o != seat
        )
        if view["phase"] == "play":
            want = oracle.play_legal(
                view["hand_index"], view["my_cards"], [t["card"] for t in view["trick"]]
            )
            assert set(view["legal_moves"]) == want
        else:
            log = [(e["seat"], e["move"]) for e in view["auction_log"]]
            phase, to_act, moves = oracle.auction_legal(
                view["dealer"], log, deck, options["annul_condition"]
            )
            assert (phase, to_act, moves) == (view["phase"], seat, view["legal_moves"])
            assert moves not in (["pass"], ["accept"], ["contract:minus"])  # forced: auto
        if rng.random() < 0.08:
            check_refusal(state, rng)
        if rng.random() < 0.03:
            assert INTERNATIONAL.state_from_bytes(state.to_bytes()) == state
        if rng.random() < 0.03:
            check_view_hides_cards(state)
        trump = view.get("trump")
        move = rng.choice(state.legal_moves())
        hand = state.hand_index
        events = state.apply(seat, move)
        for event in events:
            if event["type"] == "card_played":
                first_cards.setdefault(event["hand"], event["seat"])
                current.append((event["seat"], event["card"]))
            if event["type"] == "trick_won":
                # the highest trump, else the highest card of the led suit
                best = oracle.trick_winner([card for _, card in current], trump)
                assert event["seat"] == current[best][0]
                assert event["cards"] == [card for _, card in current]
                current = []
        if state.hand_index != hand or state.is_over:
            line = state.sheet[hand]
            total = 325 if deck == 52 else 320
            want_sum = NEGATIVE_SUMS[deck][hand] if hand < 6 else total
            assert line["sum"] == sum(line["points"]) == want_sum
    for hand, seat in first_cards.items():
        assert seat == (state.first + hand) % 4  # R1.4: the dealer leads
    assert sum(state.totals) == 0
    assert INTERNATIONAL.state_from_bytes(state.to_bytes()) == state
    return state


@pytest.mark.parametrize("deck", [52, 32])
def test_random_matches_agree_with_the_oracle(deck: int) -> None:
    for seed in range(25):
        play_checked_match(seed * 2 + (deck == 32), deck)


def test_forfeits_are_placed_last_and_survive_bytes() -> None:
    rng = random.Random(5)
    state = INTERNATIONAL.new_state(10, filler_key(5), {}, deal_hand)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    state.forfeit(2)
    state.forfeit(2)
    for _ in range(100):
        state.apply_action(rng.choice(state.legal_actions()))
    state.forfeit(0)
    back = INTERNATIONAL.state_from_bytes(state.to_bytes())
    assert back == state and back.forfeits == (2, 0)
    while not state.is_over:
        state.apply_action(rng.choice(state.legal_actions()))
    result = state.result()
    assert result["end_reason"] == "played_out"
    assert result["places"][0] == 3 and result["places"][2] == 4
    assert 0 not in result["winners"] and 2 not in result["winners"]
    assert result["totals"] == state.totals


def test_stored_state_is_never_trusted() -> None:
    rng = random.Random(9)
    state = INTERNATIONAL.new_state(10, filler_key(9), {"deck": 32}, deal_hand)
    for _ in range(80):
        state.apply_action(rng.choice(state.legal_actions()))
    data = state.to_bytes()
    assert data[0] == 3 and data[1] == 4
    wrong_first = data[:5] + bytes([(data[5] + 1) % 4]) + data[6:]
    bad = [data[:-1], data + b"\0", b"", b"\3\4", wrong_first, b"\3\3" + data[2:]]
    flipped = bytearray(data)
    flipped[-1] ^= 1  # a total
    bad.append(bytes(flipped))
    moves = bytearray(data)
    first_seat = data[6 + 32 + 2] >> 1
    moves[6 + 32 + 2 : 6 + 32 + 4] = (first_seat << 9 | 63).to_bytes(2, "big")  # "accept" in h0
    bad.append(bytes(moves))
    for blob in bad:
        with pytest.raises(BadInput) as err:
            INTERNATIONAL.state_from_bytes(blob)
        assert err.value.code == "bad_state"


def test_every_action_round_trips_through_its_text() -> None:
    for action in range(84):
        move = move_of_action(action)
        assert move.action == action
        assert INTERNATIONAL.parse_move(str(move)) == move
    with pytest.raises(BadInput):
        move_of_action(84)
    words = INTERNATIONAL.move_words()
    for action in range(52, 84):
        assert any(str(move_of_action(action)).startswith(w) for w in words)


def test_deal_log_and_describe() -> None:
    state = play_checked_match(77, 52)
    log = state.deal_log()
    assert [d["deal"] for d in log] == list(range(10)) == [d["hand"] for d in log]
    assert all(d["ended"] in ("played", "annulled") and d["deck_size"] == 52 for d in log)
    for d in log[6:]:
        assert d["auction_log"] and d["moves"][: len(d["auction_log"])] == [
            [e["seat"], e["move"]] for e in d["auction_log"]
        ]
    info = INTERNATIONAL.describe()
    json.dumps(info)
    assert info["family"] == "international" and info["id"] == 4
    assert [o["name"] for o in info["options"]] == ["deck", "annul_condition"]
    assert info["decks"]["32"]["unrefusable"] == "+5"


def test_view_during_play_and_the_events_of_a_match() -> None:
    """R7.2: the contract, buyer and price, the trick, the last trick, tricks taken, running
    scores and (h1-h4) the penalty cards taken; events name each hand and the match end."""
    rng = random.Random(11)
    state = INTERNATIONAL.new_state(10, filler_key(11), {}, deal_hand)
    seen_penalties = False
    kinds: set[str] = set()
    while not state.is_over:
        view = state.view(None)
        if view["phase"] == "play":
            assert view["contract"] is not None
            assert sum(view["tricks_taken"]) == view["trick_no"]
            assert len(view["last_trick"]) == (4 if view["trick_no"] else 0)
            if 1 <= view["hand_index"] <= 4:
                taken = view["penalty_cards_taken"]
                seen_penalties |= any(taken)
            if view["hand_index"] >= 6:
                assert "buyer" in view and "price" in view
        events = state.apply(state.turn, rng.choice(state.legal_moves()))
        kinds |= {e["type"] for e in events}
        for event in events:
            json.dumps(event)
            assert "hands" not in event and "my_cards" not in event
    assert seen_penalties
    assert {"card_played", "trick_won", "hand_scored", "hand_started", "match_over"} <= kinds
    assert {"bid", "pass", "decision", "contract_chosen"} & kinds


def test_new_state_checks_its_inputs() -> None:
    from king_engine.errors import ConfigError

    with pytest.raises(ConfigError):
        INTERNATIONAL.new_state(12, filler_key(0), {}, deal_hand)
    with pytest.raises(ConfigError):
        INTERNATIONAL.new_state(10, filler_key(0), {"deck": 36}, deal_hand)
    with pytest.raises(ConfigError):
        INTERNATIONAL.new_state(10, filler_key(0), {"annul_condition": "never"}, deal_hand)
    with pytest.raises(BadInput):
        INTERNATIONAL.new_state(10, b"short", {}, deal_hand)
