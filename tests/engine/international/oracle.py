"""An independent, deliberately plain statement of RULES-international.md's legal moves.

It works on card codes, move texts and the public auction log only, shares no code with the
engine, and the random-match tests compare it with the engine move by move.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
NEGATIVE = [
    "no_tricks",
    "no_hearts",
    "no_queens",
    "no_kings_jacks",
    "no_king_of_hearts",
    "no_last_two",
]
LADDER_52 = ["+1", "+2", "+3", "-1", "+4", "+5", "+6", "-2", "+7", "+8"]
LADDER_32 = ["+1", "+2", "+3", "-1", "+4", "+5"]
PLUS = ["trump:S", "trump:H", "trump:D", "trump:C", "notrump"]


def play_legal(hand_index: int, hand: list[str], trick: list[str]) -> set[str]:
    """The cards a player holding ``hand`` may play to ``trick`` (cards so far, in order)."""
    hearts = [c for c in hand if c[1] == "H"]
    others = [c for c in hand if c[1] != "H"]
    if not trick:
        if hand_index == 1 and others:  # no heart lead unless only hearts (R1.6)
            return set(others)
        if hand_index == 4:  # R1.7
            if others:
                return set(others)
            if len(hearts) > 1:
                return {c for c in hearts if c != "KH"}
        return set(hand)
    same = [c for c in hand if c[1] == trick[0][1]]
    if same:
        return set(same)
    if hand_index == 4 and "KH" in hand:  # R1.8
        return {"KH"}
    return set(hand)


def trick_winner(cards: list[str], trump: str | None) -> int:
    """Index in ``cards`` (play order) of the card that takes the trick."""

    def key(i: int) -> tuple[int, int]:
        c = cards[i]
        if trump is not None and c[1] == trump:
            return (2, RANKS.index(c[0]))
        if c[1] == cards[0][1]:
            return (1, RANKS.index(c[0]))
        return (0, 0)

    return max(range(len(cards)), key=key)


def auction_legal(
    dealer: int, log: list[tuple[int, str]], deck: int = 52, annul: str = "top_below_plus3"
) -> tuple[str, int | None, list[str]]:
    """From the auction log so far (auto moves included): (phase, seat to act, legal moves).

    The phase is ``bidding``, ``decision``, ``ultimatum``, ``contract`` or ``done`` (the
    contract is named or the hand annulled).
    """
    ladder = LADDER_52 if deck == 52 else LADDER_32
    bidders = [(dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4]  # priority order
    top = None
    holder = None
    passed: list[int] = []
    bids = 0
    phase = "bidding"
    to_act: int | None = bidders[0]
    buyer = None
    price = None
    demand = None
    answered = 0
    for seat, move in log:
        assert seat == to_act, (seat, move, to_act)
        if phase == "bidding":
            if move == "pass":
                passed.append(seat)
            else:
                top = move[4:]
                holder = seat
                bids += 1
            to_act = None
            for step in (1, 2, 3):
                q = (seat + step) % 4
                if q != dealer and q not in passed and q != holder:
                    to_act = q
                    break
            if to_act is None:
                phase, to_act = "decision", dealer
        elif phase == "decision":
            if move == "accept":
                buyer, price, phase = holder, top, "contract"
                to_act = buyer
            elif move == "refuse":
                phase = "contract"
            elif move == "annul":
                return "done", None, []
            else:
                demand = move[len("ultimatum:") :]
                phase = "ultimatum"
                to_act = bidders[0]
        elif phase == "ultimatum":
            answered += 1
            if move == "take":
                buyer, price, phase, to_act = seat, demand, "contract", seat
            elif answered == 3:
                phase, to_act = "contract", dealer
            else:
                to_act = bidders[answered]
        elif phase == "contract":
            return "done", None, []
    if phase == "bidding":
        assert to_act is not None
        moves = ["pass"]
        rank = ladder.index(top) if top is not None else -1
        if top is not None and holder is not None and bidders.index(to_act) < bidders.index(holder):
            moves.append("bid:" + top)
        moves += ["bid:" + b for b in ladder[rank + 1 :]]
        return phase, to_act, moves
    if phase == "decision":
        rank = ladder.index(top) if top is not None else -1
        moves = []
        if top is not None:
            moves.append("accept")
        if top != ladder[-1]:
            moves.append("refuse")
        if annul == "top_below_plus3":
            poor = rank < (2 if deck == 52 else 1)
        elif annul == "top_at_most_plus1":
            poor = rank < 1
        else:
            poor = bids < 3 and top != ladder[-1]
        if poor:
            moves.append("annul")
        moves += ["ultimatum:" + b for b in ladder[rank + 1 :]]
        return phase, dealer, moves
    if phase == "ultimatum":
        return phase, to_act, ["take", "decline"]
    if buyer is None:
        return phase, dealer, ["contract:" + c for c in [*PLUS, "minus"]]
    assert price is not None
    if price.startswith("-"):
        return phase, buyer, ["contract:minus"]
    return phase, buyer, ["contract:" + c for c in PLUS]
