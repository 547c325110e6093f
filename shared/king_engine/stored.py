"""The serialised form of a match state: compact, exact, and checked on load.

Format 1 (``standard``, ``classic20``; every state they ever wrote): the header, the match key,
the four current hands (7 bytes each), this hand's plays (one byte each: seat << 6 | card) and
the score sheet (contract byte, tricks played, four int16 points per hand). Trick state, taken
cards and usage are replayed on load.

Format 2 (phased rulesets such as ``traditional``): the options, the match key and every move
of the match, replayed on load, then the facts the replay must reach again and the forfeit
marks, each applied again where it fell in the move sequence (``_encode_v2``).

A state that does not decode, or whose stored facts the replay does not reach, raises
``BadInput("bad_state")``: a stored state is never trusted.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Final

from .cards import CARD_SUIT, FULL_DECK
from .codec import varint
from .contracts import NO_TRUMP, TRUMP
from .deal import deal_hand
from .errors import BadInput, ConfigError
from .match import (
    PHASE_CONTRACT,
    PHASE_OVER,
    PHASE_PLAY,
    TRICKS_PER_HAND,
    DealRecord,
    HandRecord,
    MatchState,
    new_match,
)
from .rulesets import RULESET_BY_ID, RULESET_IDS
from .tricks import beats


def encode(state: MatchState) -> bytes:
    """The bytes of ``state``: format 2 for a phased ruleset, else format 1."""
    if state.ruleset.phased:
        return _encode_v2(state)
    header = _HEADER.pack(
        _FORMAT,
        RULESET_IDS[state.ruleset.name],
        state.num_hands,
        state.version,
        state.hand_index,
        state.phase,
        state.contract,
        state.trump,
        state.turn & 0xFF,
    )
    parts = [header, state.match_key]
    parts.extend(hand.to_bytes(7, "big") for hand in state.hands)
    parts.append(bytes((len(state.plays),)))
    parts.append(bytes(state.plays))
    parts.append(bytes((len(state.sheet),)))
    for record in state.sheet:
        code = record.contract << 2 | (record.trump & 3)
        parts.append(_RECORD.pack(code, record.tricks_played, *record.points))
    return b"".join(parts)


def decode(data: bytes) -> MatchState:
    """The state ``data`` holds; ``BadInput("bad_state")`` for anything malformed."""
    try:
        return _decode(data)
    except BadInput:
        raise
    except (struct.error, IndexError, ValueError, KeyError, AssertionError) as exc:
        raise BadInput("bad_state", f"not a serialised match state: {exc}") from exc


_FORMAT: Final = 1
_FORMAT_V2: Final = 2
_HEADER: Final = struct.Struct(">BBBIBBbbB")
_RECORD: Final = struct.Struct(">BBhhhh")
_HEADER_V2: Final = struct.Struct(">BBBI")
_ENDED: Final = ("played", "redealt", "replayed")
_END_REASONS: Final = (None, "played_out", "king", "king_failed")


def _read_varint(view: memoryview, offset: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = view[offset]
        offset += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, offset
        shift += 7
        if shift > 28:
            raise BadInput("bad_state", "a varint is too long")


def _encode_v2(state: MatchState) -> bytes:
    """Format 2 (phased rulesets): the header (format, ruleset id, hands, version), the
    options (one byte each: the index of its value in the ruleset's ``option_specs``), the
    match key, every move of the match as a varint action id (room for any ruleset's moves),
    then the facts the replay must reach again: the deals (hand slot and how each ended), the
    end reason, the King seat and the first declarer. Last, only if a seat forfeited (so a
    state without forfeits has the bytes it always had): their number, then for each the seat
    and, as a varint, the number of moves before it. Loading replays the moves, marking each
    forfeit at its place (it changes later King detection)."""
    if state.dealer is not deal_hand:
        raise BadInput("bad_state", "a state on forced deals (a test's) is not serialisable")
    ruleset = state.ruleset
    log = state.log
    assert log is not None
    parts = [_HEADER_V2.pack(_FORMAT_V2, ruleset.id, state.num_hands, state.version)]
    specs = ruleset.option_specs
    parts.append(bytes([len(specs)]))
    parts.append(bytes(spec.values.index(state.options[spec.name]) for spec in specs))
    parts.append(state.match_key)
    parts.append(varint(len(log)))
    parts.extend(varint(action) for action in log)
    parts.append(varint(len(state.deals)))
    parts.extend(bytes((deal.hand, _ENDED.index(deal.ended))) for deal in state.deals)
    parts.append(bytes((_END_REASONS.index(state.end_reason), state.king_seat & 0xFF, state.first)))
    if state.forfeits:
        parts.append(bytes((len(state.forfeits),)))
        for seat, at in zip(state.forfeits, state.forfeit_at, strict=True):
            parts.append(bytes((seat,)) + varint(at))
    return b"".join(parts)


def _decode_v2(view: memoryview) -> MatchState:
    _fmt, ruleset_id, num_hands, version = _HEADER_V2.unpack_from(view, 0)
    offset = _HEADER_V2.size
    ruleset = RULESET_BY_ID[ruleset_id]
    if ruleset.family is not None:
        raise BadInput("bad_state", f"{ruleset.name} states are stored in their own format")
    specs = ruleset.option_specs
    if view[offset] != len(specs):
        raise BadInput("bad_state", "wrong number of options")
    offset += 1
    options = {spec.name: spec.values[view[offset + i]] for i, spec in enumerate(specs)}
    offset += len(specs)
    key = bytes(view[offset : offset + 32])
    if len(key) != 32:
        raise BadInput("bad_state", "short match key")
    offset += 32
    try:
        state = new_match(ruleset.name, num_hands, key, options)
    except ConfigError as exc:
        raise BadInput("bad_state", f"stored set-up is not valid: {exc.message}") from exc
    n_moves, offset = _read_varint(view, offset)
    actions = []
    for _ in range(n_moves):
        action, offset = _read_varint(view, offset)
        actions.append(action)
    n_deals, offset = _read_varint(view, offset)
    deals = []
    for _ in range(n_deals):
        deals.append((view[offset], _ENDED[view[offset + 1]]))
        offset += 2
    end, king, first = view[offset], view[offset + 1], view[offset + 2]
    offset += 3
    marks: list[tuple[int, int]] = []  # (moves before it, seat)
    if offset < len(view):
        n_marks = view[offset]
        offset += 1
        for _ in range(n_marks):
            seat = view[offset]
            if seat > 3:
                raise BadInput("bad_state", f"forfeit mark of seat {seat}")
            at, offset = _read_varint(view, offset + 1)
            marks.append((at, seat))
        if not marks or marks != sorted(marks, key=lambda mark: mark[0]):
            raise BadInput("bad_state", "the forfeit marks are not in move order")
    pending = iter(marks)
    mark = next(pending, None)
    for index, action in enumerate(actions):
        while mark is not None and mark[0] == index:
            state.forfeit(mark[1])
            mark = next(pending, None)
        if action not in state.legal_actions():
            raise BadInput("bad_state", "serialised moves do not replay")
        state.apply_action(action)
    while mark is not None and mark[0] == n_moves:
        state.forfeit(mark[1])
        mark = next(pending, None)
    if (
        offset != len(view)
        or state.forfeits != tuple(seat for _at, seat in marks)
        or state.forfeit_at != tuple(at for at, _seat in marks)
        or deals != [(d.hand, d.ended) for d in state.deals]
        or _END_REASONS[end] != state.end_reason
        or king != state.king_seat & 0xFF
        or first != state.first
        or version != state.version
    ):
        raise BadInput("bad_state", "the stored facts are not the replay's")
    return state


def _decode(data: bytes) -> MatchState:
    view = memoryview(data)
    if view[0] == _FORMAT_V2:
        return _decode_v2(view)
    (fmt, ruleset_id, num_hands, version, hand_index, phase, contract, trump, turn) = (
        _HEADER.unpack_from(view, 0)
    )
    if fmt != _FORMAT:
        raise BadInput("bad_state", f"unknown state format {fmt}")
    offset = _HEADER.size
    ruleset = RULESET_BY_ID[ruleset_id]
    if ruleset.phased or ruleset.family is not None or phase > PHASE_OVER:
        raise BadInput("bad_state", f"{ruleset.name} states are stored in format 2")
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
        state.deals.append(DealRecord(index, index, rec_contract, rec_trump, "played"))
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
    state._start_hand_with(hand_index, hands)  # (format 1: the first declarer is seat 0)
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
