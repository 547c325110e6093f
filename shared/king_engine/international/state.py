"""The state of an ``international`` match (RULES-international.md): ten hands, an auction
before each positive hand, trick play, settlement.

Phases (R3.10): ``play`` for the negative hands h0..h5 (contract fixed, the dealer leads);
``bidding`` -> ``decision`` -> (``ultimatum``) -> ``contract`` -> ``play`` for h6..h9, or
straight to the next hand after an ``annul``; ``over`` after hand 9.

* ``apply(seat, move)`` is the checked path: it raises ``IllegalMove``/``BadInput`` with a
  stable code and leaves the state as it was, and returns the public events.
* ``apply_action(action)`` is the trusted fast path for simulations (no checks).
* The three forced moves of R3.10 (a bidder's pass under the top bid, ``accept`` over the top
  bid, ``contract:minus`` for a minus buyer) are applied by the engine inside the move that
  caused them, logged ``auto``; they do not count in ``version`` nor in the stored log.
* ``to_bytes`` stores the options, the match key, the first dealer, the players' moves and the
  forfeit marks; ``from_bytes`` replays them through the checked path and checks the facts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from king_message.winners import match_winners, placements

from ..cards import CARD_BIT, CARD_CODES, CARD_SUIT, SUIT_CHARS, format_card
from ..deal import DECK_32, DECK_52
from ..errors import BadInput, IllegalMove
from ..moves import PlayCard
from ..tricks import beats
from .moves import (
    ACCEPT,
    ANNUL,
    DECLINE,
    PASS,
    REFUSE,
    TAKE,
    Bid,
    Move,
    NameContract,
    Ultimatum,
    Word,
    move_of_action,
)
from .rules import (
    ALL_POSITIVE_CONTRACTS,
    BID_TEXTS,
    DECK_VALUES,
    MINUS,
    NEGATIVE_CONTRACTS,
    NEGATIVE_HANDS,
    NO_BID,
    NUM_HANDS,
    PLUS_CONTRACTS,
    DeckValues,
    annul_allowed,
    bid_is_minus,
    early_end_mask,
    illegal_card_rule,
    legal_cards,
    negative_trick_points,
    settle_positive,
    trump_of,
)

if TYPE_CHECKING:
    from .ruleset import InternationalRuleset

BIDDING: Final = "bidding"
DECISION: Final = "decision"
ULTIMATUM: Final = "ultimatum"
CONTRACT: Final = "contract"
PLAY: Final = "play"
OVER: Final = "over"
PHASES: Final = (BIDDING, DECISION, ULTIMATUM, CONTRACT, PLAY, OVER)

Event = dict[str, Any]
Dealer = Callable[[bytes, int, Sequence[int]], list[int]]

# Which phase each kind of move belongs to (for ``wrong_phase``).
_WORD_PHASE: Final = {
    "pass": BIDDING,
    "accept": DECISION,
    "refuse": DECISION,
    "annul": DECISION,
    "take": ULTIMATUM,
    "decline": ULTIMATUM,
}


def _phase_of(move: Move) -> str:
    if isinstance(move, PlayCard):
        return PLAY
    if isinstance(move, Bid):
        return BIDDING
    if isinstance(move, Word):
        return _WORD_PHASE[move.word]
    if isinstance(move, Ultimatum):
        return DECISION
    return CONTRACT


class InternationalState:
    """A match of ``international``; build one with ``InternationalRuleset.new_state``."""

    __slots__ = (
        "annul_condition",
        "answers",
        "auction_log",
        "best",
        "best_seat",
        "bids_made",
        "buyer",
        "contract",
        "deal_moves",
        "dealer_fn",
        "deals",
        "decision",
        "done",
        "earlier",
        "first",
        "forfeit_at",
        "forfeits",
        "hand_index",
        "hand_points",
        "hands",
        "holder",
        "last_trick",
        "led",
        "log",
        "match_key",
        "num_hands",
        "options",
        "passed",
        "phase",
        "price",
        "ruleset",
        "sheet",
        "taken",
        "top",
        "totals",
        "trick",
        "trick_no",
        "tricks_taken",
        "trump",
        "turn",
        "ultimatum",
        "values",
        "version",
    )

    ruleset: InternationalRuleset
    num_hands: int
    match_key: bytes
    options: dict[str, Any]
    values: DeckValues
    annul_condition: str
    dealer_fn: Dealer
    first: int  # F, the first dealer: dealer(h) = (F + h) mod 4
    version: int
    hand_index: int
    phase: str
    totals: list[int]
    sheet: list[dict[str, Any]]  # one line per scored hand
    forfeits: tuple[int, ...]
    forfeit_at: tuple[int, ...]
    log: list[tuple[int, int]]  # the players' moves as (seat, action); auto moves are not here
    deals: list[dict[str, Any]]  # every finished deal (deal_log)
    deal_moves: list[tuple[int, str]]  # the current deal's moves, auto ones included
    hands: list[int]
    contract: str | None
    trump: int
    turn: int
    # auction (positive hands)
    top: int  # ladder index of the top bid, NO_BID before any
    holder: int
    passed: list[bool]
    bids_made: int
    auction_log: list[tuple[int, str, bool]]
    decision: str | None
    ultimatum: int
    answers: list[tuple[int, str]]
    buyer: int | None
    price: int
    # play
    trick: list[tuple[int, int]]  # (seat, card) of the trick in progress
    last_trick: list[tuple[int, int]]
    done: list[tuple[list[tuple[int, int]], int]]  # this hand's completed tricks and winners
    led: int
    best: int
    best_seat: int
    earlier: int
    trick_no: int
    tricks_taken: list[int]
    taken: list[int]
    hand_points: list[int]

    # ------------------------------------------------------------------ set-up

    @classmethod
    def start(
        cls,
        ruleset: InternationalRuleset,
        match_key: bytes,
        options: dict[str, Any],
        dealer_fn: Dealer,
        first: int,
    ) -> InternationalState:
        """A new match at the first trick of hand 0 (dealt by ``first``)."""
        state = cls.__new__(cls)
        state.ruleset = ruleset
        state.num_hands = NUM_HANDS
        state.match_key = match_key
        state.options = dict(options)
        state.values = DECK_VALUES[options["deck"]]
        state.annul_condition = options["annul_condition"]
        state.dealer_fn = dealer_fn
        state.first = first
        state.version = 0
        state.totals = [0, 0, 0, 0]
        state.sheet = []
        state.forfeits = ()
        state.forfeit_at = ()
        state.log = []
        state.deals = []
        state._start_hand(0)
        return state

    @property
    def deck(self) -> Sequence[int]:
        return DECK_32 if self.values.size == 32 else DECK_52

    def _start_hand(self, hand_index: int) -> None:
        self.hand_index = hand_index
        self.hands = list(self.dealer_fn(self.match_key, hand_index, self.deck))
        self.deal_moves = []
        self.top = NO_BID
        self.holder = -1
        self.passed = [False] * 4
        self.bids_made = 0
        self.auction_log = []
        self.decision = None
        self.ultimatum = NO_BID
        self.answers = []
        self.buyer = None
        self.price = NO_BID
        self.trick = []
        self.last_trick = []
        self.done = []
        self.led = -1
        self.best = -1
        self.best_seat = -1
        self.earlier = 0
        self.trick_no = 0
        self.tricks_taken = [0, 0, 0, 0]
        self.taken = [0, 0, 0, 0]
        self.hand_points = [0, 0, 0, 0]
        dealer = self.dealer
        if hand_index < NEGATIVE_HANDS:
            self.contract = NEGATIVE_CONTRACTS[hand_index]
            self.trump = -1
            self.phase = PLAY
            self.turn = dealer
        else:
            self.contract = None
            self.trump = -1
            self.phase = BIDDING
            self.turn = (dealer + 1) & 3

    # ------------------------------------------------------------------ queries

    @property
    def dealer(self) -> int:
        """The dealer of the current hand (R1.2), the auctioneer of a positive hand."""
        return (self.first + self.hand_index) & 3

    @property
    def declarer(self) -> int:
        """R1.3: the dealer in a negative hand; in a positive hand the buyer once there is one,
        else the auctioneer."""
        return self.buyer if self.buyer is not None else self.dealer

    @property
    def deal_no(self) -> int:
        return self.hand_index  # no redeals in this ruleset: deal d is hand d

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.turn

    @property
    def is_positive(self) -> bool:
        return self.hand_index >= NEGATIVE_HANDS

    def priority(self, seat: int) -> int:
        """R3.1: 0 for the auctioneer's left neighbour (highest) .. 2 for his right."""
        return (seat - self.dealer - 1) & 3

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The moves of the seat to act, in the spec's order (R3.6, R3.7, R3.9); empty for any
        other seat and once the match is over."""
        if self.phase == OVER or (seat is not None and seat != self.turn):
            return []
        phase = self.phase
        if phase == PLAY:
            mask = self._legal_card_mask()
            return [PlayCard(card) for card in range(52) if mask >> card & 1]
        if phase == BIDDING:
            return self._bidding_moves(self.turn)
        if phase == DECISION:
            return self._decision_moves()
        if phase == ULTIMATUM:
            return [TAKE, DECLINE]
        return [NameContract(c) for c in self._contract_choices()]

    def legal_actions(self) -> list[int]:
        return [move.action for move in self.legal_moves()]

    def _legal_card_mask(self) -> int:
        assert self.contract is not None
        return legal_cards(self.contract, self.hands[self.turn], self.led)

    def _bidding_moves(self, seat: int) -> list[Move]:
        moves: list[Move] = [PASS]
        top = self.top
        if top != NO_BID and self.priority(seat) < self.priority(self.holder):
            moves.append(Bid(top))
        moves.extend(Bid(b) for b in range(top + 1, self.values.ladder))
        return moves

    def _decision_moves(self) -> list[Move]:
        top = self.top
        moves: list[Move] = []
        if top != NO_BID:
            moves.append(ACCEPT)
        if top != self.values.top_bid:
            moves.append(REFUSE)
        if annul_allowed(self.annul_condition, self.values, top, self.bids_made):
            moves.append(ANNUL)
        moves.extend(Ultimatum(b) for b in range(top + 1, self.values.ladder))
        return moves

    def _contract_choices(self) -> tuple[str, ...]:
        """R3.9: a plus buyer names a plus contract, a minus buyer plays minus, the
        auctioneer playing himself names any of the six."""
        if self.buyer is None:
            return ALL_POSITIVE_CONTRACTS
        return (MINUS,) if bid_is_minus(self.price) else PLUS_CONTRACTS

    # ------------------------------------------------------------------ checked path

    def apply(self, seat: int, move: Move) -> list[Event]:
        """Check ``move`` by ``seat``, apply it and the forced moves that follow, and return the
        public events. Refused moves raise and change nothing."""
        if self.phase == OVER:
            raise IllegalMove("match_over", "the match is over: no more moves")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise BadInput("bad_seat", f"seat {seat!r} is not 0..3")
        if not isinstance(move, (PlayCard, Bid, Word, Ultimatum, NameContract)):
            raise BadInput("bad_move", f"{move!r} is not a move")
        wanted = _phase_of(move)
        if self.phase == BIDDING and wanted == BIDDING and self.passed[seat]:
            raise IllegalMove(
                "already_passed", f"seat {seat} has passed: it bids no more in this auction"
            )
        if seat != self.turn:
            raise IllegalMove(
                "not_your_turn", f"it is seat {self.turn}'s turn, not seat {seat}'s", turn=self.turn
            )
        if wanted != self.phase:
            raise IllegalMove(
                "wrong_phase",
                f"{move} is a {wanted} move; the hand is in phase {self.phase}",
                phase=self.phase,
            )
        self._check(seat, move)
        events: list[Event] = []
        self._apply_move(seat, move, events)
        return events

    def _check(self, seat: int, move: Move) -> None:
        values = self.values
        if isinstance(move, PlayCard):
            card = move.card
            hand = self.hands[seat]
            if not hand >> card & 1:
                raise IllegalMove(
                    "card_not_in_hand", f"seat {seat} does not hold {format_card(card)}"
                )
            assert self.contract is not None
            if not legal_cards(self.contract, hand, self.led) >> card & 1:
                rule = illegal_card_rule(self.contract, hand, self.led, card)
                raise IllegalMove(
                    "illegal_card",
                    f"{format_card(card)} is not allowed here ({rule.replace('_', ' ')})",
                    rule=rule,
                    card=format_card(card),
                )
        elif isinstance(move, (Bid, Ultimatum)):
            bid = move.bid
            if bid >= values.ladder:
                raise IllegalMove(
                    "bid_off_ladder",
                    f"{BID_TEXTS[bid]} is not on the {values.size}-card ladder",
                    ladder=list(BID_TEXTS[: values.ladder]),
                )
            if isinstance(move, Ultimatum):
                if bid <= self.top:
                    raise IllegalMove(
                        "ultimatum_too_low",
                        f"the demand must be above the top bid {BID_TEXTS[self.top]}",
                    )
            elif bid == self.top:
                if self.priority(seat) > self.priority(self.holder):
                    raise IllegalMove(
                        "match_not_allowed",
                        f"seat {self.holder} has priority over seat {seat}: raise above "
                        f"{BID_TEXTS[bid]}",
                    )
            elif bid < self.top:
                raise IllegalMove(
                    "bid_too_low", f"a bid must be above the top bid {BID_TEXTS[self.top]}"
                )
        elif isinstance(move, Word):
            word = move.word
            if word == "accept" and self.top == NO_BID:
                raise IllegalMove("accept_not_allowed", "there is no bid to accept")
            if word == "refuse" and self.top == values.top_bid:
                raise IllegalMove("refuse_not_allowed", "the top bid cannot be refused")
            if word == "annul" and not annul_allowed(
                self.annul_condition, values, self.top, self.bids_made
            ):
                raise IllegalMove(
                    "annul_not_allowed",
                    f"the auction is not poor enough to annul ({self.annul_condition})",
                    condition=self.annul_condition,
                )
        elif move.contract not in self._contract_choices():
            raise IllegalMove(
                "contract_not_allowed",
                f"seat {seat} may not name {move.contract} here",
                allowed=["contract:" + c for c in self._contract_choices()],
            )

    # ------------------------------------------------------------------ fast path

    def apply_action(self, action: int) -> None:
        """Apply a *trusted* action (one of ``legal_actions()``) for the seat to act."""
        self._apply_move(self.turn, move_of_action(action), None)

    def _apply_move(self, seat: int, move: Move, events: list[Event] | None) -> None:
        self.log.append((seat, move.action))
        self.version += 1
        self._do(seat, move, events, auto=False)
        self._forced_moves(events)

    def _do(self, seat: int, move: Move, events: list[Event] | None, auto: bool) -> None:
        text = str(move)
        self.deal_moves.append((seat, text))
        if isinstance(move, PlayCard):
            self._play(seat, move.card, events)
            return
        self.auction_log.append((seat, text, auto))
        hand = self.hand_index
        if isinstance(move, Bid):
            self.top = move.bid
            self.holder = seat
            self.bids_made += 1
            if events is not None:
                events.append(
                    {"type": "bid", "hand": hand, "seat": seat, "move": text, "auto": auto}
                )
            self._next_bidder(seat, events)
        elif isinstance(move, Ultimatum):
            self.decision = text
            self.ultimatum = move.bid
            if events is not None:
                events.append(
                    {"type": "decision", "hand": hand, "seat": seat, "move": text, "auto": auto}
                )
            self.phase = ULTIMATUM
            self.turn = (self.dealer + 1) & 3
        elif isinstance(move, NameContract):
            self.contract = move.contract
            self.trump = trump_of(move.contract)
            self.phase = PLAY
            self.turn = self.dealer  # R1.4: the dealer leads, whoever declared
            if events is not None:
                events.append(
                    {
                        "type": "contract_chosen",
                        "hand": hand,
                        "seat": seat,
                        "move": text,
                        "contract": move.contract,
                        "trump": SUIT_CHARS[self.trump] if self.trump >= 0 else None,
                        "auto": auto,
                    }
                )
        else:
            self._word(seat, move.word, events, auto)

    def _word(self, seat: int, word: str, events: list[Event] | None, auto: bool) -> None:
        hand = self.hand_index
        event: Event = {"seat": seat, "hand": hand, "move": word, "auto": auto}
        if word == "pass":
            self.passed[seat] = True
            event["type"] = "pass"
            if events is not None:
                events.append(event)
            self._next_bidder(seat, events)
            return
        if word in ("take", "decline"):
            event["type"] = "ultimatum_answer"
            self.answers.append((seat, word))
            if word == "take":
                self.buyer = seat
                self.price = self.ultimatum
                self._to_contract()
            elif len(self.answers) == 3:
                self._to_contract()  # all declined: the auctioneer plays himself
            else:
                self.turn = (seat + 1) & 3
        else:
            event["type"] = "decision"
            self.decision = word
            if word == "accept":
                self.buyer = self.holder
                self.price = self.top
                self._to_contract()
            elif word == "refuse":
                self._to_contract()
            else:
                if events is not None:
                    events.append(event)
                self._finish_hand(events)
                return
        if self.buyer is not None:
            event["buyer"] = self.buyer
            event["price"] = BID_TEXTS[self.price]
        if events is not None:
            events.append(event)

    def _to_contract(self) -> None:
        self.phase = CONTRACT
        self.turn = self.declarer

    def _next_bidder(self, seat: int, events: list[Event] | None) -> None:
        """R3.6: the next seat after ``seat`` that is no auctioneer, has not passed and does
        not hold the top bid; none left ends the bidding."""
        dealer = self.dealer
        for step in (1, 2, 3):
            q = (seat + step) & 3
            if q != dealer and not self.passed[q] and q != self.holder:
                self.turn = q
                return
        self.phase = DECISION
        self.turn = dealer
        if events is not None:
            events.append(
                {
                    "type": "bidding_ended",
                    "hand": self.hand_index,
                    "top_bid": BID_TEXTS[self.top] if self.top != NO_BID else None,
                    "top_holder": self.holder if self.holder >= 0 else None,
                    "bids_made": self.bids_made,
                }
            )

    def _forced_moves(self, events: list[Event] | None) -> None:
        """R3.10: apply the forced moves, each logged ``auto``."""
        top_bid = self.values.top_bid
        while True:
            phase = self.phase
            if phase == BIDDING and self.top == top_bid:
                # the only move left to a seat below the holder of the top bid
                if self.priority(self.turn) > self.priority(self.holder):
                    self._do(self.turn, PASS, events, auto=True)
                    continue
            elif phase == DECISION and self.top == top_bid:
                self._do(self.turn, ACCEPT, events, auto=True)
                continue
            elif phase == CONTRACT and self.buyer is not None and bid_is_minus(self.price):
                self._do(self.turn, NameContract(MINUS), events, auto=True)
                continue
            return

    # ------------------------------------------------------------------ trick play

    def _play(self, seat: int, card: int, events: list[Event] | None) -> None:
        self.hands[seat] ^= CARD_BIT[card]
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
        trick = self.trick
        if not trick:
            self.led = CARD_SUIT[card]
            self.best, self.best_seat = card, seat
        elif beats(card, self.best, self.trump):
            self.best, self.best_seat = card, seat
        trick.append((seat, card))
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return
        winner = self.best_seat
        mask = 0
        for _, c in trick:
            mask |= CARD_BIT[c]
        contract = self.contract
        assert contract is not None
        values = self.values
        if self.is_positive:
            points = values.minus_unit if contract == MINUS else values.plus_unit
            points = -points if contract == MINUS else points
        else:
            points = negative_trick_points(contract, values, mask, self.trick_no)
        self.hand_points[winner] += points
        self.tricks_taken[winner] += 1
        self.taken[winner] |= mask
        self.earlier |= mask
        if events is not None:
            events.append(
                {
                    "type": "trick_won",
                    "hand": self.hand_index,
                    "trick": self.trick_no,
                    "seat": winner,
                    "cards": [CARD_CODES[c] for _, c in trick],
                    "points": points,
                }
            )
        self.last_trick = trick
        self.done.append((trick, winner))
        self.trick = []
        self.led = -1
        self.trick_no += 1
        self.turn = winner
        early = 0 if self.is_positive else early_end_mask(contract, values)
        if self.trick_no == values.tricks or (early and self.earlier & early == early):
            self._finish_hand(events)

    def running_points(self) -> list[int]:
        """Each seat's score for the hand so far (R7.2): the minus deal starts at 325."""
        if self.is_positive and self.contract == MINUS:
            return [self.values.positive_total + p for p in self.hand_points]
        return self.hand_points[:]

    # ------------------------------------------------------------------ scoring

    def _finish_hand(self, events: list[Event] | None) -> None:
        hand = self.hand_index
        dealer = self.dealer
        if not self.is_positive:
            points = self.hand_points[:]
            outcome = "played"
        elif self.decision == "annul":
            points = settle_positive(dealer, None, None, deck=self.values.size)
            outcome = "annulled"
        else:
            points = settle_positive(
                dealer,
                self.contract,
                self.tricks_taken,
                self.buyer,
                self.price,
                deck=self.values.size,
            )
            outcome = "sold" if self.buyer is not None else "kept"
        for seat in range(4):
            self.totals[seat] += points[seat]
        record = {
            "hand": hand,
            "dealer": dealer,
            "declarer": self.declarer,
            "contract": self.contract if outcome != "annulled" else None,
            "outcome": outcome,
            "buyer": self.buyer,
            "price": BID_TEXTS[self.price] if self.price != NO_BID else None,
            "tricks": self.tricks_taken[:],
            "tricks_played": self.trick_no,
            "points": points,
            "sum": sum(points),
        }
        self.sheet.append(record)
        self.deals.append(self._deal_record("annulled" if outcome == "annulled" else "played"))
        if events is not None:
            events.append({"type": "hand_scored", **record, "totals": self.totals[:]})
        if hand + 1 == self.num_hands:
            self.phase = OVER
            self.turn = -1
            if events is not None:
                events.append(
                    {"type": "match_over", "totals": self.totals[:], "winners": self.winners()}
                )
            return
        self._start_hand(hand + 1)
        if events is not None:
            events.append(
                {
                    "type": "hand_started",
                    "hand": self.hand_index,
                    "dealer": self.dealer,
                    "declarer": self.declarer,
                    "phase": self.phase,
                    "contract": self.contract,
                }
            )

    def _deal_record(self, ended: str | None) -> dict[str, Any]:
        return {
            "deal": self.hand_index,
            "hand": self.hand_index,
            "deck_size": self.values.size,
            "dealer": self.dealer,
            "ended": ended,
            "moves": [[seat, text] for seat, text in self.deal_moves],
            "auction_log": [{"seat": s, "move": m, "auto": a} for s, m, a in self.auction_log],
            "buyer": self.buyer,
            "price": BID_TEXTS[self.price] if self.price != NO_BID else None,
            "contract": self.contract if ended != "annulled" else None,
        }

    def deal_log(self) -> list[dict[str, Any]]:
        """Per deal, in order: number, hand, deck size, how it ended (``played``,
        ``annulled``; None for the deal in progress), its moves as [seat, text] (auto moves
        included) and, for a positive hand, its auction log, buyer, price and contract."""
        log = [dict(record) for record in self.deals]
        if self.phase != OVER:
            log.append(self._deal_record(None))
        return log

    def winners(self) -> list[int]:
        return match_winners(self.totals, self.forfeits)

    def result(self, forfeits: Sequence[int] = ()) -> dict[str, Any]:
        """The match result: totals, places (forfeits last), winners, ``played_out``."""
        forfeits = tuple(forfeits) or self.forfeits
        return {
            "end_reason": "played_out" if self.is_over else None,
            "totals": self.totals[:],
            "outcome": None,
            "winners": match_winners(self.totals, forfeits),
            "places": placements(self.totals, forfeits),
            "score_sheet": [dict(line) for line in self.sheet],
        }

    def forfeit(self, seat: int) -> None:
        """Mark ``seat`` as lost on time or resigned (placed last by ``result``; a bot still
        plays its turns). Marking again, or after the end, changes nothing."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise BadInput("bad_seat", f"seat {seat!r} is not 0..3")
        if self.phase == OVER or seat in self.forfeits:
            return
        self.forfeits += (seat,)
        self.forfeit_at += (self.version,)

    # ------------------------------------------------------------------ view
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (§7); ``None`` is a spectator (no cards, no legal moves)."""
        return view.seat_view(self, seat)

    # ------------------------------------------------------------------ copies, bytes

    def copy(self) -> InternationalState:
        other = InternationalState.__new__(InternationalState)
        for name in InternationalState.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = value[:]
            elif isinstance(value, dict):
                value = dict(value)
            setattr(other, name, value)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InternationalState):
            return NotImplemented
        return self.ruleset.name == other.ruleset.name and all(
            getattr(self, n) == getattr(other, n)
            for n in InternationalState.__slots__
            if n not in ("ruleset", "dealer_fn")
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<InternationalState hand {self.hand_index + 1}/10 {self.phase} "
            f"turn={self.turn} v{self.version}>"
        )

    def to_bytes(self) -> bytes:
        """Format 3 ("own state"), see ``stored.py``: options, match key, first dealer, the
        players' moves, the forfeit marks and the facts the replay must reach."""
        return stored.encode(self)


# The view and the stored form need InternationalState: imported once it exists.
from . import stored, view  # noqa: E402
