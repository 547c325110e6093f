"""Simulation: medium playouts, exact endgame search, and the hard bot's determinized search.

The hard bot is Perfect Information Monte Carlo: it samples hidden hands consistent with its
view (``knowledge.sample_hands``), and for each sampled world plays every candidate move out to
the end of the hand with the medium policy for all four seats; the move with the best average
outcome is played. With three or fewer cards in hand it solves each world exactly (max-n: every
seat maximises its own points). The worlds can be weighted by how likely the other seats'
plays of the hand were in them under the medium policy (``play_weight``; ``trust``/``pick``).
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

from king_engine import ChooseContract, MatchState, SeatView, get_ruleset
from king_engine.cards import CARD_SUIT
from king_engine.contracts import TRUMP
from king_engine.match import PHASE_ANNOUNCE, PHASE_PLAY, PHASE_REDEAL_OFFER
from king_engine.rulesets import HandRules
from king_engine.simulate import state_from_view
from king_engine.tricks import beats

from .core import PENALTY, Position, cards, must_ruff, void_bits, voids_of_plays
from .heuristic import medium_card
from .knowledge import allowed_masks, sample_hands

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


def play_weight(view: SeatView, hands: Sequence[int], trust: float) -> float:
    """How likely the other seats' plays of this hand were in the world ``hands``, if each
    seat plays the medium policy's card with probability ``trust`` and otherwise any legal
    card at random (relative weight; 1.0 when nothing was observed).

    The world's hands are rewound to the start of the hand (each seat's remaining cards plus
    those it played) and the plays replayed in order; a forced play says nothing."""
    contract = view.contract
    trump = view.trump
    rules = get_ruleset(view.ruleset).hand_rules(contract, trump)
    me = view.seat
    held = list(hands)
    for trick in view.tricks:
        for seat, card in trick.plays:
            held[seat] |= 1 << card
    koz = contract == TRUMP
    ruff = must_ruff(rules) if koz else False
    weight = 1.0
    voids = 0
    earlier = 0
    for trick_no, trick in enumerate(view.tricks):
        led = best = -1
        mask = 0
        for count, (seat, card) in enumerate(trick.plays):
            hand = held[seat]
            if seat != me:
                legal = rules.legal(hand, led, mask, earlier, trick_no)
                if not legal >> card & 1:
                    return 0.0
                if legal & (legal - 1):
                    chance = (1.0 - trust) / legal.bit_count()
                    pos = Position(
                        hand, legal, contract, trump, count, led, best, mask, earlier,
                        trick_no, seat, voids,
                    )  # fmt: skip
                    weight *= chance + trust if medium_card(pos) == card else chance
            held[seat] = hand ^ (1 << card)
            if koz and count:
                voids |= void_bits(seat, card, led, trump, trick_no, ruff)
            if count == 0:
                led, best = CARD_SUIT[card], card
            elif beats(card, best, trump):
                best = card
            mask |= 1 << card
        earlier |= mask
    return weight


def _pick_world(
    view: SeatView, rng: random.Random, allowed: list[int], trust: float, pick: int
) -> tuple[list[int], float]:
    """A sampled world and its weight: with ``pick`` > 1, one of ``pick`` sampled worlds drawn
    in proportion to ``play_weight`` (weight 1: the draw did the weighting)."""
    if pick <= 1:
        hands = sample_hands(view, rng, allowed)
        return hands, play_weight(view, hands, trust) if trust else 1.0
    worlds = [sample_hands(view, rng, allowed) for _ in range(pick)]
    weights = [play_weight(view, hands, trust) for hands in worlds]
    total = sum(weights)
    if total <= 0:
        return worlds[0], 1.0
    draw = rng.random() * total
    for hands, weight in zip(worlds, weights, strict=True):
        draw -= weight
        if draw < 0:
            return hands, 1.0
    return worlds[-1], 1.0


def hard_card(
    view: SeatView,
    rng: random.Random,
    budget_s: float | None,
    worlds: int | None,
    *,
    trust: float = 0.0,
    pick: int = 1,
    known: Sequence[int] | None = None,
) -> int:
    """The hard bot's card: the move with the best (weighted) total over sampled worlds.

    ``trust`` > 0 weights each world by ``play_weight``; ``pick`` > 1 draws each world from
    that many samples by weight. ``known``: the true hands (the arena's ceiling), used as the
    only world. Both levers off (``trust=0``, ``pick=1``) is the original search."""
    moves = distinct_moves(view)
    if len(moves) == 1:
        return moves[0]
    seat = view.seat
    allowed = allowed_masks(view)
    exact = view.hand.bit_count() <= EXACT_CARDS
    if known is not None:
        worlds = 1  # every world would be the same deal, and the playouts are deterministic
    elif exact and worlds is not None:
        worlds = min(worlds * 2, 64)
    if not any(s != seat for trick in view.tricks for s, _ in trick.plays):
        trust, pick = 0.0, 1  # no play of another seat to weigh a world by
    budget = Budget(budget_s, worlds)
    totals = [0.0] * len(moves)
    while budget.more():
        weight = 1.0
        if known is not None:
            hands = list(known)
        elif trust or pick > 1:
            hands, weight = _pick_world(view, rng, allowed, trust, pick)
        else:
            hands = sample_hands(view, rng, allowed)
        base = sim_state(view, hands)
        if exact:
            for i, value in enumerate(_exact_values(base, moves, seat)):
                totals[i] += value * weight
        else:
            for i, card in enumerate(moves):
                st = base.copy()
                st.play_card(card)
                playout(st)
                totals[i] += hand_result(st)[seat] * weight
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
