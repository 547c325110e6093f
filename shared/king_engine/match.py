"""The match: deal, declarer rotation, contract choice, trick play, scoring, match end.

One state object covers every phase, in the manner of OpenSpiel's game states:

* ``contract`` — the hand's declarer picks a contract (and for Koz a trump suit) among those
  the ruleset's quotas still allow;
* ``play`` — 13 tricks (fewer when the ruleset ends the hand early). The declarer leads the
  first trick, each trick's winner leads the next; cards must obey the hand's ``HandRules``;
* ``over`` — after the last hand. Highest total wins; every player on the top total is a
  winner. A player who forfeited never wins: ``match_winners(totals, forfeits)`` is the rule
  (the match layer passes the forfeits; phased rulesets also keep them as marks, ``forfeit``,
  because they change King detection). The rule lives in
  ``king_message.winners``, beside the finished-match message, so the rating service applies it
  without loading the engine; it is re-exported here.

Each deal has a number (``deal_no``), dealt from the match key with KINGDEAL-v1 (``deal.py``):
without redeals deal ``d`` is hand ``d``; a redeal or a replayed hand takes the next number.
The deals, the first declarer and each hand's declarer are kept as facts of the state, not
recomputed from the hand index. Plain rulesets declare hand ``h`` by seat
``(first_declarer + h) mod 4``; ``traditional`` starts with the holder of ♦2.

Phased rulesets (``Ruleset.phased``, such as ``traditional``) add phases between contract and
play (``redeal_offer``, ``announce``), moves of their own (``Call``: redeal, keep, king, pass)
and ends of their own (the King feat); the ruleset's hooks decide them and ``phased.py``
carries them out, so this module keeps the common core (the state, the contract choice, trick
play, the plain rulesets' hand ends).

Two ways in:

* the **checked path** ``apply(seat, move)`` for outside input: it raises an ``IllegalMove``
  (or ``BadInput``) with a stable code naming the broken rule and leaves the state untouched;
  it returns the public events the move caused;
* the **fast path** ``apply_action(action)`` for simulations: the mover is whoever is to move
  and the action is *trusted*. An illegal action corrupts the state silently. Use it only with
  actions from ``legal_actions()`` (or equivalent masks). ``play_card(card)`` and
  ``choose_contract(contract, trump)`` are the same unchecked steps by kind (what bots'
  playouts call).

``version`` goes up by one with every applied move. ``to_bytes``/``from_bytes`` give a compact
form of the whole state that round-trips exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from king_message.winners import match_winners, placements

from .cards import (
    CARD_BIT,
    CARD_SUIT,
    SUIT_CHARS,
    SUIT_MASK,
    format_card,
    format_suit,
)
from .contracts import CONTRACT_CODES, CONTRACTS, NO_TRUMP, TRUMP, contract_code
from .deal import deal_hand
from .errors import BadInput, ConfigError, IllegalMove
from .moves import (
    CALL_ACTION_BASE,
    CALL_WORDS,
    CONTRACT_ACTION_BASE,
    NUM_ACTIONS,
    TRUMP_ACTION_BASE,
    Call,
    ChooseContract,
    Move,
    PlayCard,
)
from .rulesets import HandRules, Ruleset, Usage, get_ruleset
from .tricks import beats

PHASE_CONTRACT: Final = 0
PHASE_PLAY: Final = 1
PHASE_OVER: Final = 2
PHASE_REDEAL_OFFER: Final = 3  # traditional: the Rıfkı redeal round
PHASE_ANNOUNCE: Final = 4  # traditional, king_feat = announced: the King announcement
PHASE_NAMES: Final = ("contract", "play", "over", "redeal_offer", "announce")
TRICKS_PER_HAND: Final = 13


class HandRecord(NamedTuple):
    """One line of the score sheet (a named tuple: cheap to create in simulations)."""

    hand_index: int
    declarer: int
    contract: int
    trump: int
    points: tuple[int, int, int, int]
    tricks_played: int  # 13 unless the hand ended early
    deal: int | None = None  # its deal number; None: the same as the hand number
    partial: bool = False  # the King hand, cut short (traditional §4.4)

    @property
    def deal_number(self) -> int:
        return self.hand_index if self.deal is None else self.deal

    def to_dict(self) -> dict[str, Any]:
        # (every view carries the whole sheet: kept lean, so no property call here)
        hand, deal, trump = self.hand_index, self.deal, self.trump
        return {
            "hand": hand,
            "declarer": self.declarer,
            "contract": CONTRACT_CODES[self.contract],
            "trump": SUIT_CHARS[trump] if trump != NO_TRUMP else None,
            "points": list(self.points),
            "tricks_played": self.tricks_played,
            "deal": hand if deal is None else deal,
            "partial": self.partial,
        }


class DealRecord(NamedTuple):
    """One deal of the match (traditional §3.9): its number, its hand slot, the contract
    chosen on it (-1: none), how it ended (``played``, ``redealt``, ``replayed``), who asked and
    why, and the answers of its redeal round or announcement."""

    deal: int
    hand: int
    contract: int
    trump: int
    ended: str
    asked_by: int | None = None
    reason: str | None = None
    answers: tuple[str, ...] = ()
    points: tuple[int, int, int, int] | None = None  # a replayed deal's crossed-out points

    def to_dict(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "hand": self.hand,
            "contract": CONTRACT_CODES[self.contract] if self.contract >= 0 else None,
            "trump": SUIT_CHARS[self.trump] if self.trump != NO_TRUMP else None,
            "ended": self.ended,
            "asked_by": self.asked_by,
            "reason": self.reason,
            "answers": list(self.answers),
            "points": list(self.points) if self.points is not None else None,
        }


Event = dict[str, Any]


class MatchState:
    """The full state of a match. Build one with ``new_match``; see the module docstring."""

    __slots__ = (
        "announcer",
        "answers",
        "asked",
        "best",
        "best_seat",
        "contract",
        "dealer",
        "deals",
        "earlier",
        "end_reason",
        "first",
        "forced",
        "forfeit_at",
        "forfeits",
        "hand_index",
        "hand_points",
        "hands",
        "king_seat",
        "leader",
        "led",
        "log",
        "match_key",
        "num_hands",
        "options",
        "penalty_only",
        "phase",
        "plays",
        "redeals",
        "rules",
        "ruleset",
        "runs",
        "sheet",
        "taken",
        "totals",
        "trick",
        "trick_count",
        "trick_no",
        "tricks_taken",
        "trump",
        "turn",
        "usage",
        "version",
    )

    ruleset: Ruleset
    num_hands: int
    match_key: bytes
    version: int
    hand_index: int
    phase: int
    contract: int
    trump: int
    rules: HandRules | None
    hands: list[int]
    plays: list[int]  # this hand's plays in order, each seat << 6 | card
    trick: int  # mask of the cards in the current trick
    trick_count: int  # cards in the current trick
    led: int  # led suit of the current trick, -1 before its first card
    leader: int
    best: int  # the card winning the current trick so far
    best_seat: int
    earlier: int  # mask of the cards of completed tricks of this hand
    trick_no: int  # completed tricks this hand
    turn: int  # seat to move, -1 when the match is over
    tricks_taken: list[int]
    taken: list[int]  # mask of the cards each seat won this hand
    hand_points: list[int]
    totals: list[int]
    sheet: list[HandRecord]
    usage: Usage
    # Facts every ruleset has (plain rulesets keep them trivial):
    options: dict[str, Any]  # the ruleset's options, fixed for the match
    first: int  # the first declarer: hand h is declared by (first + h) mod 4
    deals: list[DealRecord]  # every finished deal, in order; the current one is len(deals)
    redeals: int  # redeals and replays of the current hand slot
    end_reason: str | None  # played_out, king, king_failed once over
    king_seat: int  # the King maker (or failed announcer), -1: none
    forfeits: tuple[int, ...]  # seats that lost on time or resigned, in the order they left
    forfeit_at: tuple[int, ...]  # for each, the version (moves applied) when it was marked
    # Phase facts of phased rulesets (traditional):
    forced: bool  # the declarer's choice in this deal was its only allowed move
    penalty_only: bool  # this slot was redealt on a Rıfkı/Kupa request: penalties only
    asked: tuple[int, ...]  # the ask order of the redeal round or announcement
    answers: list[str]  # the answers so far in that round
    announcer: int  # who announced King in this hand, -1: nobody
    runs: list[int]  # consecutive tricks ending with the last one, by seat
    log: list[int] | None  # every move as an action id (phased rulesets; stored in format 2)
    dealer: Any  # (match_key, deal number) -> four hands; deal_hand unless a test forces deals

    # ------------------------------------------------------------------ set-up

    @classmethod
    def _blank(
        cls,
        ruleset: Ruleset,
        num_hands: int,
        match_key: bytes,
        options: dict[str, Any] | None = None,
    ) -> MatchState:
        """A state before its first hand is started: no scores, no picks, version 0."""
        state = cls.__new__(cls)
        state.ruleset = ruleset
        state.num_hands = num_hands
        state.match_key = match_key
        state.version = 0
        state.totals = [0, 0, 0, 0]
        state.sheet = []
        state.usage = Usage()
        state.options = options if options is not None else {}
        state.first = ruleset.first_declarer
        state.deals = []
        state.redeals = 0
        state.end_reason = None
        state.king_seat = -1
        state.forfeits = ()
        state.forfeit_at = ()
        state.forced = False
        state.penalty_only = False
        state.asked = ()
        state.answers = []
        state.announcer = -1
        state.runs = [0, 0, 0, 0]
        state.log = [] if ruleset.phased else None
        state.dealer = deal_hand
        return state

    def _start_hand(self, hand_index: int) -> None:
        # The deal number: every finished deal before this one (the hand number unless hands
        # were redealt or replayed).
        self._start_hand_with(hand_index, self.dealer(self.match_key, len(self.deals)))

    def _start_hand_with(self, hand_index: int, hands: list[int]) -> None:
        self.hand_index = hand_index
        self.phase = PHASE_CONTRACT
        self.contract = -1
        self.trump = NO_TRUMP
        self.rules = None
        self.hands = hands
        self.plays = []
        self.trick = 0
        self.trick_count = 0
        self.led = -1
        self.leader = -1
        self.best = -1
        self.best_seat = -1
        self.earlier = 0
        self.trick_no = 0
        self.tricks_taken = [0, 0, 0, 0]
        self.taken = [0, 0, 0, 0]
        self.hand_points = [0, 0, 0, 0]
        self.turn = (self.first + hand_index) & 3

    def copy(self) -> MatchState:
        """An independent copy (for simulations)."""
        other = MatchState.__new__(MatchState)
        for name in MatchState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.plays = self.plays[:]
        other.tricks_taken = self.tricks_taken[:]
        other.taken = self.taken[:]
        other.hand_points = self.hand_points[:]
        other.totals = self.totals[:]
        other.sheet = self.sheet[:]
        other.usage = self.usage.copy()
        other.deals = self.deals[:]
        other.answers = self.answers[:]
        other.runs = self.runs[:]
        other.log = self.log[:] if self.log is not None else None
        return other

    # ------------------------------------------------------------------ queries

    @property
    def declarer(self) -> int:
        return (self.first + self.hand_index) & 3

    @property
    def deal_no(self) -> int:
        """The deal number of the current deal (KINGDEAL-v1 deal numbers)."""
        return len(self.deals)

    @property
    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    @property
    def current_player(self) -> int | None:
        return None if self.phase == PHASE_OVER else self.turn

    def legal_card_mask(self, seat: int | None = None) -> int:
        """The cards ``seat`` (default: the mover) may play now; 0 when it is not their turn."""
        if self.phase != PHASE_PLAY or (seat is not None and seat != self.turn):
            return 0
        rules = self.rules
        assert rules is not None
        return rules.legal(self.hands[self.turn], self.led, self.trick, self.earlier, self.trick_no)

    def allowed_contracts(self) -> list[ChooseContract]:
        """The contracts (with trump suits for Koz) the declarer may pick now."""
        if self.phase != PHASE_CONTRACT:
            return []
        ruleset = self.ruleset
        if ruleset.phased:
            pairs = ruleset.allowed_for(self)
        else:
            pairs = ruleset.allowed_contracts(self.num_hands, self.turn, self.usage)
        return [ChooseContract(contract, trump) for contract, trump in pairs]

    def legal_calls(self) -> list[Call]:
        """The mover's one-word moves (``redeal``, ``keep``, ``king``, ``pass``) now."""
        if not self.ruleset.phased or self.phase == PHASE_OVER:
            return []
        return [Call(word) for word in self.ruleset.legal_calls(self)]  # type: ignore[attr-defined]

    def legal_actions(self) -> list[int]:
        """The mover's legal actions as ints (see ``moves.py``), in every phase."""
        if self.phase == PHASE_PLAY:
            mask = self.legal_card_mask()
            actions = []
            while mask:
                low = mask & -mask
                actions.append(low.bit_length() - 1)
                mask ^= low
            if self.ruleset.phased:
                actions.extend(call.action for call in self.legal_calls())
            return actions
        if self.phase == PHASE_CONTRACT:
            return [move.action for move in self.allowed_contracts()]
        return [call.action for call in self.legal_calls()]

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The legal moves of ``seat`` (default: the mover), in every phase; empty when it is
        not their turn."""
        if self.phase == PHASE_OVER or (seat is not None and seat != self.turn):
            return []
        moves: list[Move] = []
        if self.phase == PHASE_PLAY:
            mask = self.legal_card_mask()
            moves = [PlayCard(card) for card in range(52) if mask >> card & 1]
        elif self.phase == PHASE_CONTRACT:
            moves = list(self.allowed_contracts())
        moves.extend(self.legal_calls())
        return moves

    def result(self, forfeits: Sequence[int] = ()) -> dict[str, Any]:
        """The match result (traditional §5.6; meaningful once the match is over).

        ``end_reason`` (``played_out``, ``king``, ``king_failed``), ``king_seat``, ``totals``,
        ``outcome`` (per seat ``cikar``/``batar`` for rulesets with outcome labels, else
        None), ``winners``, ``places`` (1..4 by seat) and the ``score_sheet``. ``forfeits`` are
        the seats that lost on time or resigned, in the order they left (default: the state's
        own marks, ``forfeit``): they never win and are placed last, after a King end too
        (§4.5).
        """
        forfeits = forfeits or self.forfeits
        totals = self.totals[:]
        labels = self.ruleset.outcome_labels
        king = self.king_seat
        reason = self.end_reason or ("played_out" if self.is_over else None)
        outcome: list[str] | None = None
        if reason == "king":
            winners = [king]  # (a forfeited seat never makes King)
            places = placements([1 if seat == king else 0 for seat in range(4)], forfeits)
        elif reason == "king_failed":
            winners = [seat for seat in range(4) if seat != king and seat not in forfeits]
            places = placements([0 if seat == king else 1 for seat in range(4)], forfeits)
        elif labels is not None:
            winners = [s for s in range(4) if totals[s] >= 0 and s not in forfeits]
            places = placements(totals, forfeits)
        else:
            winners = match_winners(totals, forfeits)
            places = placements(totals, forfeits)
        if labels is not None:
            outcome = [labels[0] if seat in winners else labels[1] for seat in range(4)]
        return {
            "end_reason": reason,
            "king_seat": king if king >= 0 else None,
            "totals": totals,
            "outcome": outcome,
            "winners": winners,
            "places": places,
            "score_sheet": [record.to_dict() for record in self.sheet],
        }

    def winners(self) -> list[int]:
        """Every seat on the top total but the forfeited ones (only meaningful once the match
        is over). Only phased rulesets keep forfeit marks (``forfeit``): a plain match with
        forfeits asks ``match_winners(totals, forfeits)``."""
        return match_winners(self.totals, self.forfeits)

    def played_by(self, seat: int) -> list[int]:
        """The cards ``seat`` has played in this hand, in order."""
        return [p & 63 for p in self.plays if p >> 6 == seat]

    # ------------------------------------------------------------------ forfeits

    def forfeit(self, seat: int) -> None:
        """Mark ``seat`` as forfeited (lost on time or resigned; a bot plays on for it) from
        this point of the move sequence (traditional §4.5): its tricks never make King, its
        only answer to the King announcement is ``pass``, an announcer who forfeits fails at
        the next trick's end, and ``result`` places it last. Marking again, or once the match
        is over, changes nothing. Plain rulesets have no King and their format-1 bytes no room
        for marks: for them it is a no-op (the match layer keeps their forfeits)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise BadInput("bad_seat", f"seat {seat!r} is not 0..3")
        if not self.ruleset.phased or self.phase == PHASE_OVER or seat in self.forfeits:
            return
        self.forfeits += (seat,)
        self.forfeit_at += (self.version,)

    # ------------------------------------------------------------------ checked path

    def apply(self, seat: int, move: Move) -> list[Event]:
        """Validate ``move`` by ``seat`` and apply it; return the public events it caused.

        Raises ``IllegalMove`` (codes ``match_over``, ``not_your_turn``, ``wrong_phase``,
        ``card_not_in_hand``, ``illegal_card``, ``contract_unavailable``) or ``BadInput``
        without changing anything.
        """
        if self.phase == PHASE_OVER:
            raise IllegalMove("match_over", "the match is over: no more moves")
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise BadInput("bad_seat", f"seat {seat!r} is not 0..3")
        if seat != self.turn:
            raise IllegalMove(
                "not_your_turn",
                f"it is seat {self.turn}'s turn, not seat {seat}'s",
                turn=self.turn,
            )
        events: list[Event] = []
        if isinstance(move, PlayCard):
            self._check_card(seat, move.card)
            self.play_card(move.card, events)
        elif isinstance(move, ChooseContract):
            self._check_contract(seat, move)
            self.choose_contract(move.contract, move.trump, events)
        elif isinstance(move, Call):
            phased.check_call(self, seat, move)
            self.call(move.word, events)
        else:
            raise BadInput("bad_move", f"{move!r} is not a move")
        return events

    def _check_card(self, seat: int, card: int) -> None:
        if self.phase != PHASE_PLAY:
            what = "choose a contract" if self.phase == PHASE_CONTRACT else "answer"
            raise IllegalMove(
                "wrong_phase",
                f"seat {seat} must {what} now, not play a card",
                phase=PHASE_NAMES[self.phase],
            )
        if not isinstance(card, int) or not 0 <= card < 52:
            raise BadInput("bad_card", f"card id {card!r} is not in 0..51")
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise IllegalMove(
                "card_not_in_hand", f"seat {seat} does not hold {format_card(card)}", card=card
            )
        rules = self.rules
        assert rules is not None
        rule = rules.illegal_reason(card, hand, self.led, self.trick, self.earlier, self.trick_no)
        if rule is not None:
            raise IllegalMove(
                "illegal_card",
                f"{format_card(card)} is not allowed here ({rule.replace('_', ' ')})",
                rule=rule,
                card=card,
            )

    def _check_contract(self, seat: int, move: ChooseContract) -> None:
        if self.phase != PHASE_CONTRACT:
            raise IllegalMove(
                "wrong_phase",
                f"the contract of this hand is already chosen; seat {seat} must play a card",
                phase=PHASE_NAMES[self.phase],
            )
        contract, trump = move.contract, move.trump
        if not isinstance(contract, int) or not 0 <= contract < len(CONTRACTS):
            raise BadInput("unknown_contract", f"contract id {contract!r} is not known")
        if contract == TRUMP and not (isinstance(trump, int) and 0 <= trump < 4):
            raise BadInput("trump_required", "Koz (trump) needs a trump suit: C, D, H or S")
        if contract != TRUMP and trump != NO_TRUMP:
            raise BadInput("trump_not_allowed", f"{contract_code(contract)} has no trump suit")
        refusal = self.ruleset.refusal_for(self, contract, trump)
        if refusal is not None:
            raise IllegalMove(
                refusal.code,
                f"{move} is not available to seat {seat} now ({refusal.message})",
                reason=refusal.message,
                allowed=[str(m) for m in self.allowed_contracts()],
            )

    # ------------------------------------------------------------------ fast path

    def apply_action(self, action: int) -> None:
        """Apply a *trusted* action for whoever is to move (fast path: no checks)."""
        if action < CONTRACT_ACTION_BASE:
            self.play_card(action, None)
        elif action < TRUMP_ACTION_BASE:
            self.choose_contract(action - CONTRACT_ACTION_BASE, NO_TRUMP, None)
        elif action < CALL_ACTION_BASE:
            self.choose_contract(TRUMP, action - TRUMP_ACTION_BASE, None)
        else:
            self.call(CALL_WORDS[action - CALL_ACTION_BASE], None)

    def call(self, word: str, events: list[Event] | None = None) -> None:
        """The mover answers ``word`` (``redeal``, ``keep``, ``king``, ``pass``). *Unchecked*,
        like ``apply_action``."""
        if self.log is not None:
            self.log.append(CALL_ACTION_BASE + CALL_WORDS.index(word))
        self.version += 1
        self.ruleset.on_call(self, word, events)  # type: ignore[attr-defined]

    def choose_contract(
        self, contract: int, trump: int = NO_TRUMP, events: list[Event] | None = None
    ) -> None:
        """The declarer picks ``contract`` (and ``trump`` for Koz). *Unchecked*, like
        ``apply_action``: for simulations that know the pick is allowed. With ``events``, the
        public events it causes are appended there."""
        declarer = self.turn
        ruleset = self.ruleset
        forced = False
        if ruleset.phased:
            forced = len(ruleset.allowed_for(self)) == 1
            log = self.log
            assert log is not None
            log.append(
                TRUMP_ACTION_BASE + trump if contract == TRUMP else CONTRACT_ACTION_BASE + contract
            )
        self.contract = contract
        self.trump = trump
        self.rules = ruleset.hand_rules(contract, trump)
        self.usage.record(declarer, contract, trump)
        self.phase = PHASE_PLAY
        self.version += 1
        if ruleset.phased:
            ruleset.on_contract_chosen(self, forced)  # type: ignore[attr-defined]
        if events is not None:
            events.append(
                {
                    "type": "contract_chosen",
                    "hand": self.hand_index,
                    "seat": declarer,
                    "contract": contract_code(contract),
                    "trump": format_suit(trump) if trump != NO_TRUMP else None,
                }
            )

    def play_card(self, card: int, events: list[Event] | None = None) -> None:
        """The mover plays ``card``; completes the trick, the hand and the match as they end.
        *Unchecked*, like ``apply_action``: the card must be one of ``legal_card_mask()``.
        With ``events``, the public events it causes are appended there."""
        seat = self.turn
        bit = CARD_BIT[card]
        self.hands[seat] ^= bit
        self.plays.append(seat << 6 | card)
        self.version += 1
        log = self.log
        if log is not None:
            log.append(card)
        if events is not None:
            events.append(
                {
                    "type": "card_played",
                    "hand": self.hand_index,
                    "trick": self.trick_no,
                    "seat": seat,
                    "card": format_card(card),
                }
            )
        if self.trick_count == 0:
            self.led = CARD_SUIT[card]
            self.leader = seat
            self.best = card
            self.best_seat = seat
        elif beats(card, self.best, self.trump):
            self.best = card
            self.best_seat = seat
        self.trick |= bit
        self.trick_count += 1
        if self.trick_count < 4:
            self.turn = (seat + 1) & 3
            return
        # The trick is complete: the best card takes it and its holder leads next.
        rules = self.rules
        assert rules is not None
        winner = self.best_seat
        trick = self.trick
        points = rules.trick_points(trick, self.trick_no)
        self.hand_points[winner] += points
        self.tricks_taken[winner] += 1
        self.taken[winner] |= trick
        self.earlier |= trick
        if events is not None:
            events.append(
                {
                    "type": "trick_won",
                    "hand": self.hand_index,
                    "trick": self.trick_no,
                    "seat": winner,
                    "cards": [format_card(p & 63) for p in self.plays[-4:]],
                    "points": points,
                }
            )
        self.trick_no += 1
        self.trick = 0
        self.trick_count = 0
        self.led = -1
        self.turn = winner
        if self.ruleset.phased:
            ended = self.ruleset.on_trick(self, winner)  # type: ignore[attr-defined]
            if ended is not None:
                phased.end_on_king(self, ended, events)
                return
        early = rules.early_end_mask
        if self.trick_no == TRICKS_PER_HAND or (early and self.earlier & early == early):
            self._finish_hand(events)

    def _deal_field(self) -> int | None:
        """This hand's deal number for its sheet line: None when it is the hand number."""
        deal = len(self.deals)
        return None if deal == self.hand_index else deal

    def _score_hand(self, events: list[Event] | None, partial: bool = False) -> None:
        """Put the hand on the score sheet and add its points to the totals (before the deal
        is recorded: the sheet line names the deal under way)."""
        points = self.hand_points
        record = HandRecord(
            self.hand_index,
            (self.first + self.hand_index) & 3,
            self.contract,
            self.trump,
            (points[0], points[1], points[2], points[3]),
            self.trick_no,
            self._deal_field(),
            partial,
        )
        self.sheet.append(record)
        totals = self.totals
        for seat in range(4):
            totals[seat] += points[seat]
        if events is not None:
            events.append({"type": "hand_scored", **record.to_dict(), "totals": totals[:]})

    def _finish_hand(self, events: list[Event] | None) -> None:
        """The hand is played: score it, then the next hand or the end of the match."""
        if self.ruleset.phased:
            phased.finish_hand(self, events)
            return
        self._score_hand(events)
        self.deals.append(
            DealRecord(self.hand_index, self.hand_index, self.contract, self.trump, "played")
        )
        if self.hand_index + 1 == self.num_hands:
            self.phase = PHASE_OVER
            self.turn = -1
            if events is not None:
                events.append(
                    {"type": "match_over", "totals": self.totals[:], "winners": self.winners()}
                )
            return
        self._start_hand(self.hand_index + 1)
        if events is not None:
            events.append({"type": "hand_started", "hand": self.hand_index, "declarer": self.turn})

    # ------------------------------------------------------------------ serialised form

    def to_bytes(self) -> bytes:
        """A compact, exact form of the whole state (``stored.py``): format 1 for the plain
        rulesets (what they have always written), format 2 for phased ones."""
        return stored.encode(self)

    @classmethod
    def from_bytes(cls, data: bytes) -> MatchState:
        """The inverse of ``to_bytes``; malformed input raises ``BadInput("bad_state")``."""
        return stored.decode(data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchState):
            return NotImplemented
        # ``rules`` is derived from contract and trump, which are compared.
        return all(
            getattr(self, n) == getattr(other, n) for n in MatchState.__slots__ if n != "rules"
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<MatchState {self.ruleset.name} hand {self.hand_index + 1}/{self.num_hands} "
            f"{PHASE_NAMES[self.phase]} turn={self.turn} v{self.version}>"
        )


def new_match(
    ruleset: str,
    num_hands: int,
    match_key: bytes,
    options: Mapping[str, Any] | None = None,
) -> MatchState:
    """A new match at the contract choice of hand 0.

    ``match_key`` is the KINGDEAL-v1 match key (``deal.match_key``); every deal is dealt from
    it by deal number. ``options`` are the ruleset's named options (``Ruleset.option_specs``;
    missing ones take their defaults; ``standard`` and ``classic20`` have none). Raises
    ``ConfigError`` (``unknown_ruleset``, ``bad_match_length``, ``bad_option``) or ``BadInput``.
    """
    return _new_match(ruleset, num_hands, match_key, options, deal_hand)


def new_match_on_deals_for_tests(
    ruleset: str,
    num_hands: int,
    deals: Callable[[int], list[int]],
    options: Mapping[str, Any] | None = None,
) -> MatchState:
    """A match whose deal number d is ``deals(d)`` (four 13-card masks) instead of KINGDEAL:
    for tests that need a given hand (a 13-heart Kupa hand, a lone K♥). Not for matches: such
    a state has no match key and cannot be serialised."""
    return _new_match(ruleset, num_hands, bytes(32), options, lambda _key, d: deals(d))


def _new_match(
    ruleset: str,
    num_hands: int,
    match_key: bytes,
    options: Mapping[str, Any] | None,
    dealer: Callable[[bytes, int], list[int]],
) -> MatchState:
    rules = get_ruleset(ruleset)
    if rules.family is not None:
        raise ConfigError(
            "unknown_ruleset", f"{ruleset!r} has its own state class: use game.new_game"
        )
    checked = rules.check_setup(num_hands, match_key, options)
    state = MatchState._blank(rules, num_hands, match_key, checked)
    state.dealer = dealer
    state._start_hand(0)
    if rules.phased:
        rules.on_match_start(state)  # type: ignore[attr-defined]
    return state


__all__ = [
    "NUM_ACTIONS",
    "PHASE_ANNOUNCE",
    "PHASE_CONTRACT",
    "PHASE_NAMES",
    "PHASE_OVER",
    "PHASE_PLAY",
    "PHASE_REDEAL_OFFER",
    "SUIT_MASK",
    "DealRecord",
    "Event",
    "HandRecord",
    "MatchState",
    "match_winners",
    "new_match",
    "new_match_on_deals_for_tests",
    "placements",
]


# The phased steps and the serialised form need MatchState and new_match: imported once they
# exist.
from . import phased, stored  # noqa: E402
