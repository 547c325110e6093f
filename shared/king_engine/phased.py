"""The match steps of phased rulesets (``Ruleset.phased``, such as ``traditional``).

``MatchState`` keeps the common core: the state, the contract choice, trick play and the plain
rulesets' hand ends. A phased ruleset's hooks (``on_contract_chosen``, ``on_call``,
``on_trick``, ``replays`` in ``traditional.py``) decide *what* happens; the steps here carry it
out on the state's facts (deals, redeals, phase facts, sheet, end):

* ``redeal`` — a deal thrown away on a request (§3.5);
* ``finish_hand`` — a played hand: the Kız replay (§3.6), or scored, then the next hand or the
  played-out end;
* ``end_on_king`` — the King feat, or the announced King's failure, ends hand and match (§4);
* ``check_call`` — why a one-word move is refused (the checked path's part for calls).
"""

from __future__ import annotations

from .errors import IllegalMove
from .match import (
    PHASE_ANNOUNCE,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_REDEAL_OFFER,
    DealRecord,
    Event,
    MatchState,
)
from .moves import Call


def reset_phase_facts(state: MatchState) -> None:
    """The phase facts of a new deal: no forced choice, no round, no announcer, no runs."""
    state.forced = False
    state.asked = ()
    state.answers = []
    state.announcer = -1
    state.runs = [0, 0, 0, 0]


def deal_record(state: MatchState, ended: str, reason: str | None = None) -> DealRecord:
    """The record of the deal under way, ended ``played`` or ``replayed``."""
    points = state.hand_points
    return DealRecord(
        len(state.deals),
        state.hand_index,
        state.contract,
        state.trump,
        ended,
        None,
        reason,
        tuple(state.answers),
        (points[0], points[1], points[2], points[3]) if ended == "replayed" else None,
    )


def redeal(state: MatchState, asked_by: int, reason: str, events: list[Event] | None) -> None:
    """Throw the current deal away on a request (traditional §3.5): nothing is scored or used,
    the same declarer chooses again among penalties on the next deal."""
    state.deals.append(
        DealRecord(
            len(state.deals),
            state.hand_index,
            state.contract,
            state.trump,
            "redealt",
            asked_by,
            reason,
            tuple(state.answers),
        )
    )
    state.usage.unrecord(state.declarer, state.contract, state.trump)
    redeals = state.redeals + 1
    state._start_hand(state.hand_index)
    state.redeals = redeals
    state.penalty_only = True
    reset_phase_facts(state)
    if events is not None:
        events.append(
            {
                "type": "redealt",
                "hand": state.hand_index,
                "seat": asked_by,
                "reason": reason,
                "deal": state.deal_no,
            }
        )


def finish_hand(state: MatchState, events: list[Event] | None) -> None:
    """A phased hand played to its end: replayed (§3.6), or scored and followed by the next
    hand, or by the end of the match (``played_out``)."""
    if state.ruleset.replays(state):  # type: ignore[attr-defined]
        replay_hand(state, events)
        return
    state._score_hand(events)
    state.deals.append(deal_record(state, "played"))
    if state.hand_index + 1 == state.num_hands:
        state.phase = PHASE_OVER
        state.turn = -1
        state.end_reason = "played_out"
        if events is not None:
            over: Event = {
                "type": "match_over",
                "totals": state.totals[:],
                "winners": state.winners(),
            }
            over.update(state.result())
            events.append(over)
        return
    state._start_hand(state.hand_index + 1)
    state.redeals = 0
    state.penalty_only = False
    reset_phase_facts(state)
    if events is not None:
        events.append({"type": "hand_started", "hand": state.hand_index, "declarer": state.turn})


def replay_hand(state: MatchState, events: list[Event] | None) -> None:
    """The Kız replay (traditional §3.6): the deal is cancelled, the same contract is played
    again on the next deal, the declarer leading."""
    state.deals.append(deal_record(state, "replayed", "kiz_one_each"))
    contract, trump, rules = state.contract, state.trump, state.rules
    redeals, penalty_only = state.redeals + 1, state.penalty_only
    state._start_hand(state.hand_index)
    state.redeals, state.penalty_only = redeals, penalty_only
    reset_phase_facts(state)
    state.contract, state.trump, state.rules = contract, trump, rules
    state.phase = PHASE_PLAY
    if events is not None:
        events.append(
            {
                "type": "replayed",
                "hand": state.hand_index,
                "reason": "kiz_one_each",
                "deal": state.deal_no,
            }
        )


def end_on_king(state: MatchState, reason: str, events: list[Event] | None) -> None:
    """The King feat (or the announced King's failure) ends hand and match (§4): the hand is
    scored as far as it went, marked partial."""
    state._score_hand(None, partial=True)
    record = state.sheet[-1]
    state.deals.append(deal_record(state, "played"))
    state.end_reason = reason
    state.phase = PHASE_OVER
    state.turn = -1
    if events is not None:
        events.append({"type": "hand_scored", **record.to_dict(), "totals": state.totals[:]})
        events.append({"type": "match_over", **state.result()})


def check_call(state: MatchState, seat: int, move: Call) -> None:
    """Raise the ``IllegalMove`` for a call ``seat`` may not make now; return if it may."""
    word = move.word
    if word in [str(call) for call in state.legal_calls()]:
        return
    phase = state.phase
    if word == "king" and phase == PHASE_ANNOUNCE and seat in state.forfeits:
        raise IllegalMove("seat_forfeited", f"seat {seat} forfeited: its bot answers pass")
    if word == "redeal" and phase in (PHASE_REDEAL_OFFER, PHASE_PLAY) and state.ruleset.phased:
        raise IllegalMove(
            "not_eligible_for_redeal",
            f"seat {seat} may not ask for a redeal now",
            redeals=state.redeals,
        )
    raise IllegalMove(
        "wrong_phase",
        f"{word!r} is not a move of the {PHASE_NAMES[phase]} phase",
        phase=PHASE_NAMES[phase],
    )
