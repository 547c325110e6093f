"""What one seat of an ``international`` match sees (RULES-international.md §7).

During the auction every seat sees the same public record (the auction log with its auto
moves, the top bid and holder, the passes, the decision, the ultimatum answers); during play
the contract, buyer and price, the trick in progress and the last one, the tricks and, in
h1-h4, the penalty cards each seat has taken. A seat gets its own cards and, on its turn, its
legal moves; a spectator (``None``) gets neither. Another seat's cards are never shown.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..cards import CARD_CODES, SUIT_CHARS, card_codes
from ..deal import OpeningDraw, opening_draw
from ..errors import BadInput
from .rules import BID_TEXTS, NO_BID, penalty_mask
from .state import CONTRACT, OVER, PLAY, InternationalState


def seat_view(state: InternationalState, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (``None``: a spectator)."""
    if seat is not None and (
        not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4
    ):
        raise BadInput("bad_seat", f"seat {seat!r} is not 0..3")
    positive = state.is_positive
    dealer = state.dealer
    over = state.phase == OVER
    view: dict[str, Any] = {
        "ruleset": state.ruleset.name,
        "deck": state.values.size,
        "options": dict(state.options),
        "num_hands": state.num_hands,
        "hand_index": state.hand_index,
        "deal": state.deal_no,  # as every ruleset's view names it (no redeals here: the hand)
        "phase": state.phase,
        "version": state.version,
        "first_dealer": state.first,
        # The opening draw that chose the first dealer (R1.2): public, shown at the start.
        "draw": _opening_draw(state.match_key).to_dict(),
        "dealer": dealer,
        "auctioneer": dealer if positive else None,
        "priority": [(dealer + k) & 3 for k in (1, 2, 3)] if positive else None,
        "seat": seat,
        "card_counts": [h.bit_count() for h in state.hands],
        "to_act": None if over else state.turn,
        "contract": state.contract if state.phase == PLAY or not positive else None,
        "trump": SUIT_CHARS[state.trump] if state.trump >= 0 else None,
        "declarer": state.declarer if state.phase in (CONTRACT, PLAY) else None,
        "scores": {"totals": state.totals[:], "sheet": [dict(x) for x in state.sheet]},
        "totals": state.totals[:],  # (also in scores: the name every ruleset's view uses)
        "forfeits": list(state.forfeits),
        "is_over": over,
    }
    if positive:
        view.update(
            {
                "auction_log": [{"seat": s, "move": m, "auto": a} for s, m, a in state.auction_log],
                "top_bid": BID_TEXTS[state.top] if state.top != NO_BID else None,
                "top_holder": state.holder if state.holder >= 0 else None,
                "passed": [s for s in range(4) if state.passed[s]],
                "bids_made": state.bids_made,
                "decision": state.decision,
                "ultimatum": (
                    {
                        "demand": BID_TEXTS[state.ultimatum],
                        "answers": [{"seat": s, "answer": a} for s, a in state.answers],
                    }
                    if state.ultimatum != NO_BID
                    else None
                ),
                "buyer": state.buyer,
                "price": BID_TEXTS[state.price] if state.price != NO_BID else None,
            }
        )
    if state.phase == PLAY:
        contract = state.contract
        assert contract is not None
        penalty = 0 if positive else penalty_mask(contract)
        view.update(
            {
                "trick": [{"seat": s, "card": CARD_CODES[c]} for s, c in state.trick],
                "last_trick": [{"seat": s, "card": CARD_CODES[c]} for s, c in state.last_trick],
                # Every completed trick of the hand (each card was public when played).
                "tricks": [
                    {
                        "plays": [{"seat": s, "card": CARD_CODES[c]} for s, c in trick],
                        "winner": winner,
                    }
                    for trick, winner in state.done
                ],
                "trick_no": state.trick_no,
                "tricks_taken": state.tricks_taken[:],
                "hand_points": state.running_points(),
                "penalty_cards_taken": [card_codes(t & penalty) for t in state.taken]
                if penalty
                else None,
            }
        )
    if seat is not None:
        view["my_cards"] = card_codes(state.hands[seat])
        view["legal_moves"] = [str(m) for m in state.legal_moves(seat)] if not over else []
    return view


@lru_cache(maxsize=1024)
def _opening_draw(match_key: bytes) -> OpeningDraw:
    """The match's opening draw, kept for the matches viewed last (a view is drawn after every
    move; the draw never changes)."""
    return opening_draw(match_key)
