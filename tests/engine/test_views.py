"""A seat's view survives its JSON round trip (``SeatView.to_dict`` / ``from_dict``: what API
clients and bots rebuild), in every ruleset and in every phase, a redeal round and a King
announcement included; and a phased view shows each seat the same public facts."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import king_engine
import king_engine.match
from king_engine import PHASE_NAMES, SeatView, view_for

from .test_oracle_traditional import R2_DEAL, suit_deal
from .test_traditional_vs_oracle import engine_match


def positions(state: Any, rng: random.Random, every: int = 7) -> Iterator[Any]:
    """Every ``every``-th position of a random match from ``state``, and each phase's first."""
    seen: set[int] = set()
    step = 0
    while not state.is_over:
        if step % every == 0 or state.phase not in seen:
            seen.add(state.phase)
            yield state
        seat = state.current_player
        state.apply(seat, rng.choice(state.legal_moves()))
        step += 1
    yield state


def round_trips(state: Any) -> None:
    for seat in range(4):
        view = view_for(state, seat)
        data = json.loads(json.dumps(view.to_dict()))
        assert SeatView.from_dict(data) == view, (PHASE_NAMES[state.phase], seat)


@pytest.mark.parametrize("ruleset", ["standard", "classic20", "traditional"])
def test_views_round_trip_through_json(ruleset: str) -> None:
    rng = random.Random(ruleset)
    for _ in range(2):
        state = king_engine.new_match(ruleset, 20, rng.randbytes(32))
        for position in positions(state, rng, every=11):
            round_trips(position)


def test_a_redeal_round_and_an_announcement_round_trip() -> None:
    rng = random.Random(3)
    redeal = engine_match(bytes(32), {"first_four_penalties": False}, R2_DEAL)
    redeal.apply(0, king_engine.parse_move("king_of_hearts"))
    assert PHASE_NAMES[redeal.phase] == "redeal_offer"
    round_trips(redeal)
    data = view_for(redeal, 1).to_dict()
    assert data["redeal_round"] == {"ask_order": [1, 2, 3], "asked": 1, "answers": []}
    assert set(data["legal_moves"]) == {"redeal", "keep"}
    redeal.apply(1, king_engine.parse_move("redeal"))
    round_trips(redeal)
    assert [d["ended"] for d in view_for(redeal, 2).to_dict()["deals"]] == ["redealt"]

    options = {"king_feat": "announced", "first_four_penalties": False}
    announce = engine_match(bytes(32), options, suit_deal("CSDH"))
    announce.apply(2, king_engine.parse_move("trump:H"))
    assert PHASE_NAMES[announce.phase] == "announce"
    round_trips(announce)
    announce.apply(2, king_engine.parse_move("pass"))
    announce.apply(3, king_engine.parse_move("king"))
    for position in positions(announce, rng, every=3):
        round_trips(position)


def test_the_public_facts_of_a_phased_view_are_the_same_for_every_seat() -> None:
    state = engine_match(bytes(32), {"first_four_penalties": False}, R2_DEAL)
    state.apply(0, king_engine.parse_move("king_of_hearts"))
    facts = [view_for(state, seat).facts for seat in range(4)]
    assert facts[0] is not None and all(f == facts[0] for f in facts)
    views = [view_for(state, seat) for seat in range(4)]
    assert len({v.hand for v in views}) == 4  # (each seat still sees only its own cards)


def test_a_forfeit_is_a_public_fact_and_search_states_keep_it() -> None:
    """Every seat sees who forfeited; the view's JSON keeps it, and a simulation state built
    from the view marks the seat too (its tricks make no King there either)."""
    from king_engine.simulate import state_from_view

    rng = random.Random(5)
    state = king_engine.new_match("traditional", 20, rng.randbytes(32))
    for _ in range(9):
        state.apply(state.current_player, rng.choice(state.legal_moves()))
    state.forfeit(3)
    views = [view_for(state, seat) for seat in range(4)]
    assert all(v.facts is not None and v.facts.forfeits == (3,) for v in views)
    round_trips(state)
    hands = list(state.hands)
    assert state_from_view(views[0], hands).forfeits == (3,)
