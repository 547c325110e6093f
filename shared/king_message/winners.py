"""Who won a match played out on totals, and the places, from the totals and the forfeits: the
rules the engine's match end and the match layer's events go by. The finished-match message and the
rating archive name the seats placed first instead (``FinishedMatch.winners``), which is the
same for a match decided by totals and also right after a King in ``traditional``.

It lives here, beside the message, so that any side can apply it without loading the engine;
the engine takes it from here (this package, like the engine, is standard library only).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["match_winners", "placements"]


def match_winners(totals: Sequence[int], forfeits: Sequence[int] = ()) -> list[int]:
    """The seats that won, in seat order: every seat on the best total among the seats that
    did not forfeit. A player who lost on time or resigned loses, whatever their total; when
    every seat forfeited nobody won.
    """
    staying = [seat for seat in range(4) if seat not in forfeits]
    if not staying:
        return []
    top = max(totals[seat] for seat in staying)
    return [seat for seat in staying if totals[seat] == top]


def placements(totals: Sequence[int], forfeits: Sequence[int] = ()) -> list[int]:
    """Places 1..4 by seat: higher total is better and equal totals share a place (1, 1, 3, 4).

    Seats in ``forfeits`` (who lost on time or resigned, in the order they left) are placed
    below everyone else, the earliest leaver last.
    """
    places = [0, 0, 0, 0]
    staying = [seat for seat in range(4) if seat not in forfeits]
    for seat in staying:
        places[seat] = 1 + sum(1 for other in staying if totals[other] > totals[seat])
    for order, seat in enumerate(forfeits):
        places[seat] = 4 - order
    return places
