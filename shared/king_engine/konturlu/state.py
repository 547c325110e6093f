"""The konturlu match state (RULES-konturlu.md).

A match is 32 hands. Hand h is declared by seat (f + h) mod 4, f the winner of the opening
draw (§1.2, §1.3); every seat declares each of its eight contracts once: the six penalties,
Koz with a trump suit, Dürt with a rank (§1.1). Each hand: deal → contract move → the
challenge phase (``challenge.py``) → trick play (§2) or the Dürt layout game (``durt.py``) →
settlement (``settle.py``). Every seat starts at +122, so the final totals sum to 0 (§6).

Trick play is freer than ``standard``: follow suit with any card, a void player discards
anything, except in Rıfkı (a heart while holding one). Kupa and Rıfkı forbid a heart lead
before hearts are broken unless the leader holds only hearts (Kupa: then its highest). Kupa,
Erkek, Kız and Rıfkı end once their penalty cards are all taken (§2.6).

A Rıfkı deal may be cancelled by a seat whose only heart is K♥ or A♥ (``rifki:boz`` by the
declarer, ``boz`` by a round-1 speaker); the same hand is dealt again with the next deal
number and the declarer's contract stays Rıfkı (§2.7).

Two ways in, as ``MatchState``: ``apply(seat, move)`` checks and returns public events and
leaves the state unchanged on error; ``apply_action(action)`` is the trusted fast path. Moves
the engine makes by itself (a Dürt ``pas``, the automatic sür) happen inside the move that
caused them and are reported with ``"auto": True``.

The contracts and trick rules are in ``rules.py``, the move encoding in ``moves.py``, the stored
form in ``stored.py`` and the ruleset object in ``ruleset.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from king_message.winners import match_winners, placements

from ..cards import (
    CARD_CODES,
    HEARTS_MASK,
    RANK_CHARS,
    SUIT_CHARS,
    SUIT_MASK,
    card_codes,
    suit_of,
)
from ..deal import DECK_52
from ..errors import (
    RULE_DURT_LAYOUT,
    RULE_FOLLOW_SUIT,
    RULE_HEARTS_NOT_BROKEN,
    RULE_HIGHEST_HEART,
    RULE_MUST_PLAY_HEART,
    BadInput,
    IllegalMove,
)
from ..moves import PlayCard
from ..tricks import beats
from . import challenge as ch
from . import stored
from .durt import CLOSED, Layout, layout_dict, place_card, playable_mask
from .moves import (
    A_BOZ,
    A_IYI,
    A_PAS,
    A_RIFKI,
    A_RIFKI_BOZ,
    ACTION_TEXT,
    CONTRACT_BASE,
    CONTRACT_OF_WORD,
    DURT_BASE,
    KOZ_BASE,
    KOZ_ORDER,
    KonturluMove,
    Move,
    call_action,
    call_of_action,
    move_of_action,
    valid_action,
)
from .rules import (
    CONTRACT_CODES,
    DURT,
    EARLY_END_MASK,
    HAND_TOTALS,
    KOZ,
    NUM_HANDS,
    PENALTIES,
    RIFKI,
    STARTING_TOTAL,
    TRICKS,
    can_cancel_rifki,
    trick_legal_mask,
    trick_points,
)
from .settle import Settlement, durt_points, settle

if TYPE_CHECKING:
    from .ruleset import KonturluRuleset

PHASE_CONTRACT, PHASE_KONTUR, PHASE_SUR, PHASE_PLAY, PHASE_DURT, PHASE_OVER = range(6)
PHASE_NAMES: Final = ("contract", "kontur", "sur", "play", "durt", "over")
REASON_RIFKI: Final = "rifki_single_heart"


Dealer = Callable[[bytes, int, Sequence[int]], list[int]]
Event = dict[str, Any]


class KonturluState:
    """The full state of a konturlu match; see the module docstring."""

    __slots__ = (
        "challenge",
        "contract",
        "contract_arg",
        "deal_moves",
        "deal_no",
        "dealer",
        "deals",
        "declared",
        "done",
        "draw",
        "earlier",
        "first",
        "forced_rifki",
        "forfeit_at",
        "forfeits",
        "hand_index",
        "hands",
        "last",
        "last_trick",
        "layout",
        "leader",
        "led",
        "log",
        "match_key",
        "num_hands",
        "options",
        "phase",
        "places",
        "points",
        "redeals",
        "ruleset",
        "sheet",
        "taken",
        "totals",
        "trick",
        "trick_no",
        "tricks_taken",
        "turn",
        "version",
    )

    ruleset: KonturluRuleset
    num_hands: int
    match_key: bytes
    options: dict[str, Any]
    dealer: Dealer
    draw: dict[str, Any] | None  # the opening draw's transcript form (None: a test's first)
    first: int
    version: int
    hand_index: int
    deal_no: int
    phase: int
    turn: int
    declared: list[int]  # per seat, bit c set once contract c is declared
    forced_rifki: bool  # this hand was redealt: its contract stays Rıfkı (§2.7.3)
    hands: list[int]
    contract: int  # -1 before the contract move
    contract_arg: int  # Koz trump suit / Dürt rank, -1 otherwise
    challenge: ch.Challenge | None
    trick: list[int]  # cards of the current trick in play order
    leader: int
    led: int
    trick_no: int
    earlier: int  # cards of completed tricks of this hand
    taken: list[int]
    tricks_taken: list[int]
    points: list[int]  # P (penalties) or G (Koz) so far this hand
    last_trick: list[list[Any]] | None
    done: list[dict[str, Any]]  # this hand's completed tricks: plays and winner (public)
    layout: Layout
    places: list[int]  # Dürt: seats out so far, 1st first
    last: list[str | None]  # Dürt: each seat's last action (card code or "pas")
    totals: list[int]
    sheet: list[dict[str, Any]]
    deals: list[dict[str, Any]]  # finished deals, in order
    deal_moves: list[tuple[int, str]]  # the current deal's moves, auto passes included
    redeals: list[dict[str, Any]]  # the current hand's cancelled deals (for the view)
    log: list[int]  # the players' actions of the match (replayed by from_bytes)
    forfeits: tuple[int, ...]
    forfeit_at: tuple[int, ...]

    # ------------------------------------------------------------------ set-up

    @classmethod
    def _new(
        cls,
        ruleset: KonturluRuleset,
        match_key: bytes,
        options: dict[str, Any],
        dealer: Dealer,
        first: int,
        draw: dict[str, Any] | None,
    ) -> KonturluState:
        state = cls.__new__(cls)
        state.ruleset = ruleset
        state.num_hands = NUM_HANDS
        state.match_key = match_key
        state.options = options
        state.dealer = dealer
        state.draw = draw
        state.first = first
        state.version = 0
        state.hand_index = 0
        state.deal_no = 0
        state.declared = [0, 0, 0, 0]
        state.forced_rifki = False
        state.totals = [STARTING_TOTAL] * 4
        state.sheet = []
        state.deals = []
        state.redeals = []
        state.log = []
        state.forfeits = ()
        state.forfeit_at = ()
        state._start_deal()
        return state

    def _start_deal(self) -> None:
        hands = self.dealer(self.match_key, self.deal_no, DECK_52)
        self.hands = list(hands)
        self.phase = PHASE_CONTRACT
        self.turn = self.declarer
        self.contract = RIFKI if self.forced_rifki else -1
        self.contract_arg = -1
        self.challenge = None
        self.trick = []
        self.leader = -1
        self.led = -1
        self.trick_no = 0
        self.earlier = 0
        self.taken = [0, 0, 0, 0]
        self.tricks_taken = [0, 0, 0, 0]
        self.points = [0, 0, 0, 0]
        self.last_trick = None
        self.done = []
        self.layout = CLOSED
        self.places = []
        self.last = [None, None, None, None]
        self.deal_moves = []

    def copy(self) -> KonturluState:
        other = KonturluState.__new__(KonturluState)
        for name in KonturluState.__slots__:
            setattr(other, name, getattr(self, name))
        for name in (
            "declared", "hands", "trick", "taken", "tricks_taken", "points", "places", "last",
            "totals", "sheet", "deals", "deal_moves", "redeals", "log", "done",
        ):  # fmt: skip
            setattr(other, name, getattr(self, name)[:])
        if self.challenge is not None:
            other.challenge = self.challenge.copy()
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KonturluState):
            return NotImplemented
        return all(
            getattr(self, n) == getattr(other, n)
            for n in KonturluState.__slots__
            if n not in ("dealer", "ruleset")
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<KonturluState hand {self.hand_index + 1}/{self.num_hands} deal {self.deal_no} "
            f"{PHASE_NAMES[self.phase]} turn={self.turn} v{self.version}>"
        )

    # ------------------------------------------------------------------ queries

    @property
    def declarer(self) -> int:
        return (self.first + self.hand_index) % 4

    @property
    def dealer_seat(self) -> int:
        """For display only (§1.4): the previous declarer."""
        return (self.first + self.hand_index - 1) % 4

    @property
    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    @property
    def current_player(self) -> int | None:
        return None if self.phase == PHASE_OVER else self.turn

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def contracts_left(self, seat: int) -> list[str]:
        """The contracts ``seat`` still has to declare (public, §8.1)."""
        return [CONTRACT_CODES[c] for c in range(8) if not self.declared[seat] >> c & 1]

    def legal_actions(self) -> list[int]:
        """The mover's legal actions in the spec's order (empty once over)."""
        phase = self.phase
        if phase == PHASE_PLAY:
            mask = trick_legal_mask(self.contract, self.hands[self.turn], self.led, self.earlier)
            return [c for c in range(52) if mask >> c & 1]
        if phase == PHASE_DURT:
            mask = playable_mask(self.hands[self.turn], self.contract_arg, self.layout)
            return [c for c in range(52) if mask >> c & 1]
        if phase == PHASE_CONTRACT:
            return self._contract_actions()
        if phase in (PHASE_KONTUR, PHASE_SUR):
            chal = self.challenge
            assert chal is not None
            actions = [call_action(word, mask) for word, mask in chal.legal_calls()]
            if (
                phase == PHASE_KONTUR
                and self.contract == RIFKI
                and can_cancel_rifki(self.hands[self.turn])
            ):
                actions.append(A_BOZ)
            return actions
        return []

    def _contract_actions(self) -> list[int]:
        seat = self.turn
        eligible = can_cancel_rifki(self.hands[seat])
        if self.forced_rifki:
            return [A_RIFKI, A_RIFKI_BOZ] if eligible else [A_RIFKI]
        done = self.declared[seat]
        actions = [
            CONTRACT_BASE + i
            for i, contract in enumerate(CONTRACT_OF_WORD)
            if not done >> contract & 1 and (i != A_RIFKI_BOZ - CONTRACT_BASE or eligible)
        ]
        if not done >> KOZ & 1:
            actions.extend(KOZ_BASE + suit for suit in KOZ_ORDER)
        if not done >> DURT & 1:
            actions.extend(DURT_BASE + rank for rank in range(13))
        return actions

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The legal moves of ``seat`` (default: the mover); empty if it is not to move."""
        if self.phase == PHASE_OVER or (seat is not None and seat != self.turn):
            return []
        return [move_of_action(a) for a in self.legal_actions()]

    # ------------------------------------------------------------------ checked path

    def apply(self, seat: int, move: Move) -> list[Event]:
        """Check ``move`` by ``seat`` and apply it; return the public events it caused.

        ``IllegalMove`` codes: ``match_over``, ``not_your_turn``, ``wrong_phase``,
        ``contract_unavailable`` (``reason`` ``quota`` or ``rifki_redeal``),
        ``not_eligible_for_redeal``, ``illegal_call`` (``reason`` ``own_seat``,
        ``declarer_only``, ``not_konturred``), ``card_not_in_hand``, ``illegal_card`` (``rule``
        ``follow_suit``, ``hearts_not_broken``, ``highest_heart``, ``must_play_heart``,
        ``durt_layout``), ``pass_not_allowed``; ``BadInput`` (``bad_seat``, ``bad_move``).
        Nothing changes on error.
        """
        if self.phase == PHASE_OVER:
            raise IllegalMove("match_over", "the match is over: no more moves")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise BadInput("bad_seat", f"seat {seat!r} is not 0..3")
        if seat != self.turn:
            raise IllegalMove(
                "not_your_turn", f"it is seat {self.turn}'s turn, not seat {seat}'s", turn=self.turn
            )
        action = getattr(move, "action", None)
        if not isinstance(move, PlayCard | KonturluMove) or not valid_action(action):
            raise BadInput("bad_move", f"{move!r} is not a konturlu move")
        assert isinstance(action, int)
        action = self._checked(seat, action)
        events: list[Event] = []
        self._apply_trusted(action, events)
        return events

    def _wrong_phase(self, seat: int, move: str) -> IllegalMove:
        expected = {
            PHASE_CONTRACT: "name the contract",
            PHASE_KONTUR: "make a round-1 call (iyi, kontur, masa, haric)",
            PHASE_SUR: "make a round-2 call (iyi, sur)",
            PHASE_PLAY: "play a card",
            PHASE_DURT: "play a card onto the layout",
        }[self.phase]
        return IllegalMove(
            "wrong_phase",
            f"seat {seat} must {expected} now, not {move}",
            phase=PHASE_NAMES[self.phase],
        )

    def _checked(self, seat: int, action: int) -> int:
        """The canonical action for ``action`` by the mover, or the refusal."""
        phase, text = self.phase, ACTION_TEXT[action]
        if action == A_PAS:
            if phase == PHASE_DURT:
                raise IllegalMove(
                    "pass_not_allowed",
                    f"seat {seat} holds a playable card and must play it (the server passes "
                    "for a seat with none)",
                )
            raise self._wrong_phase(seat, text)
        if action < CONTRACT_BASE:
            if phase not in (PHASE_PLAY, PHASE_DURT):
                raise self._wrong_phase(seat, f"play {text}")
            self._check_card(seat, action)
            return action
        if action < A_IYI:
            if phase != PHASE_CONTRACT:
                raise self._wrong_phase(seat, text)
            return self._check_contract(seat, action)
        if phase not in (PHASE_KONTUR, PHASE_SUR):
            raise self._wrong_phase(seat, text)
        if action == A_BOZ:
            if phase != PHASE_KONTUR:
                raise IllegalMove("wrong_phase", "boz is a round-1 call", phase="sur")
            if self.contract != RIFKI or not can_cancel_rifki(self.hands[seat]):
                raise IllegalMove(
                    "not_eligible_for_redeal",
                    "only a seat whose only heart is K♥ or A♥ may cancel a Rıfkı deal",
                )
            return action
        chal = self.challenge
        assert chal is not None
        word, mask = chal.canonical(seat, *call_of_action(action))
        return call_action(word, mask)

    def _check_contract(self, seat: int, action: int) -> int:
        allowed = self._contract_actions()
        if action in allowed:
            return action
        if action == A_RIFKI_BOZ and A_RIFKI in allowed:
            raise IllegalMove(
                "not_eligible_for_redeal",
                "rifki:boz needs a hand whose only heart is K♥ or A♥",
            )
        reason = "rifki_redeal" if self.forced_rifki else "quota"
        message = (
            "this hand was redealt: its contract stays Rıfkı"
            if self.forced_rifki
            else f"seat {seat} has declared {ACTION_TEXT[action].split(':')[0]} already"
        )
        raise IllegalMove(
            "contract_unavailable",
            message,
            reason=reason,
            allowed=[ACTION_TEXT[a] for a in allowed],
        )

    def _check_card(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        code = CARD_CODES[card]
        if not hand >> card & 1:
            raise IllegalMove("card_not_in_hand", f"seat {seat} does not hold {code}", card=code)
        if self.phase == PHASE_DURT:
            if not playable_mask(hand, self.contract_arg, self.layout) >> card & 1:
                raise IllegalMove(
                    "illegal_card",
                    f"{code} does not open a suit with the named rank or extend a run",
                    rule=RULE_DURT_LAYOUT,
                    card=code,
                )
            return
        legal = trick_legal_mask(self.contract, hand, self.led, self.earlier)
        if legal >> card & 1:
            return
        if self.led < 0:
            rule = RULE_HIGHEST_HEART if not hand & ~HEARTS_MASK else RULE_HEARTS_NOT_BROKEN
        elif hand & SUIT_MASK[self.led]:
            rule = RULE_FOLLOW_SUIT
        else:
            rule = RULE_MUST_PLAY_HEART
        message = f"{code} is not allowed here ({rule.replace('_', ' ')})"
        raise IllegalMove("illegal_card", message, rule=rule, card=code)

    # ------------------------------------------------------------------ fast path

    def apply_action(self, action: int) -> None:
        """Apply a *trusted* canonical action for the mover (no checks): only actions from
        ``legal_actions()``. An illegal one corrupts the state silently."""
        self._apply_trusted(action, None)

    def _apply_trusted(self, action: int, events: list[Event] | None) -> None:
        seat = self.turn
        self.version += 1
        self.log.append(action)
        self.deal_moves.append((seat, ACTION_TEXT[action]))
        phase = self.phase
        if phase == PHASE_PLAY:
            self._play_trick_card(seat, action, events)
        elif phase == PHASE_DURT:
            self._play_durt_card(seat, action, events)
        elif phase == PHASE_CONTRACT:
            self._choose_contract(seat, action, events)
        elif action == A_BOZ:
            self._redeal(seat, events)
        else:
            self._call(seat, action, events)

    def _choose_contract(self, seat: int, action: int, events: list[Event] | None) -> None:
        if action < KOZ_BASE:
            contract, arg = CONTRACT_OF_WORD[action - CONTRACT_BASE], -1
        elif action < DURT_BASE:
            contract, arg = KOZ, action - KOZ_BASE
        else:
            contract, arg = DURT, action - DURT_BASE
        self.contract, self.contract_arg = contract, arg
        self.declared[seat] |= 1 << contract
        if events is not None:
            events.append(
                {
                    "type": "contract_chosen",
                    "hand": self.hand_index,
                    "deal": self.deal_no,
                    "seat": seat,
                    "move": ACTION_TEXT[action],
                    **self._contract_dict(),
                }
            )
        if action == A_RIFKI_BOZ:
            self._redeal(seat, events)
            return
        self.challenge = ch.Challenge(seat, contract in PENALTIES)
        self.phase = PHASE_KONTUR
        self.turn = (seat + 1) % 4

    def _call(self, seat: int, action: int, events: list[Event] | None) -> None:
        chal = self.challenge
        assert chal is not None
        word, mask = call_of_action(action)
        if word == ch.MASA:
            mask = ch.others(seat)
        elif word == ch.HARIC:
            mask = ch.non_declarers(seat, chal.declarer)
        call_round = chal.round
        auto = chal.apply(word, mask)
        if events is not None:
            events.append(
                {
                    "type": "call",
                    "hand": self.hand_index,
                    "round": call_round,
                    "seat": seat,
                    "call": ACTION_TEXT[action],
                    "targets": ch.seats_of(mask),
                }
            )
            if auto:
                events.append(
                    {
                        "type": "sur_auto",
                        "hand": self.hand_index,
                        "pairs": [list(pair) for pair in auto],
                        "auto": True,
                    }
                )
        if not chal.over:
            self.phase = PHASE_KONTUR if chal.round == 1 else PHASE_SUR
            to_move = chal.to_move
            assert to_move is not None
            self.turn = to_move
            return
        self._start_play(events)

    def _start_play(self, events: list[Event] | None) -> None:
        chal = self.challenge
        assert chal is not None
        if events is not None:
            events.append(
                {
                    "type": "play_started",
                    "hand": self.hand_index,
                    "pairs": chal.pair_table(),
                }
            )
        self.turn = self.declarer
        if self.contract == DURT:
            self.phase = PHASE_DURT
            self._durt_next(self.declarer, events)
        else:
            self.phase = PHASE_PLAY

    def _redeal(self, seat: int, events: list[Event] | None) -> None:
        """§2.7: the deal is void; the same hand is dealt again with the next deal number."""
        heart = self.hands[seat] & HEARTS_MASK
        card = CARD_CODES[heart.bit_length() - 1]
        record = self._deal_record("redealt", asked_by=seat, reason=REASON_RIFKI, card=card)
        self.deals.append(record)
        self.redeals.append(
            {
                "deal": self.deal_no,
                "seat": seat,
                "card": card,
                "calls": record["moves"],
            }
        )
        if events is not None:
            events.append(
                {
                    "type": "redeal",
                    "hand": self.hand_index,
                    "deal": self.deal_no,
                    "seat": seat,
                    "card": card,
                    "reason": REASON_RIFKI,
                }
            )
        self.forced_rifki = True
        self.deal_no += 1
        self._start_deal()
        if events is not None:
            events.append(self._hand_started_event())

    def _hand_started_event(self) -> Event:
        return {
            "type": "hand_started",
            "hand": self.hand_index,
            "deal": self.deal_no,
            "declarer": self.declarer,
            "redeal": self.forced_rifki,
        }

    def _deal_record(self, ended: str, **extra: Any) -> dict[str, Any]:
        return {
            "deal": self.deal_no,
            "hand": self.hand_index,
            "deck_size": 52,
            "ended": ended,
            **extra,
            "moves": [[s, text] for s, text in self.deal_moves],
        }

    # ------------------------------------------------------------------ trick play

    def _play_trick_card(self, seat: int, card: int, events: list[Event] | None) -> None:
        bit = 1 << card
        self.hands[seat] ^= bit
        trick = self.trick
        if not trick:
            self.leader = seat
            self.led = suit_of(card)
        trick.append(card)
        if events is not None:
            events.append(
                {
                    "type": "card_played",
                    "hand": self.hand_index,
                    "trick": self.trick_no,
                    "seat": seat,
                    "card": CARD_CODES[card],
                }
            )
        if len(trick) < 4:
            self.turn = (seat + 1) % 4
            return
        trump = self.contract_arg if self.contract == KOZ else -1
        best, winner = trick[0], self.leader
        for offset in range(1, 4):
            if beats(trick[offset], best, trump):
                best, winner = trick[offset], (self.leader + offset) % 4
        mask = sum(1 << c for c in trick)
        points = trick_points(self.contract, mask, self.trick_no)
        self.points[winner] += points
        self.tricks_taken[winner] += 1
        self.taken[winner] |= mask
        self.earlier |= mask
        self.last_trick = [[(self.leader + i) % 4, CARD_CODES[c]] for i, c in enumerate(trick)]
        self.done.append({"plays": self.last_trick, "winner": winner})
        if events is not None:
            events.append(
                {
                    "type": "trick_won",
                    "hand": self.hand_index,
                    "trick": self.trick_no,
                    "seat": winner,
                    "cards": [CARD_CODES[c] for c in trick],
                    "points": points,
                }
            )
        self.trick_no += 1
        self.trick = []
        self.led = -1
        self.turn = winner
        early = EARLY_END_MASK[self.contract]
        if self.trick_no == TRICKS or (early and self.earlier & early == early):
            self._finish_hand(events)

    # ------------------------------------------------------------------ Dürt

    def _play_durt_card(self, seat: int, card: int, events: list[Event] | None) -> None:
        self.hands[seat] ^= 1 << card
        self.layout = place_card(self.layout, card, self.contract_arg)
        code = CARD_CODES[card]
        self.last[seat] = code
        if events is not None:
            events.append(
                {"type": "card_played", "hand": self.hand_index, "seat": seat, "card": code}
            )
        if not self.hands[seat]:
            self.places.append(seat)
            if events is not None:
                events.append(
                    {
                        "type": "place",
                        "hand": self.hand_index,
                        "seat": seat,
                        "place": len(self.places),
                    }
                )
            if len(self.places) == 3:  # the last seat is 4th whatever it does (D24)
                self.places.append(next(s for s in range(4) if self.hands[s]))
                self._finish_hand(events)
                return
        self._durt_next((seat + 1) % 4, events)

    def _durt_next(self, seat: int, events: list[Event] | None) -> None:
        """Hand the turn to the next seat from ``seat`` with a playable card, passing for
        every seat with cards but none playable (§4.4) and skipping empty hands."""
        rank, layout, hands = self.contract_arg, self.layout, self.hands
        while True:
            hand = hands[seat]
            if hand:
                if playable_mask(hand, rank, layout):
                    self.turn = seat
                    return
                self.last[seat] = "pas"
                self.deal_moves.append((seat, "pas"))
                if events is not None:
                    events.append(
                        {"type": "pass", "hand": self.hand_index, "seat": seat, "auto": True}
                    )
            seat = (seat + 1) % 4

    # ------------------------------------------------------------------ settlement

    def hand_settlement(self) -> Settlement:
        """The settlement of the current hand's points as they stand (§5)."""
        chal = self.challenge
        assert chal is not None
        pairs = chal.multipliers()
        if self.contract == DURT:
            return settle(durt_points(self.places), pairs, penalty=False)
        return settle(self.points, pairs, penalty=self.contract in PENALTIES)

    def _finish_hand(self, events: list[Event] | None) -> None:
        chal = self.challenge
        assert chal is not None
        result = self.hand_settlement()
        total = HAND_TOTALS[self.contract]
        if sum(result.scores) != total:  # §6.1: challenges never change a hand's total
            raise AssertionError(f"hand {self.hand_index} sums to {sum(result.scores)}")
        for seat in range(4):
            self.totals[seat] += result.scores[seat]
        raw = durt_points(self.places) if self.contract == DURT else self.points[:]
        row: dict[str, Any] = {
            "hand": self.hand_index,
            "deal": self.deal_no,
            "deals": [*(r["deal"] for r in self.redeals), self.deal_no],
            "declarer": self.declarer,
            **self._contract_dict(),
            "points": raw,
            "pairs": chal.pair_table(),
            "tricks_played": self.trick_no,
            "places": self.places[:] if self.contract == DURT else None,
            **result.to_dict(),
        }
        self.sheet.append(row)
        self.deals.append(self._deal_record("played"))
        if events is not None:
            events.append({"type": "hand_scored", **row, "totals": self.totals[:]})
        self.hand_index += 1
        self.redeals = []
        self.forced_rifki = False
        if self.hand_index == self.num_hands:
            if sum(self.totals) != 0:  # §6.2
                raise AssertionError("the final totals do not sum to 0")
            self.phase = PHASE_OVER
            self.turn = -1
            if events is not None:
                result_dict = self.result()
                events.append(
                    {
                        "type": "match_over",
                        "totals": self.totals[:],
                        "winners": result_dict["winners"],
                        "places": result_dict["places"],
                        "outcome": result_dict["outcome"],
                    }
                )
            return
        self.deal_no += 1
        self._start_deal()
        if events is not None:
            events.append(self._hand_started_event())

    def _contract_view(self) -> dict[str, Any]:
        """Appendix A's form: ``{"type": "koz", "trump": "S"}``, ``{"type": "erkek"}``."""
        out = self._contract_dict()
        return {"type": out.pop("contract"), **out}

    def _contract_dict(self) -> dict[str, Any]:
        contract, arg = self.contract, self.contract_arg
        out: dict[str, Any] = {"contract": CONTRACT_CODES[contract] if contract >= 0 else None}
        if contract == KOZ:
            out["trump"] = SUIT_CHARS[arg]
        elif contract == DURT:
            out["rank"] = RANK_CHARS[arg]
        return out

    # ------------------------------------------------------------------ forfeits, result

    def forfeit(self, seat: int) -> None:
        """Mark ``seat`` as forfeited (lost on time or resigned; a bot plays its turns on).
        ``result`` places it last; marking again, or once over, changes nothing."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise BadInput("bad_seat", f"seat {seat!r} is not 0..3")
        if self.phase == PHASE_OVER or seat in self.forfeits:
            return
        self.forfeits += (seat,)
        self.forfeit_at += (self.version,)

    def result(self, forfeits: Sequence[int] = ()) -> dict[str, Any]:
        """``totals``, ``places`` (1..4, ties share, forfeits last, the earliest leaver
        last), ``winners`` (the top total among the seats that did not forfeit),
        ``end_reason`` and ``outcome`` per seat: ``cikar`` (total ≥ 0) or ``batar`` (< 0, or
        forfeited, as in ``traditional``)."""
        forfeits = tuple(forfeits) or self.forfeits
        totals = self.totals[:]
        return {
            "end_reason": "played_out" if self.is_over else None,
            "totals": totals,
            "places": placements(totals, forfeits),
            "winners": match_winners(totals, forfeits),
            "outcome": [
                "cikar" if totals[s] >= 0 and s not in forfeits else "batar" for s in range(4)
            ],
            "score_sheet": self.sheet[:],
        }

    # ------------------------------------------------------------------ views, logs

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (§8; ``None``: a spectator): public facts, plus its own cards
        and, when it is to move, its legal moves. Never another seat's cards."""
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4
        ):
            raise BadInput("bad_seat", f"seat {seat!r} is not 0..3")
        phase = self.phase
        over = phase == PHASE_OVER
        view: dict[str, Any] = {
            "ruleset": "konturlu",
            "version": self.version,
            "phase": PHASE_NAMES[phase],
            "hand": self.hand_index if not over else self.num_hands - 1,
            "num_hands": self.num_hands,
            "deal": self.deal_no,
            "declarer": self.declarer if not over else None,
            "dealer": self.dealer_seat if not over else None,
            "turn": self.current_player,
            "totals": self.totals[:],
            "draw": self.draw,
            "sheet": self.sheet[:],
            "to_declare": [self.contracts_left(s) for s in range(4)],
            "forfeits": list(self.forfeits),
        }
        if not over:
            named = phase != PHASE_CONTRACT or self.forced_rifki
            view["contract"] = self._contract_view() if named else None
            view["redeals"] = [dict(r) for r in self.redeals]
            view["counts"] = [h.bit_count() for h in self.hands]
            chal = self.challenge
            view["challenge"] = chal.to_dict() if chal is not None else None
            if phase == PHASE_PLAY:
                view["trick"] = {
                    "number": self.trick_no,
                    "leader": self.leader if self.trick else self.turn,
                    "cards": [
                        [(self.leader + i) % 4, CARD_CODES[c]] for i, c in enumerate(self.trick)
                    ],
                }
                view["last_trick"] = self.last_trick
                view["tricks"] = [dict(trick) for trick in self.done]
                view["tricks_taken"] = self.tricks_taken[:]
                view["points"] = self.points[:]
                view["hearts_broken"] = bool(self.earlier & HEARTS_MASK)
                view["if_ended_now"] = self.hand_settlement().to_dict()
            if phase == PHASE_DURT:
                view["durt"] = {
                    "rank": RANK_CHARS[self.contract_arg],
                    "layout": layout_dict(self.layout),
                    "counts": view["counts"],
                    "places": self.places[:],
                    "last": {str(s): a for s, a in enumerate(self.last) if a is not None},
                }
        else:
            view["result"] = self.result()
        if seat is not None:
            view["seat"] = seat
            view["my_cards"] = card_codes(self.hands[seat]) if not over else []
            if self.turn == seat:
                view["legal_moves"] = [ACTION_TEXT[a] for a in self.legal_actions()]
        return view

    def deal_log(self) -> list[dict[str, Any]]:
        """Every deal so far: number, hand, deck size, how it ended (``played``,
        ``redealt`` with who asked, why and the shown card, or ``in_progress``) and its moves
        as (seat, text), the server's passes included."""
        log = [dict(record) for record in self.deals]
        if self.phase != PHASE_OVER:
            log.append(self._deal_record("in_progress"))
        return log

    # ------------------------------------------------------------------ serialised form

    def to_bytes(self) -> bytes:
        """The stored form (``stored.py``)."""
        return stored.encode(self)
