"""Matches on chosen deals for the rule tests: reach a given hand, script an auction, and
build a deal whose tricks are won by chosen seats."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import pytest

from king_engine.cards import card_of, parse_card, parse_cards
from king_engine.deal import DECK_32, DECK_52, deal_hand
from king_engine.errors import IllegalMove
from king_engine.international import (
    InternationalState,
    new_international_match_on_deals_for_tests,
    parse_move,
)
from king_engine.moves import PlayCard


def filler_key(seed: int) -> bytes:
    return hashlib.sha256(b"international-tests/%d" % seed).digest()


def match_at(
    hand_index: int,
    hands: Sequence[int] | None = None,
    options: dict[str, object] | None = None,
    first: int = 0,
    seed: int = 0,
) -> InternationalState:
    """A match with first dealer ``first`` at the start of ``hand_index``, whose deal there is
    ``hands`` (the others are KINGDEAL deals); earlier hands are played at random."""
    deck = DECK_32 if (options or {}).get("deck") == 32 else DECK_52
    key = filler_key(seed)

    def deals(d: int) -> list[int]:
        if d == hand_index and hands is not None:
            return list(hands)
        return deal_hand(key, d, deck)

    state = new_international_match_on_deals_for_tests(deals, options, first)
    rng = random.Random(seed)
    while state.hand_index < hand_index:
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def run(state: InternationalState, script: str) -> list[dict[str, object]]:
    """Apply ``"s3 bid:+2, s0 pass, ..."`` through the checked path; return all events."""
    events: list[dict[str, object]] = []
    for step in script.split(","):
        seat, text = step.split()
        events += state.apply(int(seat[1:]), parse_move(text))
    return events


def texts(state: InternationalState, seat: int | None = None) -> list[str]:
    return [str(m) for m in state.legal_moves(seat)]


def refused(state: InternationalState, seat: int, text: str) -> IllegalMove:
    """Apply a move that must be refused; check the state did not change; return the error."""
    before = state.copy()
    with pytest.raises(IllegalMove) as err:
        state.apply(seat, parse_move(text))
    assert state == before
    return err.value


def codes(text: str) -> int:
    return parse_cards(text)


def set_hands(state: InternationalState, hands: dict[int, str]) -> None:
    """Give seats exact cards (a position for a legal-move test; other seats keep theirs)."""
    for seat, text in hands.items():
        state.hands[seat] = parse_cards(text)


def play(state: InternationalState, cards: str) -> list[dict[str, object]]:
    """Play space-separated cards in turn order through the checked path."""
    events: list[dict[str, object]] = []
    for code in cards.split():
        events += state.apply(state.turn, PlayCard(parse_card(code)))
    return events


def planned_deal(
    winners: Sequence[int], dealer: int, trump: int | None = None, deck: int = 52
) -> tuple[list[int], list[list[tuple[int, int]]]]:
    """A deal and a legal play in which trick k is won by ``winners[k]``: the four hands and
    the tricks as (seat, card) in play order.

    Each trick but the last (52 cards) is four cards of one suit, the winner's the highest;
    everyone follows. With 52 cards the four aces are left over for trick 13: the trump ace
    (given to its winner) takes it in a trump hand, otherwise the leader's ace does, so
    without trumps the last two winners must be the same seat.
    """
    tricks = len(winners)
    assert tricks == (13 if deck == 52 else 8)
    low = 0 if deck == 52 else 5
    groups: list[list[int]] = []
    for start in range(low, 12 if deck == 52 else 13, 4):
        for suit in range(4):
            groups.append([card_of(suit, r) for r in range(start, start + 4)])
    plan: list[list[tuple[int, int]]] = []
    hands = [0, 0, 0, 0]
    leader = dealer
    for k, group in enumerate(groups):
        winner = winners[k]
        order = [(leader + i) % 4 for i in range(4)]
        rest = iter(group[:3])
        trick = [(s, group[3] if s == winner else next(rest)) for s in order]
        plan.append(trick)
        for s, c in trick:
            hands[s] |= 1 << c
        leader = winner
    if deck == 52:
        last = winners[12]
        aces = [card_of(suit, 12) for suit in range(4)]
        if trump is None:
            assert last == leader, "without trumps the last two tricks go to one seat"
            give = {s: aces[(s + 1) % 4] for s in range(4)}
        else:
            give = {last: aces[trump]}
            others = iter(a for a in aces if a != aces[trump])
            for s in range(4):
                if s != last:
                    give[s] = next(others)
        trick = [((leader + i) % 4, give[(leader + i) % 4]) for i in range(4)]
        plan.append(trick)
        for s, c in trick:
            hands[s] |= 1 << c
    return hands, plan


def winners_for(counts: Sequence[int], last: int | None = None) -> list[int]:
    """A trick-winner sequence with ``counts[s]`` tricks for seat s; the last two tricks go to
    ``last`` (a seat with two tricks or more) when it is given."""
    seq = [s for s in range(4) for _ in range(counts[s])]
    if last is not None:
        seq.remove(last)
        seq.remove(last)
        seq += [last, last]
    return seq


def play_plan(
    state: InternationalState, plan: list[list[tuple[int, int]]]
) -> list[dict[str, object]]:
    events: list[dict[str, object]] = []
    for trick in plan:
        for seat, card in trick:
            events += state.apply(seat, PlayCard(card))
    return events


def scored(events: list[dict[str, object]]) -> dict[str, object]:
    lines = [e for e in events if e["type"] == "hand_scored"]
    assert len(lines) == 1
    return lines[0]
