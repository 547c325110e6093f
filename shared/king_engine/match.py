"""The match: deal, declarer rotation, contract choice, trick play, scoring, match end.

One state object covers every phase, in the manner of OpenSpiel's game states:

* ``contract`` — the hand's declarer picks a contract (and for Koz a trump suit) among those
  the ruleset's quotas still allow;
* ``play`` — 13 tricks (fewer when the ruleset ends the hand early). The declarer leads the
  first trick, each trick's winner leads the next; cards must obey the hand's ``HandRules``;
* ``over`` — after the last hand. Highest total wins; every player on the top total is a
  winner. A player who forfeited never wins: ``match_winners(totals, forfeits)`` is the rule
  (the engine knows no forfeits; the match layer passes them). The rule lives in
  ``king_message.winners``, beside the finished-match message, so the rating service applies it
  without loading the engine; it is re-exported here.

Hand ``h`` is dealt from the match key with KINGDEAL-v1 (``deal.py``) and declared by seat
``(first_declarer + h) mod 4`` (seat 0 declares hand 0).

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

import struct
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from king_message.winners import match_winners

from .cards import (
    CARD_BIT,
    CARD_SUIT,
    FULL_DECK,
    SUIT_CHARS,
    SUIT_MASK,
    format_card,
    format_suit,
)
from .contracts import CONTRACT_CODES, CONTRACTS, NO_TRUMP, TRUMP, contract_code
from .deal import deal_hand
from .errors import BadInput, ConfigError, IllegalMove
from .moves import (
    CONTRACT_ACTION_BASE,
    NUM_ACTIONS,
    TRUMP_ACTION_BASE,
    ChooseContract,
    Move,
    PlayCard,
)
from .rulesets import RULESET_IDS, RULESETS, HandRules, Ruleset, Usage, get_ruleset
from .tricks import beats

PHASE_CONTRACT: Final = 0
PHASE_PLAY: Final = 1
PHASE_OVER: Final = 2
PHASE_NAMES: Final = ("contract", "play", "over")
TRICKS_PER_HAND: Final = 13


class HandRecord(NamedTuple):
    """One line of the score sheet (a named tuple: cheap to create in simulations)."""

    hand_index: int
    declarer: int
    contract: int
    trump: int
    points: tuple[int, int, int, int]
    tricks_played: int  # 13 unless the hand ended early

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand_index,
            "declarer": self.declarer,
            "contract": CONTRACT_CODES[self.contract],
            "trump": SUIT_CHARS[self.trump] if self.trump != NO_TRUMP else None,
            "points": list(self.points),
            "tricks_played": self.tricks_played,
        }


Event = dict[str, Any]


class MatchState:
    """The full state of a match. Build one with ``new_match``; see the module docstring."""

    __slots__ = (
        "best",
        "best_seat",
        "contract",
        "earlier",
        "hand_index",
        "hand_points",
        "hands",
        "leader",
        "led",
        "match_key",
        "num_hands",
        "phase",
        "plays",
        "rules",
        "ruleset",
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

    # ------------------------------------------------------------------ set-up

    @classmethod
    def _blank(cls, ruleset: Ruleset, num_hands: int, match_key: bytes) -> MatchState:
        """A state before its first hand is started: no scores, no picks, version 0."""
        state = cls.__new__(cls)
        state.ruleset = ruleset
        state.num_hands = num_hands
        state.match_key = match_key
        state.version = 0
        state.totals = [0, 0, 0, 0]
        state.sheet = []
        state.usage = Usage()
        return state

    def _start_hand(self, hand_index: int) -> None:
        self._start_hand_with(hand_index, deal_hand(self.match_key, hand_index))

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
        self.turn = self.ruleset.declarer(hand_index)

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
        return other

    # ------------------------------------------------------------------ queries

    @property
    def declarer(self) -> int:
        return self.ruleset.declarer(self.hand_index)

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
        pairs = self.ruleset.allowed_contracts(self.num_hands, self.turn, self.usage)
        return [ChooseContract(contract, trump) for contract, trump in pairs]

    def legal_actions(self) -> list[int]:
        """The mover's legal actions as ints (see ``moves.py``)."""
        if self.phase == PHASE_PLAY:
            mask = self.legal_card_mask()
            actions = []
            while mask:
                low = mask & -mask
                actions.append(low.bit_length() - 1)
                mask ^= low
            return actions
        return [move.action for move in self.allowed_contracts()]

    def legal_moves(self, seat: int | None = None) -> list[Move]:
        """The legal moves of ``seat`` (default: the mover); empty when it is not their turn."""
        if self.phase == PHASE_OVER or (seat is not None and seat != self.turn):
            return []
        if self.phase == PHASE_PLAY:
            mask = self.legal_card_mask()
            return [PlayCard(card) for card in range(52) if mask >> card & 1]
        return list(self.allowed_contracts())

    def winners(self) -> list[int]:
        """Every seat on the top total (only meaningful once the match is over). The engine
        knows no forfeits: a match with forfeits asks ``match_winners(totals, forfeits)``."""
        return match_winners(self.totals)

    def played_by(self, seat: int) -> list[int]:
        """The cards ``seat`` has played in this hand, in order."""
        return [p & 63 for p in self.plays if p >> 6 == seat]

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
        else:
            raise BadInput("bad_move", f"{move!r} is not a move")
        return events

    def _check_card(self, seat: int, card: int) -> None:
        if self.phase != PHASE_PLAY:
            raise IllegalMove(
                "wrong_phase",
                f"seat {seat} must choose a contract now, not play a card",
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
        reason = self.ruleset.unavailable_reason(self.num_hands, seat, self.usage, contract, trump)
        if reason is not None:
            raise IllegalMove(
                "contract_unavailable",
                f"{move} is not available to seat {seat} now ({reason})",
                reason=reason,
                allowed=[str(m) for m in self.allowed_contracts()],
            )

    # ------------------------------------------------------------------ fast path

    def apply_action(self, action: int) -> None:
        """Apply a *trusted* action for whoever is to move (fast path: no checks)."""
        if action < CONTRACT_ACTION_BASE:
            self.play_card(action, None)
        elif action < TRUMP_ACTION_BASE:
            self.choose_contract(action - CONTRACT_ACTION_BASE, NO_TRUMP, None)
        else:
            self.choose_contract(TRUMP, action - TRUMP_ACTION_BASE, None)

    def choose_contract(
        self, contract: int, trump: int = NO_TRUMP, events: list[Event] | None = None
    ) -> None:
        """The declarer picks ``contract`` (and ``trump`` for Koz). *Unchecked*, like
        ``apply_action``: for simulations that know the pick is allowed. With ``events``, the
        public events it causes are appended there."""
        declarer = self.turn
        self.contract = contract
        self.trump = trump
        self.rules = self.ruleset.hand_rules(contract, trump)
        self.usage.record(declarer, contract, trump)
        self.phase = PHASE_PLAY
        self.version += 1
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
        early = rules.early_end_mask
        if self.trick_no == TRICKS_PER_HAND or (early and self.earlier & early == early):
            self._finish_hand(events)

    def _finish_hand(self, events: list[Event] | None) -> None:
        points = self.hand_points
        record = HandRecord(
            self.hand_index,
            self.ruleset.declarer(self.hand_index),
            self.contract,
            self.trump,
            (points[0], points[1], points[2], points[3]),
            self.trick_no,
        )
        self.sheet.append(record)
        totals = self.totals
        for seat in range(4):
            totals[seat] += points[seat]
        if events is not None:
            events.append({"type": "hand_scored", **record.to_dict(), "totals": totals[:]})
        if self.hand_index + 1 == self.num_hands:
            self.phase = PHASE_OVER
            self.turn = -1
            if events is not None:
                events.append(
                    {"type": "match_over", "totals": totals[:], "winners": self.winners()}
                )
            return
        self._start_hand(self.hand_index + 1)
        if events is not None:
            events.append({"type": "hand_started", "hand": self.hand_index, "declarer": self.turn})

    # ------------------------------------------------------------------ serialised form

    def to_bytes(self) -> bytes:
        """A compact, exact form of the whole state (format 1).

        Header, match key, the four current hands (7 bytes each), this hand's plays (one byte
        each: seat << 6 | card) and the score sheet (contract byte, tricks played, four int16
        points per hand). Trick state, taken cards and usage are replayed on load.
        """
        header = _HEADER.pack(
            _FORMAT,
            RULESET_IDS[self.ruleset.name],
            self.num_hands,
            self.version,
            self.hand_index,
            self.phase,
            self.contract,
            self.trump,
            self.turn & 0xFF,
        )
        parts = [header, self.match_key]
        parts.extend(hand.to_bytes(7, "big") for hand in self.hands)
        parts.append(bytes((len(self.plays),)))
        parts.append(bytes(self.plays))
        parts.append(bytes((len(self.sheet),)))
        for record in self.sheet:
            code = record.contract << 2 | (record.trump & 3)
            parts.append(_RECORD.pack(code, record.tricks_played, *record.points))
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> MatchState:
        """The inverse of ``to_bytes``; malformed input raises ``BadInput("bad_state")``."""
        try:
            return _decode(data)
        except BadInput:
            raise
        except (struct.error, IndexError, ValueError, KeyError, AssertionError) as exc:
            raise BadInput("bad_state", f"not a serialised match state: {exc}") from exc

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


_FORMAT: Final = 1
_HEADER: Final = struct.Struct(">BBBIBBbbB")
_RECORD: Final = struct.Struct(">BBhhhh")
_RULESET_BY_ID: Final = list(RULESETS.values())


def _decode(data: bytes) -> MatchState:
    view = memoryview(data)
    (fmt, ruleset_id, num_hands, version, hand_index, phase, contract, trump, turn) = (
        _HEADER.unpack_from(view, 0)
    )
    if fmt != _FORMAT:
        raise BadInput("bad_state", f"unknown state format {fmt}")
    offset = _HEADER.size
    ruleset = _RULESET_BY_ID[ruleset_id]
    if num_hands not in ruleset.lengths:
        raise BadInput("bad_state", f"{ruleset.name} plays no match of {num_hands} hands")
    key = bytes(view[offset : offset + 32])
    offset += 32
    hands = [
        int.from_bytes(view[start : start + 7], "big") for start in range(offset, offset + 28, 7)
    ]
    offset += 28
    n_plays = view[offset]
    plays = list(view[offset + 1 : offset + 1 + n_plays])
    offset += 1 + n_plays
    n_sheet = view[offset]
    offset += 1
    state = MatchState._blank(ruleset, num_hands, key)
    sheet, record_usage = state.sheet, state.usage.record
    unpack_record, record_size = _RECORD.unpack_from, _RECORD.size
    t0 = t1 = t2 = t3 = 0  # the totals (a late state has many records: keep this loop lean)
    for index in range(n_sheet):
        code, tricks_played, p0, p1, p2, p3 = unpack_record(view, offset)
        offset += record_size
        rec_contract = code >> 2
        rec_trump = code & 3 if rec_contract == TRUMP else NO_TRUMP
        declarer = ruleset.declarer(index)
        sheet.append(
            HandRecord(index, declarer, rec_contract, rec_trump, (p0, p1, p2, p3), tricks_played)
        )
        record_usage(declarer, rec_contract, rec_trump)
        t0 += p0
        t1 += p1
        t2 += p2
        t3 += p3
    state.totals = [t0, t1, t2, t3]
    if offset != len(data) or n_sheet != min(hand_index + (phase == PHASE_OVER), num_hands):
        raise BadInput("bad_state", "serialised state has the wrong length")
    # The hand at its contract choice; in play (and when it ended the match), _replay replays
    # its plays from there.
    state.hand_index = hand_index
    state.phase = PHASE_CONTRACT
    state.contract = -1
    state.trump = NO_TRUMP
    state.rules = None
    state.hands = hands
    state.plays = []
    state.trick = state.trick_count = state.earlier = state.trick_no = 0
    state.led = state.leader = state.best = state.best_seat = -1
    state.tricks_taken = [0, 0, 0, 0]
    state.taken = [0, 0, 0, 0]
    state.hand_points = [0, 0, 0, 0]
    state.turn = ruleset.declarer(hand_index)
    if phase in (PHASE_PLAY, PHASE_OVER):
        # In play: this hand's plays so far. Over: the last hand, replayed to its end as the
        # match that ended had it (its tricks, the cards left when it ended early); it is on
        # the sheet already, and must score what its line says.
        over = phase == PHASE_OVER
        last = sheet[-1] if over and hand_index == num_hands - 1 else None
        if over and (last is None or (contract, trump) != (last.contract, last.trump)):
            raise BadInput("bad_state", "a finished match's last hand is not its sheet's")
        state.contract = contract
        state.trump = trump
        state.rules = ruleset.hand_rules(contract, trump)
        if not over:  # (a finished hand's contract is counted with its sheet line)
            state.usage.record(state.turn, contract, trump)
        state.phase = PHASE_PLAY
        _replay(state, plays, to_the_end=over)
        if last is not None:
            if tuple(state.hand_points) != last.points or state.trick_no != last.tricks_played:
                raise BadInput("bad_state", "the last hand does not score as its sheet line")
            state.phase = PHASE_OVER
            state.turn = -1
    elif plays or phase != PHASE_CONTRACT:
        raise BadInput("bad_state", "bad phase")
    else:
        _check_deal(hands, _NONE_PLAYED)
    if (state.turn & 0xFF) != turn:
        raise BadInput("bad_state", "serialised turn does not match the replay")
    state.version = version
    return state


_NONE_PLAYED: Final = (0, 0, 0, 0)


def _check_deal(hands: list[int], played: Sequence[int]) -> None:
    """The stored hands and the cards each seat played this hand must be a deal: each seat's
    stored and played cards are apart and 13 in all, and the four seats hold the 52 cards
    between them (so no card twice, none over 51). Else ``BadInput("bad_state")``."""
    h0, h1, h2, h3 = hands
    p0, p1, p2, p3 = played
    d0, d1, d2, d3 = h0 | p0, h1 | p1, h2 | p2, h3 | p3
    if (
        h0 & p0
        or h1 & p1
        or h2 & p2
        or h3 & p3
        or d0.bit_count() != 13
        or d1.bit_count() != 13
        or d2.bit_count() != 13
        or d3.bit_count() != 13
        or d0 | d1 | d2 | d3 != FULL_DECK
    ):
        raise BadInput("bad_state", "the stored hands and plays are not a deal")


def _replay(state: MatchState, plays: list[int], to_the_end: bool = False) -> None:
    """Replay the plays of a decoded hand on ``state``, at the start of its play phase.

    The same steps as ``play_card`` card by card (``tricks.beats`` and ``trick_points`` decide
    each trick), but on local variables: replaying is most of the work of decoding. Raises
    ``BadInput("bad_state")`` if a play is not the mover's card or the plays end the hand (a
    stored state is never between hands), or with ``to_the_end`` (a finished match's last
    hand) unless the last play ends it. The tests compare it with ``play_card``.

    ``state.hands`` come as stored: a dealt hand is the stored cards plus every card the seat
    plays, and together they must be a deal (``_check_deal``, once the plays are known).
    """
    rules = state.rules
    assert rules is not None
    trump, early = state.trump, rules.early_end_mask
    hands, hand_points, tricks_taken, taken = (
        state.hands,
        state.hand_points,
        state.tricks_taken,
        state.taken,
    )
    suit_of = CARD_SUIT
    turn = state.turn
    trick = count = earlier = trick_no = 0
    led = leader = best = best_seat = -1
    played = [0, 0, 0, 0]  # by seat
    last = len(plays) - 1
    ended = False
    for index, play in enumerate(plays):
        card = play & 63
        bit = 1 << card
        if play >> 6 != turn or played[turn] & bit:
            raise BadInput("bad_state", "serialised plays do not replay")
        suit = suit_of[card]  # an IndexError for a card over 51, as in play_card
        played[turn] |= bit
        if count == 0:
            led = suit
            leader = best_seat = turn
            best = card
        elif beats(card, best, trump):
            best = card
            best_seat = turn
        trick |= bit
        count += 1
        if count < 4:
            turn = (turn + 1) & 3
            continue
        # The trick is complete: the best card takes it and its holder leads next.
        hand_points[best_seat] += rules.trick_points(trick, trick_no)
        tricks_taken[best_seat] += 1
        taken[best_seat] |= trick
        earlier |= trick
        trick_no += 1
        trick = count = 0
        led = -1
        turn = best_seat
        if trick_no == TRICKS_PER_HAND or (early and earlier & early == early):
            if not (to_the_end and index == last):
                raise BadInput("bad_state", "serialised plays end the hand")
            ended = True
    if to_the_end and not ended:
        raise BadInput("bad_state", "a finished match's last hand did not end")
    _check_deal(hands, played)
    for seat in range(4):
        hands[seat] &= ~played[seat]
    state.plays = plays
    state.trick, state.trick_count, state.led = trick, count, led
    state.leader, state.best, state.best_seat = leader, best, best_seat
    state.earlier, state.trick_no, state.turn = earlier, trick_no, turn


def new_match(ruleset: str, num_hands: int, match_key: bytes) -> MatchState:
    """A new match at the contract choice of hand 0.

    ``match_key`` is the KINGDEAL-v1 match key (``deal.match_key``); every hand is dealt from
    it. Raises ``ConfigError`` (``unknown_ruleset``, ``bad_match_length``) or ``BadInput``.
    """
    rules = get_ruleset(ruleset)
    if not isinstance(num_hands, int) or isinstance(num_hands, bool):
        raise ConfigError("bad_match_length", f"match length {num_hands!r} is not a number")
    rules.check_length(num_hands)
    if not isinstance(match_key, bytes) or len(match_key) != 32:
        raise BadInput("bad_seed", "the match key must be 32 bytes")
    state = MatchState._blank(rules, num_hands, match_key)
    state._start_hand(0)
    return state


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


__all__ = [
    "NUM_ACTIONS",
    "PHASE_CONTRACT",
    "PHASE_NAMES",
    "PHASE_OVER",
    "PHASE_PLAY",
    "SUIT_MASK",
    "Event",
    "HandRecord",
    "MatchState",
    "match_winners",
    "new_match",
    "placements",
]
