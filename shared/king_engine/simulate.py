"""Fast random playouts, for simulations and benchmarks.

``play_random_hand`` finishes the current hand of a state with uniformly random legal moves:
a random allowed contract if none is chosen yet, then random legal cards to the end of the
hand. Simulations spend nearly all their time in its loop, so it runs on local variables and
holds the engine's one unrolled copy of trick resolution (``tricks.beats`` and
``HandRules.trick_points``, written inline); ``tests/engine/test_tricks.py`` checks it
resolves every trick as the primitive does, and the other tests that it leaves the same
states as ``MatchState.play_card`` for the same choices.

Like ``apply_action``, this is the *unchecked* path: it trusts the state it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import CARD_SUIT
from .contracts import HEARTS
from .match import PHASE_CONTRACT, PHASE_OVER, PHASE_PLAY, TRICKS_PER_HAND, MatchState
from .rulesets import get_ruleset
from .view import SeatView


def choose_random_contract(state: MatchState, random: Callable[[], float]) -> None:
    """Pick one of the allowed contracts uniformly (contract phase only)."""
    ruleset = state.ruleset
    if ruleset.phased:
        allowed = ruleset.allowed_for(state)
    else:
        allowed = ruleset.allowed_contracts(state.num_hands, state.turn, state.usage)
    contract, trump = allowed[int(random() * len(allowed))]
    state.choose_contract(contract, trump)


def _random_card(mask: int, random: Callable[[], float]) -> int:
    if mask & (mask - 1):
        pick = int(random() * mask.bit_count())
        while pick:
            mask &= mask - 1
            pick -= 1
    return (mask & -mask).bit_length() - 1


def play_random_hand(state: MatchState, random: Callable[[], float]) -> None:
    """Play the current hand to its end with uniformly random legal moves.

    ``random`` returns floats in [0, 1), e.g. ``random.Random(seed).random``. Afterwards the
    state is at the next hand's contract choice (or the match is over). The state may be
    anywhere in the hand, even in the middle of a trick.
    """
    if state.ruleset.phased:
        _play_random_phased_hand(state, random)
        return
    if state.phase == PHASE_CONTRACT:
        choose_random_contract(state, random)
    hand_index = state.hand_index
    while state.trick_count and state.phase == PHASE_PLAY:  # finish a trick under way
        state.play_card(_random_card(state.legal_card_mask(), random))
    if state.phase != PHASE_PLAY or state.hand_index != hand_index:
        return
    rules = state.rules
    assert rules is not None
    legal, follow_masks, free_lead = rules.legal, rules.follow_masks, rules.free_lead
    simple, discard_mask, restricted = rules.simple, rules.discard_mask, rules.lead_restricted
    trump = state.trump
    per_trick, per_card, card_mask = rules.per_trick, rules.per_card, rules.card_mask
    last_two, early = rules.last_two, rules.early_end_mask
    suit_of = CARD_SUIT
    hands, plays = state.hands, state.plays
    hand_points, tricks_taken, taken = state.hand_points, state.tricks_taken, state.taken
    turn, earlier, trick_no = state.turn, state.earlier, state.trick_no
    before = len(plays)
    while True:
        # The lead.
        leader = turn
        hand = hands[turn]
        if free_lead:
            mask = hand
        elif simple:  # HandRules.legal, inline
            mask = hand & ~restricted if not earlier & restricted else hand
            mask = mask or hand
        else:
            mask = legal(hand, -1, 0, earlier, trick_no)
        best = _random_card(mask, random)
        bit = 1 << best
        hands[turn] = hand ^ bit
        plays.append(turn << 6 | best)
        led = best_suit = suit_of[best]
        best_seat = turn
        trick = bit
        # The three followers.
        for turn in ((leader + 1) & 3, (leader + 2) & 3, (leader + 3) & 3):
            hand = hands[turn]
            mask = hand & follow_masks[led]
            if not mask:
                if simple:  # HandRules.legal, inline
                    mask = hand & discard_mask or hand
                else:
                    mask = legal(hand, led, trick, earlier, trick_no)
            if mask & (mask - 1):
                pick = int(random() * mask.bit_count())
                while pick:
                    mask &= mask - 1
                    pick -= 1
            bit = mask & -mask
            card = bit.bit_length() - 1
            hands[turn] = hand ^ bit
            plays.append(turn << 6 | card)
            trick |= bit
            suit = suit_of[card]  # tricks.beats, inline
            if suit == best_suit:
                if card > best:
                    best, best_seat = card, turn
            elif suit == trump:
                best, best_seat, best_suit = card, turn, suit
        # The best card takes the trick; its holder leads the next one (trick_points, inline).
        points = per_trick
        if per_card:
            points += per_card * (trick & card_mask).bit_count()
        if last_two and trick_no >= 11:
            points += last_two
        hand_points[best_seat] += points
        tricks_taken[best_seat] += 1
        taken[best_seat] |= trick
        earlier |= trick
        trick_no += 1
        turn = best_seat
        if trick_no == TRICKS_PER_HAND or (early and earlier & early == early):
            break
    state.turn, state.trick, state.trick_count, state.led = turn, 0, 0, -1
    state.leader, state.best, state.best_seat = leader, best, best_seat
    state.earlier, state.trick_no = earlier, trick_no
    state.version += len(plays) - before
    state._finish_hand(None)


def _play_random_phased_hand(state: MatchState, random: Callable[[], float]) -> None:
    """``play_random_hand`` for phased rulesets (traditional): every move through the generic
    step, so redeal rounds, announcements, replays and the King feat happen as in a match."""
    scored = len(state.sheet)
    while not state.is_over and len(state.sheet) == scored:
        if state.phase == PHASE_PLAY and (state.plays or state.contract != HEARTS):
            state.play_card(_random_card(state.legal_card_mask(), random))
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(random() * len(actions))])


def play_random_match(state: MatchState, random: Callable[[], float]) -> None:
    """Play every remaining hand of the match with random legal moves."""
    while not state.is_over:
        play_random_hand(state, random)


def state_from_view(view: SeatView, hands: Sequence[int]) -> MatchState:
    """A full state at the position a seat sees, with ``hands`` as everyone's current cards.

    For determinized search: a bot samples the hidden cards consistently with its view, then
    simulates on the resulting state. ``hands[view.seat]`` should be ``view.hand``. The state
    carries a dummy match key: hands after the current one are not the real deals, so
    simulations should stop at the end of the current hand.
    """
    state = MatchState._blank(
        get_ruleset(view.ruleset),
        view.num_hands,
        bytes(32),
        dict(view.facts.options) if view.facts else None,
    )
    state.first = view.first_declarer
    state.totals = list(view.totals)
    state.sheet = list(view.sheet)
    for record in view.sheet:
        state.usage.record(record.declarer, record.contract, record.trump)
    state._start_hand_with(view.hand_index, list(hands))
    if view.phase == PHASE_OVER:
        state.phase = PHASE_OVER
        state.turn = -1
    elif view.phase == PHASE_PLAY:
        state.choose_contract(view.contract, view.trump)
        facts = view.facts
        if facts is not None:  # a phased ruleset, past any redeal round or announcement
            state.phase, state.turn, state.announcer = PHASE_PLAY, view.declarer, facts.announcer
            state.redeals, state.penalty_only = facts.redeals, False
        for trick in view.tricks:
            for seat, card in trick.plays:
                state.hands[seat] |= 1 << card  # give back, then replay
        for trick in view.tricks:
            for _seat, card in trick.plays:
                state.play_card(card)
    if view.facts is not None:
        for seat in view.facts.forfeits:  # their tricks make no King in the simulation either
            state.forfeit(seat)
    state.version = view.version
    return state
