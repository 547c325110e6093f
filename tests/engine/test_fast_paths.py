"""The fast paths of the view and of the serialised state against plain reference versions.

``view_for``/``SeatView.to_dict`` and ``MatchState.from_bytes`` use lookup tables and inlined
loops for speed. The references below are the straightforward versions they replaced (copied
from the engine before that change); for states reached by random legal play in every ruleset,
the fast paths must give exactly what the references give: the same views, dicts with the same
keys in the same order and values of the same types, and the same decoded states — or the
same ``BadInput`` code for malformed bytes.
"""

from __future__ import annotations

import random
import struct
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from king_engine import (
    CONTRACTS,
    PHASE_NAMES,
    BadInput,
    KingError,
    MatchState,
    SeatView,
    Trick,
    format_card,
    new_match,
    view_for,
)
from king_engine.cards import card_codes, cards_in
from king_engine.contracts import NO_TRUMP, TRUMP, contract_code
from king_engine.match import PHASE_CONTRACT, PHASE_OVER, PHASE_PLAY, DealRecord, HandRecord
from king_engine.moves import ChooseContract
from king_engine.rulesets import RULESETS
from king_engine.simulate import play_random_hand

CONFIGS = [("standard", 8), ("standard", 12), ("standard", 20), ("classic20", 20)]

# ---------------------------------------------------------------- reference view


def ref_tricks(state: MatchState) -> tuple[Trick, ...]:
    plays = state.plays
    winners = [plays[start] >> 6 for start in range(4, len(plays), 4)]
    if state.trick_no > len(winners):
        winners.append(state.turn)
    winners = winners[: state.trick_no]
    tricks = []
    for start in range(0, len(plays), 4):
        chunk = plays[start : start + 4]
        index = start // 4
        tricks.append(
            Trick(
                chunk[0] >> 6,
                tuple((p >> 6, p & 63) for p in chunk),
                winners[index] if index < len(winners) else None,
            )
        )
    return tuple(tricks)


def ref_view_for(state: MatchState, seat: int) -> SeatView:
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
        tricks=ref_tricks(state) if in_play else (),
        cards_left=left,
        tricks_taken=tuple(state.tricks_taken),  # type: ignore[arg-type]
        taken=tuple(state.taken) if state.phase != 2 else (0, 0, 0, 0),  # type: ignore[arg-type]
        hand_points=tuple(state.hand_points),  # type: ignore[arg-type]
        totals=tuple(state.totals),  # type: ignore[arg-type]
        sheet=tuple(state.sheet),
        legal_cards=legal,
        allowed_contracts=allowed,
    )


def ref_codes(mask: int) -> list[str]:
    return [format_card(c) for c in cards_in(mask)]


def ref_trick_dict(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "plays": [{"seat": seat, "card": format_card(card)} for seat, card in trick.plays],
        "winner": trick.winner,
    }


def ref_record_dict(record: HandRecord) -> dict[str, Any]:
    return {
        "hand": record.hand_index,
        "declarer": record.declarer,
        "contract": contract_code(record.contract),
        "trump": "CDHS"[record.trump] if record.trump != NO_TRUMP else None,
        "points": list(record.points),
        "tricks_played": record.tricks_played,
        "deal": record.hand_index if record.deal is None else record.deal,
        "partial": record.partial,
    }


def ref_to_dict(view: SeatView) -> dict[str, Any]:
    penalty_mask = CONTRACTS[view.contract].card_mask if view.contract >= 0 else 0
    current = view.current_trick
    return {
        "seat": view.seat,
        "version": view.version,
        "ruleset": view.ruleset,
        "hands_in_match": view.num_hands,
        "hand": view.hand_index,
        "phase": PHASE_NAMES[view.phase],
        "declarer": view.declarer,
        "contract": contract_code(view.contract) if view.contract >= 0 else None,
        "trump": "CDHS"[view.trump] if view.trump != NO_TRUMP else None,
        "turn": view.turn if view.turn >= 0 else None,
        "my_cards": ref_codes(view.hand),
        "current_trick": ref_trick_dict(current) if current else None,
        "tricks": [ref_trick_dict(t) for t in view.tricks if t.winner is not None],
        "cards_left": list(view.cards_left),
        "tricks_taken": list(view.tricks_taken),
        "penalty_cards_taken": [ref_codes(mask & penalty_mask) for mask in view.taken],
        "hand_points": list(view.hand_points),
        "totals": list(view.totals),
        "score_sheet": [ref_record_dict(record) for record in view.sheet],
        "legal_cards": ref_codes(view.legal_cards),
        "allowed_contracts": [
            {
                "contract": contract_code(m.contract),
                "trump": "CDHS"[m.trump] if m.contract == TRUMP else None,
                "move": str(m),
            }
            for m in view.allowed_contracts
        ],
        # The keys every ruleset's view has (plain rulesets: no calls, deal = hand).
        "legal_moves": ref_codes(view.legal_cards) + [str(m) for m in view.allowed_contracts],
        "deal": view.hand_index,
        "redeals": 0,
        "redeal_cap": 0,
        "options": {},
        "first_declarer": 0,
    }


def assert_identical(got: Any, want: Any, path: str = "view") -> None:
    """Equal, and of the same types all the way down, with dict keys in the same order."""
    assert type(got) is type(want), (path, got, want)
    if isinstance(want, dict):
        assert list(got) == list(want), path
        for key in want:
            assert_identical(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, list | tuple):
        assert len(got) == len(want), (path, got, want)
        for index, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_identical(g, w, f"{path}[{index}]")
    else:
        assert got == want, (path, got, want)


# ---------------------------------------------------------------- reference decoder

_HEADER = struct.Struct(">BBBIBBbbB")
_RECORD = struct.Struct(">BBhhhh")
_RULESET_BY_ID = [RULESETS["standard"], RULESETS["classic20"]]  # format 1's ids


def ref_from_bytes(data: bytes) -> MatchState:
    try:
        return ref_decode(data)
    except BadInput:
        raise
    except (struct.error, IndexError, ValueError, KeyError, AssertionError) as exc:
        raise BadInput("bad_state", f"not a serialised match state: {exc}") from exc


def ref_decode(data: bytes) -> MatchState:
    view = memoryview(data)
    (fmt, ruleset_id, num_hands, version, hand_index, phase, contract, trump, turn) = (
        _HEADER.unpack_from(view, 0)
    )
    if fmt != 1:
        raise BadInput("bad_state", f"unknown state format {fmt}")
    offset = _HEADER.size
    ruleset = _RULESET_BY_ID[ruleset_id]
    if num_hands not in ruleset.lengths:
        raise BadInput("bad_state", "bad match length")
    key = bytes(view[offset : offset + 32])
    offset += 32
    hands = []
    for _ in range(4):
        hands.append(int.from_bytes(view[offset : offset + 7], "big"))
        offset += 7
    n_plays = view[offset]
    plays = list(view[offset + 1 : offset + 1 + n_plays])
    offset += 1 + n_plays
    # The hands as dealt: what each seat holds now plus what it played, each card once.
    dealt = hands[:]
    for play in plays:
        seat, bit = play >> 6, 1 << (play & 63)
        if dealt[seat] & bit:
            raise BadInput("bad_state", "a card held and played, or played twice")
        dealt[seat] |= bit
    if [bin(d).count("1") for d in dealt] != [13] * 4 or sum(dealt) != (1 << 52) - 1:
        raise BadInput("bad_state", "not a deal")
    n_sheet = view[offset]
    offset += 1
    state = MatchState._blank(ruleset, num_hands, key)
    for index in range(n_sheet):
        code, tricks_played, p0, p1, p2, p3 = _RECORD.unpack_from(view, offset)
        points = (p0, p1, p2, p3)
        offset += _RECORD.size
        rec_contract = code >> 2
        rec_trump = code & 3 if rec_contract == TRUMP else NO_TRUMP
        declarer = ruleset.declarer(index)
        record = HandRecord(index, declarer, rec_contract, rec_trump, points, tricks_played)
        state.sheet.append(record)
        state.deals.append(DealRecord(index, index, rec_contract, rec_trump, "played"))
        state.usage.record(declarer, rec_contract, rec_trump)
        for seat in range(4):
            state.totals[seat] += points[seat]
    if offset != len(data) or n_sheet != min(hand_index + (phase == PHASE_OVER), num_hands):
        raise BadInput("bad_state", "serialised state has the wrong length")
    state.hand_index = hand_index
    state.phase = PHASE_CONTRACT
    state.contract = -1
    state.trump = NO_TRUMP
    state.rules = None
    state.hands = hands
    for play in plays:
        state.hands[play >> 6] |= 1 << (play & 63)
    state.plays = []
    state.trick = state.trick_count = state.earlier = state.trick_no = 0
    state.led = state.leader = state.best = state.best_seat = -1
    state.tricks_taken = [0, 0, 0, 0]
    state.taken = [0, 0, 0, 0]
    state.hand_points = [0, 0, 0, 0]
    state.turn = ruleset.declarer(hand_index)
    if phase == PHASE_OVER:
        # The sheet's last line again, by playing the last hand to its end.
        if hand_index != num_hands - 1 or not state.sheet:
            raise BadInput("bad_state", "bad phase")
        last = state.sheet.pop()
        state.deals.pop()
        for seat in range(4):
            state.totals[seat] -= last.points[seat]
        if (contract, trump) != (last.contract, last.trump):
            raise BadInput("bad_state", "not the sheet's contract")
        state.contract = contract
        state.trump = trump
        state.rules = ruleset.hand_rules(contract, trump)
        state.phase = PHASE_PLAY
        for play in plays:
            if (
                state.phase != PHASE_PLAY
                or play >> 6 != state.turn
                or not state.hands[state.turn] >> (play & 63) & 1
            ):
                raise BadInput("bad_state", "serialised plays do not replay")
            state.play_card(play & 63)
        if state.phase != PHASE_OVER or state.sheet[-1] != last:
            raise BadInput("bad_state", "the last hand does not end as its sheet line")
    elif phase == PHASE_PLAY:
        state.contract = contract
        state.trump = trump
        state.rules = ruleset.hand_rules(contract, trump)
        state.usage.record(state.turn, contract, trump)
        state.phase = PHASE_PLAY
        for play in plays:
            if play >> 6 != state.turn or not state.hands[state.turn] >> (play & 63) & 1:
                raise BadInput("bad_state", "serialised plays do not replay")
            state.play_card(play & 63)
        if state.phase != PHASE_PLAY or state.hand_index != hand_index:
            raise BadInput("bad_state", "serialised plays end the hand")
    elif plays or phase != PHASE_CONTRACT:
        raise BadInput("bad_state", "bad phase")
    if (state.turn & 0xFF) != turn:
        raise BadInput("bad_state", "serialised turn does not match the replay")
    state.version = version
    return state


def assert_same_state(got: MatchState, want: MatchState) -> None:
    """Every slot equal and of the same type (``==`` on states skips ``rules``)."""
    for name in MatchState.__slots__:
        g, w = getattr(got, name), getattr(want, name)
        if name == "rules":
            assert g is w, name  # the ruleset's cached HandRules (or None)
        else:
            assert type(g) is type(w), name
            assert g == w, name


def decode_outcome(decode: Any, data: bytes) -> MatchState | str:
    """The decoded state, or the error's class and code (any other exception escapes)."""
    try:
        return decode(data)  # type: ignore[no-any-return]
    except KingError as exc:
        return f"{type(exc).__name__}:{exc.code}"


# ---------------------------------------------------------------- random states


def random_states(ruleset: str, length: int, seed: int, skip_hands: int) -> list[MatchState]:
    """Copies of a match at every move of one hand (after skipping some), and at its end."""
    rng = random.Random(seed)
    state = new_match(ruleset, length, rng.randbytes(32))
    for _ in range(min(skip_hands, length - 1)):
        play_random_hand(state, rng.random)
    states = []
    hand = state.hand_index
    while not state.is_over and state.hand_index == hand:
        states.append(state.copy())
        state.apply_action(rng.choice(state.legal_actions()))
    states.append(state.copy())  # the next hand's contract choice, or the match's end
    while not state.is_over:
        play_random_hand(state, rng.random)
    states.append(state)
    return states


state_params = st.tuples(st.sampled_from(CONFIGS), st.integers(0, 2**63), st.integers(0, 20))


# ---------------------------------------------------------------- the view


@given(params=state_params)
def test_views_equal_the_reference(params: tuple[tuple[str, int], int, int]) -> None:
    (ruleset, length), seed, skip = params
    for state in random_states(ruleset, length, seed, skip):
        for seat in range(4):
            view = view_for(state, seat)
            want = ref_view_for(state, seat)
            assert view == want
            assert_identical(view.to_dict(), ref_to_dict(want))


@given(mask=st.integers(0, 2**52 - 1))
def test_card_codes_equal_the_reference(mask: int) -> None:
    assert card_codes(mask) == ref_codes(mask)


@pytest.mark.parametrize("mask", [1 << 52, 1 << 55 | 1, 1 << 60, 1 << 56 | 1 << 3, -1, -(1 << 20)])
def test_card_codes_reject_card_ids_over_51(mask: int) -> None:
    with pytest.raises(BadInput) as ref:
        ref_codes(mask)
    with pytest.raises(BadInput) as got:
        card_codes(mask)
    assert (got.value.code, str(got.value)) == (ref.value.code, str(ref.value))


# ---------------------------------------------------------------- the serialised state


@given(params=state_params)
def test_decoding_equals_the_reference(params: tuple[tuple[str, int], int, int]) -> None:
    (ruleset, length), seed, skip = params
    for state in random_states(ruleset, length, seed, skip):
        data = state.to_bytes()
        decoded = MatchState.from_bytes(data)
        assert_same_state(decoded, ref_from_bytes(data))
        assert decoded.to_bytes() == ref_from_bytes(data).to_bytes()
        assert decoded == state  # a finished match too: its last hand as it ended
        assert decoded.to_bytes() == data


def hand_bytes(state: MatchState, plays: list[int], hands: list[int], turn: int) -> bytes:
    """``state.to_bytes()`` with other plays, hands and turn (which may not replay)."""
    data = bytearray(state.to_bytes())
    head = _HEADER.size + 32
    data[_HEADER.size - 1] = turn
    data[head : head + 28] = b"".join(hand.to_bytes(7, "big") for hand in hands)
    n_old = data[head + 28]
    data[head + 28 : head + 29 + n_old] = bytes((len(plays), *plays))
    return bytes(data)


@given(
    params=state_params,
    cut=st.integers(0, 60),
    extra=st.lists(st.integers(0, 255), max_size=6),
    turn=st.sampled_from([0, 1, 2, 3, 255]),
    hand_noise=st.integers(0, 2**56 - 1),
    noisy_seat=st.integers(-1, 3),
)
def test_odd_plays_decode_as_the_reference(
    params: tuple[tuple[str, int], int, int],
    cut: int,
    extra: list[int],
    turn: int,
    hand_noise: int,
    noisy_seat: int,
) -> None:
    """A hand's real plays cut anywhere (up to its very end and past it), with random plays
    after them, any turn, and cards over 51 or taken from another hand in the hands."""
    (ruleset, length), seed, skip = params
    states = random_states(ruleset, length, seed, skip)
    first = next((s for s in states if s.phase == PHASE_PLAY and not s.plays), None)
    if first is None:
        return
    last = states[-3]  # the hand's last move is still to come
    whole = [*last.plays, last.turn << 6 | last.legal_actions()[0]]
    plays = whole[: min(cut, len(whole))] + extra
    hands = first.hands[:]
    for play in plays:
        hands[play >> 6 & 3] &= ~(1 << (play & 63))
    if noisy_seat >= 0:
        hands[noisy_seat] ^= hand_noise & ~((1 << 48) - 1) | hand_noise & 0xFFF
    data = hand_bytes(first, plays, hands, turn)
    got, want = decode_outcome(MatchState.from_bytes, data), decode_outcome(ref_from_bytes, data)
    if isinstance(want, str):
        assert got == want == "BadInput:bad_state"
    else:
        assert isinstance(got, MatchState)
        assert_same_state(got, want)


@given(
    params=state_params,
    edits=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)), min_size=1, max_size=3),
    cut=st.none() | st.integers(0, 400),
)
def test_corrupted_bytes_decode_as_the_reference(
    params: tuple[tuple[str, int], int, int], edits: list[tuple[int, int]], cut: int | None
) -> None:
    (ruleset, length), seed, skip = params
    state = random_states(ruleset, length, seed, skip)[min(skip, 3)]
    data = bytearray(state.to_bytes())
    for position, value in edits:
        data[position % len(data)] = value
    if cut is not None:
        del data[cut % len(data) :]
    got = decode_outcome(MatchState.from_bytes, bytes(data))
    want = decode_outcome(ref_from_bytes, bytes(data))
    if isinstance(want, str):
        assert got == want
    else:
        assert isinstance(got, MatchState)
        assert_same_state(got, want)


@pytest.mark.parametrize(("ruleset", "length"), CONFIGS)
def test_plays_that_end_the_hand_are_rejected(ruleset: str, length: int) -> None:
    """A stored state is never between hands: a hand's every play (with any turn, and with a
    play after them) is ``bad_state``, as it was, for early-ending hands too."""
    for seed in range(12):
        states = random_states(ruleset, length, seed, seed)
        first, last = states[1], states[-3]
        assert first.phase == PHASE_PLAY and not first.plays
        whole = [*last.plays, last.turn << 6 | last.legal_actions()[0]]
        for plays in (whole, [*whole, whole[0]], [*whole, 0], [*whole, 0x41]):
            hands = first.hands[:]
            for play in plays:
                hands[play >> 6] &= ~(1 << (play & 63))
            for turn in (0, 1, 2, 3, 255):
                data = hand_bytes(first, plays, hands, turn)
                want = decode_outcome(ref_from_bytes, data)
                assert want == "BadInput:bad_state"
                assert decode_outcome(MatchState.from_bytes, data) == want


@pytest.mark.parametrize(("ruleset", "length"), CONFIGS)
def test_cards_played_twice_or_still_held_decode_as_the_reference(
    ruleset: str, length: int
) -> None:
    """A seat playing a card it played before, or a played card still in the stored hand, is
    ``bad_state``, as the reference has it."""
    for seed in range(6):
        states = random_states(ruleset, length, seed, seed)
        first, last = states[1], states[-3]
        whole = [*last.plays, last.turn << 6 | last.legal_actions()[0]]
        for k in range(1, len(whole)):
            seat = whole[k] >> 6
            before = [p for p in whole[:k] if p >> 6 == seat]
            hands = first.hands[:]
            for play in whole[:k]:
                hands[play >> 6] &= ~(1 << (play & 63))
            cases = [(whole[:k], [h | (1 << (whole[k - 1] & 63)) for h in hands])]
            if before:
                cases.append(([*whole[:k], before[-1]], hands))
            for plays, held in cases:
                for turn in (0, 1, 2, 3):
                    data = hand_bytes(first, plays, held, turn)
                    got = decode_outcome(MatchState.from_bytes, data)
                    want = decode_outcome(ref_from_bytes, data)
                    if isinstance(want, str):
                        assert got == want
                    else:
                        assert isinstance(got, MatchState)
                        assert_same_state(got, want)


# ---------------------------------------------------------------- states that are not a deal

HANDS_AT = _HEADER.size + 32  # the four hands, 7 bytes each, after the header and match key


def _with_hands(data: bytes, hands: list[int]) -> bytes:
    out = bytearray(data)
    for seat, hand in enumerate(hands):
        out[HANDS_AT + 7 * seat : HANDS_AT + 7 * seat + 7] = hand.to_bytes(7, "big")
    return bytes(out)


def _bad_state(data: bytes) -> None:
    with pytest.raises(BadInput) as got:
        MatchState.from_bytes(data)
    assert got.value.code == "bad_state"
    assert decode_outcome(ref_from_bytes, data) == "BadInput:bad_state"


@pytest.mark.parametrize("seed", range(4))
def test_hands_that_are_not_a_deal_are_bad_state(seed: int) -> None:
    states = random_states("standard", 8, seed, seed)
    for state in (states[0], states[7], states[-1]):  # contract choice, in play, finished
        data = state.to_bytes()
        assert MatchState.from_bytes(_with_hands(data, state.hands)) == state  # as stored: fine
        played = [0, 0, 0, 0]
        for play in state.plays:
            played[play >> 6] |= 1 << (play & 63)
        for seat in range(4):
            others = ((1 << 52) - 1) & ~(state.hands[seat] | played[seat])
            card = others & -others  # a card another seat holds or played
            cases = [
                [h | card if s == seat else h for s, h in enumerate(state.hands)],
                [h | 1 << 53 if s == seat else h for s, h in enumerate(state.hands)],
            ]
            if state.hands[seat]:
                mine = state.hands[seat] & -state.hands[seat]
                # a card missing from the deck; a card handed to the next seat (14 and 12)
                cases.append([h & ~mine for h in state.hands])
                cases.append(
                    [
                        h | mine if s == (seat + 1) % 4 else h & ~mine
                        for s, h in enumerate(state.hands)
                    ]
                )
            for hands in cases:
                _bad_state(_with_hands(data, hands))


def test_a_bad_match_length_byte_is_bad_state_not_a_config_error() -> None:
    state = random_states("standard", 8, 1, 0)[3]
    data = bytearray(state.to_bytes())
    data[2] = 9  # the header's match length: standard plays 8, 12 or 20
    _bad_state(bytes(data))


@pytest.mark.parametrize(("ruleset", "length"), CONFIGS)
def test_a_finished_match_whose_last_hand_does_not_score_its_sheet_line_is_bad_state(
    ruleset: str, length: int
) -> None:
    final = random_states(ruleset, length, 5, length)[-1]
    assert final.is_over and final.plays  # the last hand's plays are kept
    data = final.to_bytes()
    assert MatchState.from_bytes(data) == final
    last_line = len(data) - _RECORD.size
    code, tricks, *points = _RECORD.unpack_from(data, last_line)
    for changed in (
        (code, tricks, points[0] + 1, *points[1:]),  # other points
        (code, tricks - 1, *points),  # other trick count
        ((code >> 2 ^ 1) << 2 | code & 3, tricks, *points),  # another contract
    ):
        _bad_state(data[:last_line] + _RECORD.pack(*changed))
    # And its plays must end the hand: one play fewer does not.
    cut = bytearray(final.to_bytes())
    n_plays_at = HANDS_AT + 28
    n = cut[n_plays_at]
    last_play = cut[n_plays_at + n]
    del cut[n_plays_at + n]
    cut[n_plays_at] = n - 1
    hands = [
        h | (1 << (last_play & 63) if seat == last_play >> 6 else 0)
        for seat, h in enumerate(final.hands)
    ]
    _bad_state(_with_hands(bytes(cut), hands))


@pytest.mark.parametrize(("ruleset", "length"), CONFIGS)
def test_a_finished_match_view_names_no_card_and_is_the_same_after_a_reload(
    ruleset: str, length: int
) -> None:
    for seed in range(8):
        final = random_states(ruleset, length, seed, length)[-1]
        reloaded = MatchState.from_bytes(final.to_bytes())
        for seat in range(4):
            shown = view_for(final, seat).to_dict()
            assert shown == view_for(reloaded, seat).to_dict()
            # (no tricks shown at the end, so no card: the last hand's taken ones neither)
            assert not card_codes_in(shown), card_codes_in(shown)


def card_codes_in(value: Any) -> set[str]:
    codes = set(card_codes((1 << 52) - 1))
    if isinstance(value, str):
        return {value} & codes
    if isinstance(value, dict):
        return set().union(*(card_codes_in(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(card_codes_in(v) for v in value))
    return set()
