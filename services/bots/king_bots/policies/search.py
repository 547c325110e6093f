"""Simulation: medium playouts, exact endgame search, and the hard bot's determinized search.

The hard bot is Perfect Information Monte Carlo: it samples hidden hands consistent with its
view, and for each sampled world plays every candidate move out to the end of the hand with the
medium policy for all four seats; the move with the best total is played. Its levers:

* ``trust`` / ``steps``: the worlds come from a ``inference.WorldChain``, so they follow how
  likely the other seats' plays of the hand were in them if each plays the medium policy's card
  with probability ``trust`` (0: independent samples, ``knowledge.sample_hands``);
* ``reply``: with this many cards or fewer in hand, a world's value for each candidate is our
  best reply to the medium policy from there (every line of our cards tried, the others
  playing medium); otherwise from ``EXACT_CARDS`` cards each world is solved max-n (every seat
  maximises its own points with every card known), as the search did before the lever.

Contract choice simulates every allowed contract (and trump suit) on the same sampled worlds
and compares the declarer's score relative to the others.

Both are anytime loops over worlds: with ``budget_s`` they stop when the next world would not
fit in the time left; with ``worlds`` they run exactly that many (deterministic given the seed).

Every rule comes from the simulated state (its ruleset's ``HandRules``), so the search plays
``traditional``'s ace rules and free ruffs as the engine does. In a phased ruleset the
simulation ends the hand as one scored deal: no redeal round or Kız replay (a new deal's cards
are unknown and its expected value is even), every seat passes in an announcement, and the King
feat (or an announced King's failure) counts ``KING_BONUS`` on top of the hand's points, since it
decides the match.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from king_engine import ChooseContract, MatchState, SeatView
from king_engine.cards import CARD_SUIT
from king_engine.contracts import TRUMP
from king_engine.match import PHASE_ANNOUNCE, PHASE_PLAY, PHASE_REDEAL_OFFER
from king_engine.rulesets import HandRules
from king_engine.simulate import state_from_view
from king_engine.tricks import beats

from .core import (
    PENALTY,
    Position,
    cards,
    must_ruff,
    position_of_state,
    void_bits,
    voids_of_plays,
)
from .heuristic import medium_card
from .inference import PlayModel, WorldChain
from .knowledge import allowed_masks, sample_hands

BURN_IN = 4  # a world chain's first world comes after this many worlds' steps
EXACT_CARDS = 3  # solve exactly when the mover holds this many cards or fewer
# What the King feat is worth in a simulation beyond its hand's points: it wins the match at
# once (traditional §4), so it outweighs about any lead a seat builds in the other 19 hands.
KING_BONUS = 2000


def playout(state: MatchState) -> None:
    """Play the current hand to its end with the medium policy for every seat.

    ``state.num_hands`` must have been cut to ``hand_index + 1`` (see ``sim_state``), so the
    hand's end is the match's end and no next hand is dealt. In Koz the known voids
    (``Position.voids``) are kept up to date play by play.
    """
    play = state.play_card
    rules = state.rules
    assert rules is not None
    legal_of = rules.legal
    hands = state.hands
    koz = state.contract == TRUMP
    trump = state.trump
    ruff = must_ruff(rules)
    voids = voids_of_plays(((p >> 6, p & 63) for p in state.plays), trump, ruff) if koz else 0
    while state.phase == PHASE_PLAY:
        turn = state.turn
        hand = hands[turn]
        legal = legal_of(hand, state.led, state.trick, state.earlier, state.trick_no)
        if legal & (legal - 1):
            card = medium_card(
                Position(
                    hand,
                    legal,
                    state.contract,
                    trump,
                    state.trick_count,
                    state.led,
                    state.best,
                    state.trick,
                    state.earlier,
                    state.trick_no,
                    turn,
                    voids,
                )
            )
        else:
            card = legal.bit_length() - 1
        if koz and state.trick_count:
            voids |= void_bits(turn, card, state.led, trump, state.trick_no, ruff)
        play(card)


def sim_state(view: SeatView, hands: Sequence[int]) -> MatchState:
    """A simulable state at the view's position whose match ends with the current hand.

    In a phased ruleset the hand slot's redeals are set to the cap, so the simulated hand is
    scored as played (no redeal round, no Kız replay)."""
    state = state_from_view(view, hands)
    state.num_hands = state.hand_index + 1
    if view.facts is not None:
        state.redeals = view.facts.redeal_cap
    return state


def choose_in_sim(state: MatchState, option: ChooseContract) -> None:
    """Choose ``option`` in a simulation and answer any round it opens (keep, pass)."""
    state.choose_contract(option.contract, option.trump)
    while state.phase in (PHASE_REDEAL_OFFER, PHASE_ANNOUNCE):
        state.call("keep" if state.phase == PHASE_REDEAL_OFFER else "pass")


def hand_result(state: MatchState) -> tuple[int, int, int, int]:
    """The points of the hand a playout just finished, plus ``KING_BONUS`` to the King maker
    (minus it for an announcer who failed)."""
    points = state.sheet[-1].points
    reason = state.end_reason
    if reason in ("king", "king_failed"):
        scored = list(points)
        scored[state.king_seat] += KING_BONUS if reason == "king" else -KING_BONUS
        return scored[0], scored[1], scored[2], scored[3]
    return points


def relative(points: Sequence[int], seat: int) -> float:
    """A seat's points minus the mean of the other three."""
    mine = points[seat]
    return mine - (sum(points) - mine) / 3.0


# --------------------------------------------------------------------------- exact endgame


def solve(
    rules: HandRules,
    hands: list[int],
    turn: int,
    count: int,
    led: int,
    best: int,
    best_seat: int,
    trick: int,
    earlier: int,
    trick_no: int,
) -> list[int]:
    """Max-n value (points each seat still scores this hand) with every card known."""
    hand = hands[turn]
    legal = rules.legal(hand, led if count else -1, trick, earlier, trick_no)
    trump = rules.trump
    result: list[int] | None = None
    for card in cards(legal):
        hands[turn] = hand ^ (1 << card)
        if count == 0:
            n_led, n_best, n_seat = CARD_SUIT[card], card, turn
        else:
            n_led, n_best, n_seat = led, best, best_seat
            if beats(card, best, trump):
                n_best, n_seat = card, turn
        n_trick = trick | (1 << card)
        if count == 3:
            points = rules.trick_points(n_trick, trick_no)
            n_earlier = earlier | n_trick
            early = rules.early_end_mask
            if trick_no + 1 >= 13 or (early and n_earlier & early == early) or not hands[n_seat]:
                value = [0, 0, 0, 0]
            else:
                value = solve(rules, hands, n_seat, 0, -1, -1, -1, 0, n_earlier, trick_no + 1)
            value[n_seat] += points
        else:
            value = solve(
                rules, hands, (turn + 1) & 3, count + 1, n_led, n_best, n_seat, n_trick, earlier,
                trick_no,
            )  # fmt: skip
        if result is None or value[turn] > result[turn]:
            result = value
    hands[turn] = hand
    assert result is not None
    return result


def _exact_values(state: MatchState, moves: list[int], seat: int) -> list[int]:
    """For each of ``seat``'s candidate cards, what it scores from here on with best play."""
    rules = state.rules
    assert rules is not None
    values = []
    for card in moves:
        st = state.copy()
        before = st.hand_points[seat]
        st.play_card(card)
        if st.phase != PHASE_PLAY:
            values.append(hand_result(st)[seat] - before)
            continue
        gained = st.hand_points[seat] - before
        rest = solve(
            rules, st.hands[:], st.turn, st.trick_count, st.led, st.best, st.best_seat,
            st.trick, st.earlier, st.trick_no,
        )  # fmt: skip
        values.append(gained + rest[seat])
    return values


def _best_reply(state: MatchState, seat: int) -> float:
    """``seat``'s result of the hand with its best cards from here while the other seats play
    the medium policy (their cards known: one world)."""
    play = state.play_card
    while state.phase == PHASE_PLAY and state.turn != seat:
        play(medium_card(position_of_state(state)))
    if state.phase != PHASE_PLAY:
        return hand_result(state)[seat]
    best = -1e18
    for card in cards(state.legal_card_mask()):
        st = state.copy()
        st.play_card(card)
        value = _best_reply(st, seat)
        if value > best:
            best = value
    return best


def _reply_values(state: MatchState, moves: list[int], seat: int) -> list[float]:
    """For each candidate card, ``seat``'s result with its best cards afterwards against the
    medium policy (the exact best reply to it in this world)."""
    values = []
    for card in moves:
        st = state.copy()
        st.play_card(card)
        values.append(_best_reply(st, seat))
    return values


# --------------------------------------------------------------------------- the hard bot


class Budget:
    """Stop rule of an anytime loop: a time budget, or a fixed number of worlds."""

    def __init__(self, budget_s: float | None, worlds: int | None) -> None:
        self.fixed = worlds
        self.budget_s = budget_s if budget_s is not None else 0.5
        self.start = time.perf_counter()
        self.done = 0

    def more(self) -> bool:
        if self.fixed is not None:
            return self.done < self.fixed
        if self.done == 0:
            return True
        elapsed = time.perf_counter() - self.start
        per_world = elapsed / self.done
        return elapsed + per_world * 1.2 < self.budget_s


def distinct_moves(view: SeatView) -> list[int]:
    """The legal cards, keeping one of each run of equivalent cards.

    Two cards of a suit in our hand are equivalent when every card ranked between them has
    already been played in an earlier trick or is in our hand, and they cost the same under the
    contract: whichever we play, the rest of the hand can go exactly the same way.
    """
    legal = view.legal_cards
    current = view.current_trick
    in_trick = 0
    if current is not None:
        for _, card in current.plays:
            in_trick |= 1 << card
    gone = (view.played & ~in_trick) | view.hand
    pen = PENALTY[view.contract]
    moves: list[int] = []
    for card in cards(legal):
        if moves:
            prev = moves[-1]
            if (
                CARD_SUIT[prev] == CARD_SUIT[card]
                and pen[prev] == pen[card]
                and all(gone >> c & 1 for c in range(prev + 1, card))
            ):
                moves[-1] = card  # keep the higher one: same outcome
                continue
        moves.append(card)
    return moves


def hard_card(
    view: SeatView,
    rng: random.Random,
    budget_s: float | None,
    worlds: int | None,
    *,
    trust: float = 0.0,
    steps: int = 0,
    reply: int = 0,
    known: Sequence[int] | None = None,
) -> int:
    """The hard bot's card: the move with the best total over sampled worlds.

    ``trust`` and ``steps`` > 0 draw the worlds from a ``WorldChain`` (``steps`` swaps between
    two worlds); ``reply`` > 0 values the worlds with that many cards or fewer in hand by our
    best reply to the medium policy (see the module). ``known``: the true hands (the arena's
    ceiling), used as the only world. Every lever off (0) is the original search."""
    moves = distinct_moves(view)
    if len(moves) == 1:
        return moves[0]
    seat = view.seat
    allowed = allowed_masks(view)
    held = view.hand.bit_count()
    replying = held <= reply
    exact = held <= EXACT_CARDS and not replying
    if known is not None:
        worlds = 1  # every world would be the same deal, and the playouts are deterministic
    elif (exact or replying) and worlds is not None:
        worlds = min(worlds * 2, 64)
    chain = None
    observed = any(s != seat for trick in view.tricks for s, _ in trick.plays)
    if known is None and trust and steps and observed:
        chain = WorldChain(view, rng, allowed, PlayModel(view, trust))
        chain.next(steps * BURN_IN)
    budget = Budget(budget_s, worlds)
    totals = [0.0] * len(moves)
    while budget.more():
        if known is not None:
            hands = list(known)
        elif chain is not None:
            hands = chain.next(steps)
        else:
            hands = sample_hands(view, rng, allowed)
        base = sim_state(view, hands)
        if replying:
            scores: Sequence[float] = _reply_values(base, moves, seat)
        elif exact:
            scores = _exact_values(base, moves, seat)
        else:
            scores = []
            for card in moves:
                st = base.copy()
                st.play_card(card)
                playout(st)
                scores.append(hand_result(st)[seat])
        for i, score in enumerate(scores):
            totals[i] += score
        budget.done += 1
    best = max(range(len(moves)), key=lambda i: (totals[i], -i))
    return moves[best]


def evaluate_contracts(
    view: SeatView,
    options: Sequence[ChooseContract],
    rng: random.Random,
    budget: Budget,
    known: Sequence[int] | None = None,
) -> list[float]:
    """Mean relative score of the declarer for each option over the same sampled worlds
    (``known``: the true hands, in every world)."""
    seat = view.seat
    totals = [0.0] * len(options)
    while budget.more():
        hands = list(known) if known is not None else sample_hands(view, rng)
        base = sim_state(view, hands)
        for i, option in enumerate(options):
            st = base.copy()
            choose_in_sim(st, option)
            playout(st)
            totals[i] += relative(hand_result(st), seat)
        budget.done += 1
    done = max(budget.done, 1)
    return [t / done for t in totals]


def hard_contract(
    view: SeatView,
    rng: random.Random,
    budget_s: float | None,
    worlds: int | None,
    known: Sequence[int] | None = None,
) -> ChooseContract:
    options = list(view.allowed_contracts)
    if len(options) == 1:
        return options[0]
    if known is not None:
        worlds = 1
    values = evaluate_contracts(view, options, rng, Budget(budget_s, worlds), known)
    best = max(range(len(options)), key=lambda i: (values[i], -i))
    return options[best]
