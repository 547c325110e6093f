"""Rebuild a ``SeatView`` from its JSON form (``SeatView.to_dict()``, the API's view shape).

Programs that play over the HTTP API receive the seat's view as JSON; ``view_from_dict`` turns
it back into the engine's ``SeatView`` so any policy of this package can answer it. Nothing is
added: the cards each seat has won are recomputed from the completed tricks, which are public.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from king_engine import PHASE_NAMES, ChooseContract, HandRecord, SeatView, Trick, parse_card
from king_engine.contracts import NO_TRUMP, parse_contract
from king_engine.moves import contract_move


def _suit(text: str | None) -> int:
    return NO_TRUMP if not text else "CDHS".index(text.upper())


def _mask(codes: list[str]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << parse_card(code)
    return mask


def _trick(data: Mapping[str, Any]) -> Trick:
    plays = tuple((int(p["seat"]), parse_card(p["card"])) for p in data["plays"])
    winner = data.get("winner")
    return Trick(int(data["leader"]), plays, None if winner is None else int(winner))


def _record(data: Mapping[str, Any]) -> HandRecord:
    points = data["points"]
    return HandRecord(
        int(data["hand"]),
        int(data["declarer"]),
        parse_contract(data["contract"]),
        _suit(data.get("trump")),
        (int(points[0]), int(points[1]), int(points[2]), int(points[3])),
        int(data["tricks_played"]),
    )


def _four(values: list[Any]) -> tuple[int, int, int, int]:
    return (int(values[0]), int(values[1]), int(values[2]), int(values[3]))


def view_from_dict(data: Mapping[str, Any]) -> SeatView:
    """The ``SeatView`` whose ``to_dict()`` is ``data``."""
    tricks = [_trick(t) for t in data.get("tricks") or []]
    if data.get("current_trick"):
        tricks.append(_trick(data["current_trick"]))
    taken = [0, 0, 0, 0]
    for trick in tricks:
        if trick.winner is not None:
            for _, card in trick.plays:
                taken[trick.winner] |= 1 << card
    allowed = tuple(
        contract_move(c["contract"], c.get("trump")) for c in data.get("allowed_contracts") or []
    )
    turn = data.get("turn")
    contract = data.get("contract")
    return SeatView(
        seat=int(data["seat"]),
        version=int(data.get("version", 0)),  # the API sends its own version beside the view
        ruleset=str(data["ruleset"]),
        num_hands=int(data["hands_in_match"]),
        hand_index=int(data["hand"]),
        phase=PHASE_NAMES.index(data["phase"]),
        declarer=int(data["declarer"]),
        contract=parse_contract(contract) if contract else -1,
        trump=_suit(data.get("trump")),
        turn=-1 if turn is None else int(turn),
        hand=_mask(data.get("my_cards") or []),
        tricks=tuple(tricks),
        cards_left=_four(data["cards_left"]),
        tricks_taken=_four(data["tricks_taken"]),
        taken=_four(taken),
        hand_points=_four(data["hand_points"]),
        totals=_four(data["totals"]),
        sheet=tuple(_record(r) for r in data.get("score_sheet") or []),
        legal_cards=_mask(data.get("legal_cards") or []),
        allowed_contracts=tuple(ChooseContract(m.contract, m.trump) for m in allowed),
    )
