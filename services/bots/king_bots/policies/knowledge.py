"""What a seat can infer about the hidden hands, and sampling hands consistent with it.

From the public plays of the current hand a seat learns, for each other seat:

* **voids** — a seat that did not follow the led suit holds none of it;
* **forced discards** — a void seat must shed the contract's discard cards (a heart in Kupa, a
  queen in Kız, a king or jack in Erkek, K♥ in Rıfkı, a trump in Koz); if it shed something
  else, it holds none of them (classic20 Koz forbids trumps in the first trick, so a first-trick
  discard says nothing there);
* **overtrumping** (classic20 and traditional Koz) — a seat that played a trump under the best
  trump of the trick while obliged to overtrump (classic20: on a trump lead or when ruffing;
  traditional: on a trump lead only) holds no trump above that card;
* **traditional's own duties** — in Rıfkı a void seat that shed a non-heart holds no heart; in
  Erkek and Kız a seat that followed the suit under its ace with a card that is no boy (queen)
  holds no boy (queen) of that suit (the ace rule);
* **lead restrictions** — a heart led before hearts were broken means the leader held nothing
  but hearts.

``sample_hands`` deals the unseen cards to the other seats, exactly ``cards_left`` each, so that
every one of these facts holds.
"""

from __future__ import annotations

import random

from king_engine import SeatView, get_ruleset
from king_engine.cards import FULL_DECK, HEARTS_MASK, SUIT_MASK, card_of
from king_engine.contracts import TRUMP
from king_engine.traditional import ACE, AceRules, RifkiRules

from .core import LOW_MASK, SUIT_OF, must_ruff

DECLARER_TRUMP_BIAS = 2.5  # weight of the Koz declarer for unseen trumps when sampling


def allowed_masks(view: SeatView) -> list[int]:
    """For each seat, the cards it may still hold given everything public (own seat: its hand)."""
    unseen = FULL_DECK & ~(view.hand | view.played)
    allowed = [unseen, unseen, unseen, unseen]
    allowed[view.seat] = view.hand
    if view.contract < 0:
        return allowed
    rules = get_ruleset(view.ruleset).hand_rules(view.contract, view.trump)
    discard = rules.discard_mask
    tmask = SUIT_MASK[view.trump] if view.trump >= 0 else 0
    classic_trump = view.contract == TRUMP and not rules.simple
    ruff_obliged = must_ruff(rules)
    rifki = isinstance(rules, RifkiRules)
    ace_rule = isinstance(rules, AceRules)
    earlier = 0
    for trick_no, trick in enumerate(view.tricks):
        plays = trick.plays
        if not plays:
            continue
        lead_seat, lead_card = plays[0]
        led = SUIT_OF[lead_card]
        if (1 << lead_card) & rules.lead_restricted and not earlier & rules.lead_restricted:
            allowed[lead_seat] &= rules.lead_restricted  # held only hearts
        best = lead_card
        for seat, card in plays[1:]:
            suit = SUIT_OF[card]
            if suit != led:
                allowed[seat] &= ~SUIT_MASK[led]
                first_trick_trump = classic_trump and trick_no == 0
                if discard and not (1 << card) & discard and not first_trick_trump:
                    allowed[seat] &= ~discard
                if rifki and not (1 << card) & HEARTS_MASK:
                    allowed[seat] &= ~HEARTS_MASK
            elif ace_rule and best == card_of(led, ACE) and not (1 << card) & rules.card_mask:
                allowed[seat] &= ~(rules.card_mask & SUIT_MASK[led])
            if classic_trump and suit == view.trump and SUIT_OF[best] == view.trump:
                obliged = led == view.trump or (suit != led and ruff_obliged)
                if obliged and card < best:
                    allowed[seat] &= ~(tmask & ~LOW_MASK[best])
            if suit == SUIT_OF[best]:
                if card > best:
                    best = card
            elif suit == view.trump:
                best = card
        for _, card in plays:
            earlier |= 1 << card
    for seat in range(4):
        if seat != view.seat:
            allowed[seat] &= unseen
    return allowed


def sample_hands(
    view: SeatView, rng: random.Random, allowed: list[int] | None = None, tries: int = 200
) -> list[int]:
    """Random hands for the other seats consistent with ``allowed`` (see ``allowed_masks``).

    Cards that fewest seats may hold are placed first; each goes to one of its possible seats
    with probability proportional to the room left there. On a dead end it starts again; after
    ``tries`` failures it drops the inferences and deals by counts alone (always possible).
    """
    if allowed is None:
        allowed = allowed_masks(view)
    me = view.seat
    others = [s for s in range(4) if s != me]
    need = {s: view.cards_left[s] for s in others}
    unseen = FULL_DECK & ~(view.hand | view.played)
    unseen_cards = []
    mask = unseen
    while mask:
        low = mask & -mask
        unseen_cards.append(low.bit_length() - 1)
        mask ^= low
    holders = {c: [s for s in others if allowed[s] >> c & 1] for c in unseen_cards}
    # Koz: whoever named the trump suit probably holds many of its cards.
    favoured = view.declarer if view.contract == TRUMP and view.declarer != me else -1
    tmask = SUIT_MASK[view.trump] if view.trump >= 0 else 0
    order = sorted(unseen_cards, key=lambda c: len(holders[c]))
    for _ in range(tries):
        room = dict(need)
        hands = [0, 0, 0, 0]
        ok = True
        for card in order:
            options = [s for s in holders[card] if room[s] > 0]
            if not options:
                ok = False
                break
            if len(options) == 1:
                seat = options[0]
            else:
                bias = DECLARER_TRUMP_BIAS if (1 << card) & tmask else 1.0
                weights = [room[s] * (bias if s == favoured else 1.0) for s in options]
                pick = rng.random() * sum(weights)
                seat = options[-1]
                for s, weight in zip(options, weights, strict=True):
                    pick -= weight
                    if pick < 0:
                        seat = s
                        break
            hands[seat] |= 1 << card
            room[seat] -= 1
        if ok:
            hands[me] = view.hand
            return hands
    # Fallback: counts only.
    rng.shuffle(unseen_cards)
    hands = [0, 0, 0, 0]
    hands[me] = view.hand
    start = 0
    for seat in others:
        for card in unseen_cards[start : start + need[seat]]:
            hands[seat] |= 1 << card
        start += need[seat]
    return hands
