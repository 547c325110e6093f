"""The engine against the separately written oracle (``oracle.py``), move by move over random
full matches, with the invariants of RULES-konturlu.md §6 and the state API's promises:
the same mover and the same legal list (in order) at every step, the same hand scores; the
totals sum to 0; every hand sums to its contract's total; every seat declares each contract
once; refused moves change nothing; bytes round-trip; the fast path replays the same match;
views do not depend on other seats' cards."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from king_engine import KingError, deal, parse_cards
from king_engine.cards import card_codes
from king_engine.konturlu import (
    ACTION_TEXT,
    CONTRACT_CODES,
    HAND_TOTALS,
    KONTURLU,
    KonturluState,
    new_konturlu_match_on_deals_for_tests,
)
from king_engine.konturlu import parse_move as parse

from .oracle import OracleMatch

SEEDS = list(range(10))


def choose(rng: random.Random, moves: list[str]) -> str:
    """Random, but lean towards challenges and redeals so they happen often."""
    for word in ("boz", "rifki:boz"):
        if word in moves and rng.random() < 0.8:
            return word
    calls = [m for m in moves if m.startswith(("kontur", "masa", "haric", "sur"))]
    if calls and rng.random() < 0.6:
        return rng.choice(calls)
    return rng.choice(moves)


def swapped_view_is_the_same(state: KonturluState, rng: random.Random) -> None:
    """A seat's view must not change when two other seats swap a card each."""
    for seat in [None, 0, 1, 2, 3]:
        holders = [s for s in range(4) if s != seat and state.hands[s]]
        if len(holders) < 2:
            continue
        a, b = rng.sample(holders, 2)
        other = state.copy()
        ca = rng.choice([c for c in range(52) if other.hands[a] >> c & 1])
        cb = rng.choice([c for c in range(52) if other.hands[b] >> c & 1])
        other.hands[a] ^= (1 << ca) | (1 << cb)
        other.hands[b] ^= (1 << ca) | (1 << cb)
        if seat is not None and state.current_player == seat:
            pass  # its legal moves depend only on its own cards and public facts
        view = state.view(seat)
        assert other.view(seat) == view
        json.dumps(view)  # JSON-ready


def refuse_something(state: KonturluState, rng: random.Random, legal: list[str]) -> None:
    """A random move that is not legal is refused and changes nothing (a ``kontur:`` list
    that spells ``masa`` or ``haric`` is accepted, as that call)."""
    probe = state.copy()
    seat = rng.randrange(4)
    text = rng.choice([t for t in ACTION_TEXT if t])
    if seat == state.current_player and text in legal:
        return
    try:
        events = probe.apply(seat, parse(text))
    except KingError:
        assert probe == state
        return
    assert text.startswith("kontur:") and events[0]["call"] in ("masa", "haric")
    assert events[0]["call"] in legal


CARD_CODES = {r + x for r in "23456789TJQKA" for x in "CDHS"}


def events_show_no_held_card(state: KonturluState, events: list[dict[str, Any]]) -> None:
    """No event names a card still held (a redeal's shown card is from the void deal)."""
    held = {c for h in state.hands for c in card_codes(h)}
    for event in events:
        if event["type"] == "redeal":
            continue
        for value in event.values():
            values = value if isinstance(value, list) else [value]
            assert not {v for v in values if isinstance(v, str)} & held & CARD_CODES, event


def play_against_the_oracle(
    state: KonturluState, oracle: OracleMatch, rng: random.Random, stored: bool
) -> None:
    steps = 0
    while not state.is_over:
        assert state.current_player == oracle.to_move
        legal = [str(m) for m in state.legal_moves()]
        assert legal == oracle.legal(), (state, oracle.stage)
        assert [ACTION_TEXT[a] for a in state.legal_actions()] == legal
        for seat in range(4):
            if seat != state.current_player:
                assert state.legal_moves(seat) == []
        if steps % 23 == 0:
            refuse_something(state, rng, legal)
        if steps % 97 == 0:
            swapped_view_is_the_same(state, rng)
            if stored:
                assert KONTURLU.state_from_bytes(state.to_bytes()) == state
        move = choose(rng, legal)
        seat = state.current_player
        assert seat is not None
        hand = state.hand_index
        events = state.apply(seat, parse(move))
        assert all("type" in e for e in events)
        if state.hand_index == hand and state.deal_no == len(state.deals):
            events_show_no_held_card(state, events)
        oracle.play(move)
        assert state.hand_index == oracle.hand
        assert state.deal_no == oracle.deal_number
        assert state.totals == oracle.totals
        steps += 1
    assert oracle.to_move is None
    # §6: every hand sums to its contract's total, and the final totals to 0
    assert [row["scores"] for row in state.sheet] == oracle.sheet
    assert sum(state.totals) == 0
    declared: dict[int, list[str]] = {s: [] for s in range(4)}
    for row in state.sheet:
        total = HAND_TOTALS[CONTRACT_CODES.index(row["contract"])]
        assert sum(row["scores"]) == sum(row["base"]) == total
        declared[row["declarer"]].append(row["contract"])
    assert all(sorted(c) == sorted(CONTRACT_CODES) for c in declared.values())
    for index, code in enumerate(CONTRACT_CODES):  # each contract's column: 4 hands, 4 totals
        rows = [row for row in state.sheet if row["contract"] == code]
        assert len(rows) == 4
        assert sum(sum(row["scores"]) for row in rows) == 4 * HAND_TOTALS[index]
    assert [row["declarer"] for row in state.sheet] == [(state.first + h) % 4 for h in range(32)]
    result = state.result()
    assert result["end_reason"] == "played_out"
    assert result["outcome"] == ["cikar" if t >= 0 else "batar" for t in state.totals]
    assert state.legal_moves() == [] and state.current_player is None and state.turn == -1
    log = state.deal_log()
    assert [d["deal"] for d in log] == list(range(state.deal_no + 1))
    assert sum(d["ended"] == "played" for d in log) == 32


@pytest.mark.parametrize("seed", SEEDS)
def test_engine_matches_the_oracle_over_a_random_match(seed: int) -> None:
    rng = random.Random(seed)
    key = bytes(rng.randrange(256) for _ in range(32))
    state = KONTURLU.new_state(32, key, {}, deal.deal_hand)
    oracle = OracleMatch(
        lambda n: [set(card_codes(m)) for m in deal.deal_hand(key, n)], state.first
    )
    play_against_the_oracle(state, oracle, rng, stored=True)
    # bytes and the fast path
    again = KONTURLU.state_from_bytes(state.to_bytes())
    assert again == state
    fast = KONTURLU.new_state(32, key, {}, deal.deal_hand)
    for action in state.log:
        assert action in fast.legal_actions()
        fast.apply_action(action)
    assert fast == state


def rigged_deals(key: bytes, seed: int) -> Callable[[int], list[set[str]]]:
    """KINGDEAL deals, half of them changed so that some seat's only heart is K♥ or A♥:
    redeals (by the declarer too, several per hand) then happen often."""

    def deals(n: int) -> list[set[str]]:
        hands = [set(card_codes(m)) for m in deal.deal_hand(key, n)]
        r = random.Random(seed * 1000 + n)
        if r.random() < 0.5:
            return hands
        seat, lone = r.randrange(4), r.choice(["KH", "AH"])

        def swap(card: str, into: int, away: str) -> None:
            owner = next(i for i in range(4) if card in hands[i])
            hands[owner].remove(card)
            hands[into].add(card)
            hands[into].remove(away)
            hands[owner].add(away)

        if lone not in hands[seat]:
            swap(lone, seat, next(c for c in sorted(hands[seat]) if c[1] != "H"))
        for heart in sorted(c for c in hands[seat] if c[1] == "H" and c != lone):
            other = next(i for i in range(4) if i != seat and any(c[1] != "H" for c in hands[i]))
            card = next(c for c in sorted(hands[other]) if c[1] != "H")
            hands[seat].remove(heart)
            hands[other].add(heart)
            hands[other].remove(card)
            hands[seat].add(card)
        return hands

    return deals


@pytest.mark.parametrize("seed", [100, 101, 102])
def test_engine_matches_the_oracle_with_many_redeals(seed: int) -> None:
    rng = random.Random(seed)
    key = bytes(rng.randrange(256) for _ in range(32))
    deals = rigged_deals(key, seed)
    first = rng.randrange(4)
    state = new_konturlu_match_on_deals_for_tests(
        lambda n: [parse_cards(" ".join(h)) for h in deals(n)], first=first
    )
    oracle = OracleMatch(deals, first)
    play_against_the_oracle(state, oracle, rng, stored=False)
    redealt = [d for d in state.deal_log() if d["ended"] == "redealt"]
    assert redealt
    assert any(d["moves"][-1][1] == "rifki:boz" for d in redealt) or seed != 100


def test_some_random_match_has_a_redeal() -> None:
    """The random matches above exercise §2.7 (guarding against a silent never-redeal)."""
    redeals = 0
    for seed in SEEDS:
        rng = random.Random(seed)
        key = bytes(rng.randrange(256) for _ in range(32))
        state = KONTURLU.new_state(32, key, {}, deal.deal_hand)
        while not state.is_over:
            legal = [str(m) for m in state.legal_moves()]
            state.apply(state.current_player, parse(choose(rng, legal)))  # type: ignore[arg-type]
        redeals += state.deal_no - 31
    assert redeals > 0
