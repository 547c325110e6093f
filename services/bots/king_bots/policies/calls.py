"""One-word moves of the phased rulesets (``traditional``): redeal requests and the King
announcement.

* **Redeal** (a Rıfkı redeal round, or the Kupa declarer holding 13 hearts): the offer only comes
  with a hand that is bad for the contract (a lone K♥ or A♥ under Rıfkı, all hearts under Kupa),
  and a redeal costs nothing (no score, no pick, same hand number), so the medium and hard bots
  always ask. The easy bot asks half the time, like a player who does not know the rule well.
* **King announcement**: "king" only when the hand guarantees the feat (``certain_king``),
  otherwise "pass": a failed announcement loses the match, a passed one loses only the feat.
"""

from __future__ import annotations

import random

from king_engine import PHASE_ANNOUNCE, Call, SeatView
from king_engine.cards import SUIT_MASK
from king_engine.moves import KEEP, KING, PASS, REDEAL
from king_engine.traditional import KING_RUN

EASY_REDEAL_RATE = 0.5


def top_run(suit_cards: int, suit: int) -> int:
    """How many of the suit's top cards (ace down) a hand holds without a gap."""
    run = 0
    card = 13 * suit + 12
    while run < 13 and suit_cards >> (card - run) & 1:
        run += 1
    return run


def certain_king(hand: int, trump: int, leads_first: bool) -> bool:
    """Whether ``hand`` makes King (10 tricks in a row) against any cards and any play.

    A seat holding all 13 trumps wins every trick, on lead or not (it ruffs every other lead).
    Otherwise the seat must lead trick 0 (the declarer), hold the trump ace, king and queen (so
    it may lead trumps at once) and enough top trumps to draw every outstanding trump with
    masters (each round of trumps pulls at least one, and nobody can overtake a master). It then
    wins every trick with its trumps and, once trumps are out, with its side suits' top cards: if
    those make 10 or more, the first 10 tricks are all its own.
    """
    if trump < 0:
        return False
    trumps = hand & SUIT_MASK[trump]
    held = trumps.bit_count()
    if held == 13:
        return True
    if not leads_first:
        return False
    masters = top_run(trumps, trump)
    if masters < 3 or masters < 13 - held:
        return False
    side = sum(top_run(hand & SUIT_MASK[s], s) for s in range(4) if s != trump)
    return held + side >= KING_RUN


def wants_redeal(level: str, rng: random.Random) -> bool:
    """Whether a bot offered a redeal asks for it (see the module's note)."""
    return level != "easy" or rng.random() < EASY_REDEAL_RATE


def decide_call(view: SeatView, level: str, rng: random.Random) -> Call:
    """The seat's answer in a redeal round or a King announcement (``view.calls`` not empty).

    The Kupa request comes during play instead: ``Policy`` asks ``wants_redeal`` and plays a
    card when the answer is no."""
    if view.phase == PHASE_ANNOUNCE:
        # A forfeited seat's bot may only pass (§4.5): "king" is then not among the calls.
        leads = view.seat == view.declarer
        if "king" in view.calls and certain_king(view.hand, view.trump, leads):
            return KING
        return PASS
    if "redeal" in view.calls and wants_redeal(level, rng):
        return REDEAL
    return KEEP
