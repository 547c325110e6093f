"""An independent, deliberately naive statement of the card rules of RULES.md §1 and §2.

It works on card codes and plain lists, shares no code with the engine, and is used by the
property tests to check that the engine's legal cards are exactly these.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"


def suit(code: str) -> str:
    return code[1]


def rank(code: str) -> int:
    return RANKS.index(code[0])


def legal_cards(
    ruleset: str,
    contract: str,
    trump: str | None,
    hand: list[str],
    trick: list[str],
    earlier_cards: list[str],
    trick_number: int,
) -> set[str]:
    """The cards a player holding ``hand`` may play on ``trick`` (cards so far, in order)."""
    hearts_broken = any(suit(c) == "H" for c in earlier_cards)
    if not trick:
        allowed = list(hand)
        if contract in ("hearts", "king_of_hearts") and not hearts_broken:
            non_hearts = [c for c in hand if suit(c) != "H"]
            if non_hearts:
                allowed = non_hearts
        if ruleset == "classic20" and contract == "trump":
            only_trumps = all(suit(c) == trump for c in hand)
            if not only_trumps:
                broken = any(suit(c) == trump for c in earlier_cards)
                honours = {"A" + str(trump), "K" + str(trump), "Q" + str(trump)}
                if trick_number == 0 or not (broken or honours <= set(hand)):
                    allowed = [c for c in hand if suit(c) != trump]
        return set(allowed)
    led = suit(trick[0])
    following = [c for c in hand if suit(c) == led]
    trumps_in_trick = [c for c in trick if suit(c) == trump] if contract == "trump" else []
    top_trump = max((rank(c) for c in trumps_in_trick), default=-1)
    if following:
        if ruleset == "classic20" and contract == "trump" and led == trump:
            higher = [c for c in following if rank(c) > top_trump]
            return set(higher or following)
        return set(following)
    # Void in the led suit.
    if contract == "trump":
        my_trumps = [c for c in hand if suit(c) == trump]
        if not my_trumps:
            return set(hand)
        if ruleset == "classic20":
            if trick_number == 0 and len(my_trumps) < len(hand):
                return {c for c in hand if suit(c) != trump}
            higher = [c for c in my_trumps if rank(c) > top_trump]
            return set(higher or my_trumps)
        return set(my_trumps)
    shed = {
        "hearts": lambda c: suit(c) == "H",
        "queens": lambda c: c[0] == "Q",
        "boys": lambda c: c[0] in "KJ",
        "king_of_hearts": lambda c: c == "KH",
    }.get(contract)
    if shed is not None:
        must = [c for c in hand if shed(c)]
        if must:
            return set(must)
    return set(hand)


def trick_points(contract: str, cards: list[str], trick_number: int) -> int:
    """What the taker of a trick scores, from the contract table of RULES.md §1."""
    if contract == "tricks":
        return -50
    if contract == "hearts":
        return -30 * sum(suit(c) == "H" for c in cards)
    if contract == "queens":
        return -100 * sum(c[0] == "Q" for c in cards)
    if contract == "boys":
        return -60 * sum(c[0] in "KJ" for c in cards)
    if contract == "last_two":
        return -180 if trick_number >= 11 else 0
    if contract == "king_of_hearts":
        return -320 if "KH" in cards else 0
    if contract == "trump":
        return 50
    raise ValueError(contract)


def trick_winner(contract: str, trump: str | None, cards: list[str]) -> int:
    """Index (0..3) in ``cards`` of the card that takes the trick."""
    led = suit(cards[0])
    if contract == "trump" and any(suit(c) == trump for c in cards):
        candidates = [i for i, c in enumerate(cards) if suit(c) == trump]
    else:
        candidates = [i for i, c in enumerate(cards) if suit(c) == led]
    return max(candidates, key=lambda i: rank(cards[i]))
