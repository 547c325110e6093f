"""What one seat may see: ``view_for(state, seat)``.

A seat sees its own cards, the current trick, every card played so far in this hand (with who
played it, trick by trick), the tricks and penalty cards each seat has taken, the scores, whose
turn it is, and — on its turn — its legal moves. It never sees another seat's cards nor the
match key. Bots get exactly this object and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import CARD_CODES, SUIT_CHARS, card_codes, format_suit, parse_card
from .contracts import (
    CONTRACT_CODES,
    CONTRACTS,
    NO_TRUMP,
    TRUMP,
    contract_code,
    parse_contract,
)
from .match import (
    PHASE_ANNOUNCE,
    PHASE_CONTRACT,
    PHASE_NAMES,
    PHASE_PLAY,
    PHASE_REDEAL_OFFER,
    DealRecord,
    HandRecord,
    MatchState,
)
from .moves import ChooseContract, contract_move


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick of the current hand: who led, the (seat, card) plays in order, who won."""

    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int | None  # None while the trick is still being played


@dataclass(frozen=True, slots=True)
class PhaseFacts:
    """The public facts of a phased ruleset's match (traditional §8.1), the same for every
    seat. One object, so that the views of plain rulesets carry none of it."""

    deal_no: int
    redeals: int  # redeals and replays of this hand slot
    redeal_cap: int
    options: Mapping[str, Any]
    picks_left: tuple[tuple[int, int], ...]  # (penalty, Koz) picks left by seat
    contract_counts: tuple[int, ...]  # n(c): scored hands of each contract so far
    asked: tuple[int, ...]  # the ask order of the redeal round or announcement
    answers: tuple[str, ...]  # its answers so far
    announcer: int  # -1: nobody announced King
    runs: tuple[int, int, int, int]
    deals: tuple[DealRecord, ...]  # the thrown-away deals of this match (redealt/replayed)
    forfeits: tuple[int, ...] = ()  # seats that lost on time or resigned (a bot plays them)


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
    calls: tuple[str, ...] = ()  # this seat's legal one-word moves; empty unless it is to move
    first_declarer: int = 0
    facts: PhaseFacts | None = None  # phased rulesets only

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
        legal_cards = card_codes(self.legal_cards)
        legal_moves = legal_cards + [str(m) for m in self.allowed_contracts] + list(self.calls)
        data = {
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
            "legal_cards": legal_cards,
            "allowed_contracts": [_contract_dict(m) for m in self.allowed_contracts],
            "legal_moves": legal_moves,
        }
        facts = self.facts
        first = self.first_declarer
        if facts is None:
            data.update(
                deal=self.hand_index, redeals=0, redeal_cap=0, options={}, first_declarer=first
            )
        else:
            data.update(
                deal=facts.deal_no,
                redeals=facts.redeals,
                redeal_cap=facts.redeal_cap,
                options=dict(facts.options),
                first_declarer=first,
            )
            data.update(self._phased_dict(facts))
        return data

    def _phased_dict(self, facts: PhaseFacts) -> dict[str, Any]:
        card = facts.options.get("first_declarer_card")
        asked = facts.asked
        answered = len(facts.answers)
        return dict(
            first_declarer_reason=f"held {card} in deal 0" if card else None,
            picks_left=[{"penalty": p, "trump": k} for p, k in facts.picks_left],
            contract_counts=dict(zip(CONTRACT_CODES, facts.contract_counts, strict=True)),
            redeal_round=(
                {
                    "ask_order": list(asked),
                    "asked": asked[answered] if answered < len(asked) else None,
                    "answers": list(facts.answers),
                }
                if self.phase == PHASE_REDEAL_OFFER
                else None
            ),
            announce=(
                {"ask_order": list(asked), "asked": self.turn, "answers": list(facts.answers)}
                if self.phase == PHASE_ANNOUNCE
                else None
            ),
            announcer=(
                {
                    "seat": facts.announcer,
                    "won": self.tricks_taken[facts.announcer],
                    "run": facts.runs[facts.announcer],
                }
                if facts.announcer >= 0
                else None
            ),
            runs=list(facts.runs),  # tricks in a row up to the last, by seat (the King feat)
            deals=[d.to_dict() for d in facts.deals],
            # (the API's top-level ``forfeits`` keeps its order of leaving; this is the engine's)
            forfeited_seats=list(facts.forfeits),
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatView:
        """The ``SeatView`` whose ``to_dict()`` is ``data`` (what API clients and bots get).
        The cards each seat won are recomputed from the completed tricks, which are public."""
        tricks = [_trick_of(t) for t in data.get("tricks") or []]
        if data.get("current_trick"):
            tricks.append(_trick_of(data["current_trick"]))
        taken = [0, 0, 0, 0]
        for trick in tricks:
            if trick.winner is not None:
                for _, card in trick.plays:
                    taken[trick.winner] |= 1 << card
        allowed = tuple(
            contract_move(c["contract"], c.get("trump"))
            for c in data.get("allowed_contracts") or []
        )
        turn = data.get("turn")
        contract = data.get("contract")
        return cls(
            seat=int(data["seat"]),
            version=int(data.get("version", 0)),  # the API sends its own version beside it
            ruleset=str(data["ruleset"]),
            num_hands=int(data["hands_in_match"]),
            hand_index=int(data["hand"]),
            phase=PHASE_NAMES.index(data["phase"]),
            declarer=int(data["declarer"]),
            contract=parse_contract(contract) if contract else -1,
            trump=_suit_of(data.get("trump")),
            turn=-1 if turn is None else int(turn),
            hand=_mask_of(data.get("my_cards") or []),
            tricks=tuple(tricks),
            cards_left=_four(data["cards_left"]),
            tricks_taken=_four(data["tricks_taken"]),
            taken=_four(taken),
            hand_points=_four(data["hand_points"]),
            totals=_four(data["totals"]),
            sheet=tuple(_record_of(r) for r in data.get("score_sheet") or []),
            legal_cards=_mask_of(data.get("legal_cards") or []),
            allowed_contracts=tuple(ChooseContract(m.contract, m.trump) for m in allowed),
            calls=tuple(
                m for m in data.get("legal_moves") or [] if m in ("redeal", "keep", "king", "pass")
            ),
            first_declarer=int(data.get("first_declarer", 0)),
            facts=_facts_of(data) if "picks_left" in data else None,
        )


def _facts_of(data: Mapping[str, Any]) -> PhaseFacts:
    round_ = data.get("redeal_round") or data.get("announce") or {}
    announcer = data.get("announcer")
    counts = [0] * len(CONTRACTS)
    for code, n in (data.get("contract_counts") or {}).items():
        counts[parse_contract(code)] = int(n)
    return PhaseFacts(
        deal_no=int(data["deal"]),
        redeals=int(data.get("redeals", 0)),
        redeal_cap=int(data.get("redeal_cap", 0)),
        options=dict(data.get("options") or {}),
        picks_left=tuple((int(p["penalty"]), int(p["trump"])) for p in data["picks_left"]),
        contract_counts=tuple(counts),
        asked=tuple(int(s) for s in round_.get("ask_order", ())),
        answers=tuple(str(a) for a in round_.get("answers", ())),
        announcer=int(announcer["seat"]) if announcer else -1,
        runs=_four(data["runs"]),
        deals=tuple(_deal_of(d) for d in data.get("deals") or []),
        forfeits=tuple(int(s) for s in data.get("forfeited_seats", ())),
    )


def _suit_of(text: str | None) -> int:
    return NO_TRUMP if not text else "CDHS".index(text.upper())


def _mask_of(codes: list[str]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << parse_card(code)
    return mask


def _trick_of(data: Mapping[str, Any]) -> Trick:
    plays = tuple((int(p["seat"]), parse_card(p["card"])) for p in data["plays"])
    winner = data.get("winner")
    return Trick(int(data["leader"]), plays, None if winner is None else int(winner))


def _record_of(data: Mapping[str, Any]) -> HandRecord:
    points = data["points"]
    hand = int(data["hand"])
    deal = data.get("deal")
    return HandRecord(
        hand,
        int(data["declarer"]),
        parse_contract(data["contract"]),
        _suit_of(data.get("trump")),
        _four(points),
        int(data["tricks_played"]),
        None if deal is None or int(deal) == hand else int(deal),
        bool(data.get("partial", False)),
    )


def _deal_of(data: Mapping[str, Any]) -> DealRecord:
    points = data.get("points")
    contract = data.get("contract")
    return DealRecord(
        int(data["deal"]),
        int(data["hand"]),
        parse_contract(contract) if contract else -1,
        _suit_of(data.get("trump")),
        str(data["ended"]),
        data.get("asked_by"),
        data.get("reason"),
        tuple(data.get("answers") or ()),
        _four(points) if points is not None else None,
    )


def _four(values: Any) -> tuple[int, int, int, int]:
    return (int(values[0]), int(values[1]), int(values[2]), int(values[3]))


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
    extra: dict[str, Any] = {}
    ruleset = state.ruleset
    if ruleset.phased:
        usage = state.usage
        asking = state.phase in (PHASE_REDEAL_OFFER, PHASE_ANNOUNCE)
        facts = PhaseFacts(
            deal_no=state.deal_no,
            redeals=state.redeals,
            redeal_cap=state.options.get("max_redeals_per_hand", 0),
            options=state.options,
            picks_left=tuple(
                (3 - usage.penalty_picks[s], 2 - usage.trump_picks[s]) for s in range(4)
            ),
            contract_counts=tuple(usage.contract_counts),
            # (a redeal round or an announcement is shown while it runs)
            asked=state.asked if asking else (),
            answers=tuple(state.answers) if asking else (),
            announcer=state.announcer,
            runs=tuple(state.runs),  # type: ignore[arg-type]
            deals=tuple(d for d in state.deals if d.ended != "played"),
            forfeits=state.forfeits,
        )
        extra = {
            "calls": tuple(str(c) for c in state.legal_calls()) if my_turn else (),
            "first_declarer": state.first,
            "facts": facts,
        }
    elif state.first:
        extra = {"first_declarer": state.first}
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
        **extra,
    )
