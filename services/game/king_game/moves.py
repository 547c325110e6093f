"""A player's move, from the request's body to the answer: the one path both ways in take.

``POST /v1/matches/{id}/moves`` reaches ``submit_move`` either through the Flask view
(``resources/matches/resources.py``) or through the WSGI shortcut (``shortcut.py``), which
parses only the HTTP around it. Neither catches what this raises: the app's error handlers
turn it into the problem+json answer (the shortcut calls them itself), so a refusal reads the
same whichever way the move came.
"""

from __future__ import annotations

from typing import Any

from king_metrics import record_move

from king_engine import (
    BadInput,
    Move,
    PlayCard,
    contract_move,
    is_own_move_text,
    parse_card,
    parse_move,
)
from king_game.context import GameContext
from king_match import Player


def move_of(body: dict[str, Any]) -> Move | str:
    """The engine's move for a body ``MoveSchema`` loaded; ``BadInput`` if it names none. The
    text of a move only a ruleset with its own state class knows stays text: the match's
    ruleset reads it (``lifecycle.play``)."""
    if body["move"] is not None:
        try:
            return parse_move(body["move"])
        except BadInput:
            text = str(body["move"]).strip()
            if is_own_move_text(text):
                return text
            raise
    if body["card"] is not None:
        return PlayCard(parse_card(body["card"]))
    return contract_move(body["contract"], body["trump"])


def submit_move(
    context: GameContext,
    match_id: str,
    player: Player,
    body: dict[str, Any],
    idempotency_key: str | None,
) -> dict[str, Any]:
    """Apply ``player``'s move (a body ``MoveSchema`` loaded) through the match store's one
    writer path; the answer as ``MoveResultSchema`` documents it."""
    result = context.store.play(
        match_id,
        player,
        move_of(body),
        expected_version=body["version"],
        idempotency_key=idempotency_key,
        rate=context.move_rate,
    )
    record_move("human")
    return result.to_dict()
