"""Koz (trump) rules of the medium bot, each on a hand-built end position where the rule matters.

Every position is a three- or two-card ending with all four hands given, so the exact solver
(max-n, every seat playing its best with the cards known) can score the mover's choices: the
card the medium bot plays now is checked to score more than the card the earlier rule played.
"""

from __future__ import annotations

from king_bots.policies.core import Position, trick_state, void_bits, voids_of_plays
from king_bots.policies.heuristic import medium_card
from king_bots.policies.search import solve
from king_engine import get_ruleset
from king_engine.cards import FULL_DECK, mask_of, parse_card, parse_cards
from king_engine.contracts import TRUMP


def _mask(text: str) -> int:
    return int(parse_cards(text))


def _position(
    hands: dict[int, str], trump: str, seat: int, trick: list[tuple[int, str]], voids: int = 0
) -> tuple[Position, list[int]]:
    """The mover's position in a Koz ending (every card not in a hand or the trick was played
    in the earlier tricks) and the four hands."""
    masks = [_mask(hands[s]) for s in range(4)]
    trump_suit = "CDHS".index(trump)
    led, best, _, trick_mask = trick_state(tuple((s, parse_card(c)) for s, c in trick), trump_suit)
    earlier = FULL_DECK & ~(masks[0] | masks[1] | masks[2] | masks[3] | trick_mask)
    legal = (
        get_ruleset("standard")
        .hand_rules(TRUMP, trump_suit)
        .legal(masks[seat], led, trick_mask, earlier, 13 - masks[seat].bit_count())
    )
    pos = Position(
        masks[seat], legal, TRUMP, trump_suit, len(trick), led, best, trick_mask, earlier,
        13 - masks[seat].bit_count(), seat, voids,
    )  # fmt: skip
    return pos, masks


def _value(pos: Position, hands: list[int], trick: list[tuple[int, str]], card: int) -> int:
    """What the mover scores from here on if it plays ``card`` and everyone then plays best."""
    rules = get_ruleset("standard").hand_rules(TRUMP, pos.trump)
    hands = hands[:]
    plays = [(s, parse_card(c)) for s, c in trick] + [(pos.seat, card)]
    hands[pos.seat] ^= 1 << card
    led, best, best_seat, _ = trick_state(tuple(plays), pos.trump)
    trick_mask = mask_of([c for _, c in plays])
    if len(plays) == 4:
        rest = solve(rules, hands, best_seat, 0, -1, -1, -1, 0, pos.earlier | trick_mask,
                     pos.trick_no + 1)  # fmt: skip
        rest[best_seat] += 50
    else:
        rest = solve(rules, hands, (pos.seat + 1) & 3, len(plays), led, best, best_seat,
                     trick_mask, pos.earlier, pos.trick_no)  # fmt: skip
    return int(rest[pos.seat])


def test_voids_are_read_from_the_plays() -> None:
    # Spades trump. Seat 2 does not follow a heart lead and does not trump: out of both.
    plays = [(0, parse_card("2C")), (1, parse_card("3C")), (2, parse_card("4C")),
             (3, parse_card("5C")), (3, parse_card("6H")), (0, parse_card("7H")),
             (1, parse_card("2S")), (2, parse_card("8D"))]  # fmt: skip
    voids = voids_of_plays(plays, 3)
    assert voids == (1 << (4 * 1 + 2)) | (1 << (4 * 2 + 2)) | (1 << (4 * 2 + 3))
    # In the first trick a discard says nothing about trumps (classic20 forbids them there).
    assert void_bits(1, parse_card("8D"), 0, 3, 0) == 1 << (4 * 1 + 0)


def test_the_master_is_kept_when_the_next_player_must_trump_it() -> None:
    """Seat 1 is known to be out of hearts and holds the last trump (seats 2 and 3 showed they
    have none). Old rule: play A♥ (the master) and see it trumped. Now: play low, let the trump
    go, and cash A♥ later."""
    hands = {0: "AH 2H KC", 1: "5S QC JC", 2: "4H 5H 7D", 3: "8D 9D"}
    trick = [(3, "3H")]
    voids = (1 << (4 * 1 + 2)) | (1 << (4 * 2 + 3)) | (1 << (4 * 3 + 3))
    pos, masks = _position(hands, "S", 0, trick, voids)
    assert medium_card(pos) == parse_card("2H")
    assert _value(pos, masks, trick, parse_card("2H")) > _value(pos, masks, trick, parse_card("AH"))
    # Without the void known, the master is still played at once.
    pos_unknown, _ = _position(hands, "S", 0, trick, 0)
    assert medium_card(pos_unknown) == parse_card("AH")


def test_a_side_master_is_not_thrown_away() -> None:
    """Void in the led suit and no trump left: the old rule threw its lowest card, 7♦, which is
    the master of diamonds; keeping it wins the last trick when diamonds are led."""
    hands = {0: "7D 9C", 1: "2D", 2: "3D", 3: "AC"}
    trick = [(1, "AS"), (2, "KS"), (3, "QS")]
    pos, masks = _position(hands, "H", 0, trick)
    assert medium_card(pos) == parse_card("9C")
    assert _value(pos, masks, trick, parse_card("9C")) > _value(pos, masks, trick, parse_card("7D"))


def test_side_masters_wait_while_trumps_are_out() -> None:
    """Clubs trump; Q♣ and 5♣ are out. The old rule cashed A♠ (three spades out), which the
    player out of spades trumps. Now the mover leads low: both trump holders are out of diamonds
    and must trump it, after which A♠ and Q♦ both win."""
    hands = {0: "AS QD 8D", 1: "QC TS 7S", 2: "AH 4H 8S", 3: "5C KH 7H"}
    pos, masks = _position(hands, "C", 0, [])
    assert medium_card(pos) == parse_card("8D")
    assert _value(pos, masks, [], parse_card("8D")) > _value(pos, masks, [], parse_card("AS"))
