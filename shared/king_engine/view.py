"""What one seat may see: ``view_for(state, seat)``.

A seat sees its own cards, the current trick, every card played so far in this hand (with who
played it, trick by trick), the tricks and penalty cards each seat has taken, the scores, whose
turn it is, and — on its turn — its legal moves. It never sees another seat's cards nor the
match key. Bots get exactly this object and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .cards import CARD_CODES, SUIT_CHARS, card_codes, format_suit
from .contracts import CONTRACT_CODES, CONTRACTS, NO_TRUMP, TRUMP, contract_code
from .match import PHASE_CONTRACT, PHASE_NAMES, PHASE_PLAY, HandRecord, MatchState
from .moves import ChooseContract


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick of the current hand: who led, the (seat, card) plays in order, who won."""

    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int | None  # None while the trick is still being played


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    version: int
    ruleset: str
    num_hands: int
    hand_index: int
    phase: int
    declarer: int
    contract: int  # -1 before it is chosen
    trump: int  # -1: none
    turn: int  # -1 when the match is over
    hand: int  # this seat's cards (mask)
    tricks: tuple[Trick, ...]  # this hand's tricks, the current one last if started
    cards_left: tuple[int, int, int, int]
    tricks_taken: tuple[int, int, int, int]
    taken: tuple[int, int, int, int]  # cards won by each seat this hand (public: all were played)
    hand_points: tuple[int, int, int, int]
    totals: tuple[int, int, int, int]
    sheet: tuple[HandRecord, ...]
    legal_cards: int  # mask; 0 unless this seat is to play
    allowed_contracts: tuple[ChooseContract, ...]  # empty unless this seat is to choose

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat

    @property
    def current_trick(self) -> Trick | None:
        if self.tricks and self.tricks[-1].winner is None:
            return self.tricks[-1]
        return None

    @property
    def played(self) -> int:
        """Mask of every card played in this hand so far."""
        mask = 0
        for trick in self.tricks:
            for _, card in trick.plays:
                mask |= 1 << card
        return mask

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form with card codes (the API's shape of a seat's view)."""
        contract = self.contract
        penalty_mask = CONTRACTS[contract].card_mask if contract >= 0 else 0
        tricks = self.tricks
        current = tricks[-1] if tricks and tricks[-1].winner is None else None
        return {
            "seat": self.seat,
            "version": self.version,
            "ruleset": self.ruleset,
            "hands_in_match": self.num_hands,
            "hand": self.hand_index,
            "phase": PHASE_NAMES[self.phase],
            "declarer": self.declarer,
            "contract": CONTRACT_CODES[contract] if contract >= 0 else None,
            "trump": SUIT_CHARS[self.trump] if self.trump != NO_TRUMP else None,
            "turn": self.turn if self.turn >= 0 else None,
            "my_cards": card_codes(self.hand),
            "current_trick": _trick_dict(current) if current else None,
            "tricks": [_trick_dict(t) for t in tricks if t.winner is not None],
            "cards_left": list(self.cards_left),
            "tricks_taken": list(self.tricks_taken),
            "penalty_cards_taken": [card_codes(mask & penalty_mask) for mask in self.taken],
            "hand_points": list(self.hand_points),
            "totals": list(self.totals),
            "score_sheet": [record.to_dict() for record in self.sheet],
            "legal_cards": card_codes(self.legal_cards),
            "allowed_contracts": [_contract_dict(m) for m in self.allowed_contracts],
        }


def _trick_dict(trick: Trick) -> dict[str, Any]:
    codes = CARD_CODES  # the cards of a Trick come from the engine or parse_card: 0..51
    return {
        "leader": trick.leader,
        "plays": [{"seat": seat, "card": codes[card]} for seat, card in trick.plays],
        "winner": trick.winner,
    }


def _contract_dict(move: ChooseContract) -> dict[str, Any]:
    return {
        "contract": contract_code(move.contract),
        "trump": format_suit(move.trump) if move.contract == TRUMP else None,
        "move": str(move),
    }


# Play byte (seat << 6 | card) -> its (seat, card) pair, shared by every Trick (pairs are
# immutable): cheaper than building the pair for each play of each view.
_PLAY_PAIRS: Final = tuple((p >> 6, p & 63) for p in range(256))


def _tricks(state: MatchState) -> tuple[Trick, ...]:
    plays = state.plays
    winners = _trick_winners(state)
    won = len(winners)
    pairs = _PLAY_PAIRS
    return tuple(
        [
            Trick(
                plays[start] >> 6,
                tuple([pairs[p] for p in plays[start : start + 4]]),
                winners[start >> 2] if start >> 2 < won else None,
            )
            for start in range(0, len(plays), 4)
        ]
    )


def _trick_winners(state: MatchState) -> list[int]:
    """The winner of each completed trick: the leader of the next one (or the last taker)."""
    plays = state.plays
    winners = [plays[start] >> 6 for start in range(4, len(plays), 4)]
    if state.trick_no > len(winners):  # last trick of the hand is complete
        winners.append(state.turn)
    return winners[: state.trick_no]


def view_for(state: MatchState, seat: int) -> SeatView:
    """Everything ``seat`` may know about the match now, and nothing more."""
    my_turn = seat == state.turn
    legal = state.legal_card_mask() if my_turn and state.phase == PHASE_PLAY else 0
    allowed: tuple[ChooseContract, ...] = ()
    if my_turn and state.phase == PHASE_CONTRACT:
        allowed = tuple(state.allowed_contracts())
    hands = state.hands
    left = (
        (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count(), hands[3].bit_count())
        if state.phase != 2
        else (0, 0, 0, 0)
    )
    in_play = state.phase == PHASE_PLAY
    return SeatView(
        seat=seat,
        version=state.version,
        ruleset=state.ruleset.name,
        num_hands=state.num_hands,
        hand_index=state.hand_index,
        phase=state.phase,
        declarer=state.declarer,
        contract=state.contract,
        trump=state.trump,
        turn=state.turn,
        hand=hands[seat] if state.phase != 2 else 0,
        tricks=_tricks(state) if in_play else (),
        cards_left=left,
        tricks_taken=tuple(state.tricks_taken),  # type: ignore[arg-type]
        # (over: the last hand's cards are not shown, its tricks and taken cards neither;
        # the sheet has its result)
        taken=tuple(state.taken) if state.phase != 2 else (0, 0, 0, 0),  # type: ignore[arg-type]
        hand_points=tuple(state.hand_points),  # type: ignore[arg-type]
        totals=tuple(state.totals),  # type: ignore[arg-type]
        sheet=tuple(state.sheet),
        legal_cards=legal,
        allowed_contracts=allowed,
    )
