"""Dürt, the layout game of konturlu (RULES-konturlu.md §4).

The declarer names a rank R. Cards go one at a time onto a shared layout: each suit is
closed (none of it played) or open with a run of consecutive ranks [lo, hi] around R. A card
is playable if it is R of a closed suit (it opens the suit) or extends an open run by one at
either end. Ranks lie on a line 2 < … < A: no wrap (D22). A seat with a playable card must
play one (any of them); a seat with none passes, and the server applies the pass. A seat that
plays its last card takes the next place; once three are out the hand ends (D24) and the last
seat is 4th. Places score 45 / 20 / 10 / −10 (``settle.DURT_PLACE_POINTS``).

The layout is a tuple of four entries by suit (C, D, H, S): None (closed) or (lo, hi) ranks
0..12.
"""

from __future__ import annotations

from typing import Final

from ..cards import CARD_CODES, RANK_CHARS, SUIT_CHARS, card_of, rank_of, suit_of

Run = tuple[int, int] | None
Layout = tuple[Run, Run, Run, Run]
CLOSED: Final[Layout] = (None, None, None, None)
PASS: Final = "pas"


def playable_mask(hand: int, rank: int, layout: Layout) -> int:
    """The cards of ``hand`` that may go onto ``layout`` now, in a Dürt of ``rank``."""
    mask = 0
    for suit in range(4):
        run = layout[suit]
        if run is None:
            candidates: tuple[int, ...] = (rank,)
        else:
            lo, hi = run
            candidates = tuple(r for r in (lo - 1, hi + 1) if 0 <= r <= 12)
        for r in candidates:
            bit = 1 << card_of(suit, r)
            if hand & bit:
                mask |= bit
    return mask


def place_card(layout: Layout, card: int, rank: int) -> Layout:
    """The layout after ``card`` is played on it (trusted: the card is playable)."""
    suit, r = suit_of(card), rank_of(card)
    run = layout[suit]
    new: Run = (rank, rank) if run is None else (min(run[0], r), max(run[1], r))
    assert run is not None or r == rank
    runs = list(layout)
    runs[suit] = new
    return (runs[0], runs[1], runs[2], runs[3])


def durt_moves(hand: int, rank: int, layout: Layout) -> list[str]:
    """The legal moves of a seat holding ``hand``: its playable cards by card id, or ``pas``
    when it has none (§4.4; the server applies the pass)."""
    mask = playable_mask(hand, rank, layout)
    if not mask:
        return [PASS]
    return [CARD_CODES[c] for c in range(52) if mask >> c & 1]


def layout_dict(layout: Layout) -> dict[str, list[str] | None]:
    """The public layout (Appendix A): per suit None (closed) or [lo, hi] as rank chars."""
    return {
        SUIT_CHARS[s]: None if run is None else [RANK_CHARS[run[0]], RANK_CHARS[run[1]]]
        for s, run in enumerate(layout)
    }


__all__ = ["CLOSED", "PASS", "Layout", "durt_moves", "layout_dict", "place_card", "playable_mask"]
