"""One way in for every ruleset: ``MatchState`` for the King rulesets that share its model, a
ruleset's own state class for the systems that do not (``konturlu``, ``international``).

A ruleset with its own state class sets ``Ruleset.family`` and builds, parses and loads its
states itself (``new_state``, ``parse_move``, ``move_of_action``, ``state_from_bytes``); its
states have the surface of ``GameState``, which is all the match layer relies on. Its stored
bytes start with format byte 3 and the ruleset id, so ``game_from_bytes`` knows whose they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final, Protocol, cast, runtime_checkable

from .deal import deal_hand
from .errors import BadInput
from .match import MatchState, new_match
from .moves import Move, parse_move
from .rulesets import RULESET_BY_ID, RULESETS, Ruleset, get_ruleset

OWN_STATE_FORMAT: Final = 3


@runtime_checkable
class GameMove(Protocol):
    """A move of any ruleset: an action id (what the match's move log stores) and a text form
    its ruleset parses back."""

    @property
    def action(self) -> int: ...


class GameState(Protocol):
    """What the match layer asks of a match state, whatever its ruleset."""

    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def version(self) -> int: ...
    @property
    def hand_index(self) -> int: ...
    @property
    def deal_no(self) -> int: ...
    @property
    def declarer(self) -> int: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def forfeits(self) -> tuple[int, ...]: ...
    @property
    def totals(self) -> list[int]: ...

    def legal_moves(self, seat: int | None = None) -> Sequence[Any]: ...
    def apply(self, seat: int, move: Any) -> list[dict[str, Any]]: ...
    def forfeit(self, seat: int) -> None: ...
    def result(self, forfeits: Sequence[int] = ()) -> dict[str, Any]: ...
    def to_bytes(self) -> bytes: ...
    def copy(self) -> Any: ...


class OwnState(GameState, Protocol):
    """A state of a ruleset with its own state class: it also builds its seats' JSON views and
    lists its deals for the fairness transcript. ``first`` is the seat that declared (or
    dealt) first; ``forfeit_at[i]`` the version at which ``forfeits[i]`` was marked."""

    @property
    def first(self) -> int: ...
    @property
    def forfeit_at(self) -> tuple[int, ...]: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...
    def deal_log(self) -> list[dict[str, Any]]: ...


def own_state(state: GameState) -> OwnState:
    """``state`` as a state of a ruleset with its own state class (checked)."""
    if isinstance(state, MatchState) or state.ruleset.family is None:
        raise TypeError(f"{state!r} is a MatchState")
    return cast(OwnState, state)


@cache
def own_move_words() -> frozenset[str]:
    """The move words (cards aside) of the rulesets with their own state class: whole texts,
    or prefixes ending in ``:`` (``bid:``) that take an argument."""
    return frozenset(
        word
        for rules in RULESETS.values()
        if rules.family is not None
        for word in rules.move_words()
    )


def is_own_move_text(text: str) -> bool:
    """Whether ``text`` is worded as a move of a ruleset with its own state class (its
    ruleset still checks it)."""
    words = own_move_words()
    return text in words or any(w.endswith(":") and text.startswith(w) for w in words)


def has_own_state(ruleset: Ruleset | str) -> bool:
    """Whether ``ruleset`` keeps its matches in its own state class (not ``MatchState``)."""
    rules = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    return rules.family is not None


def new_game(
    ruleset: str, num_hands: int, match_key: bytes, options: Mapping[str, Any] | None = None
) -> GameState:
    """A new match of any ruleset (``new_match`` for the ``MatchState`` ones); the same
    ``ConfigError`` / ``BadInput`` refusals."""
    rules = get_ruleset(ruleset)
    if rules.family is None:
        return new_match(ruleset, num_hands, match_key, options)
    checked = rules.check_setup(num_hands, match_key, options)
    state: GameState = rules.new_state(num_hands, match_key, checked, deal_hand)
    return state


def game_from_bytes(data: bytes) -> GameState:
    """The state ``data`` holds, whichever ruleset wrote it; ``BadInput("bad_state")`` else."""
    if len(data) >= 2 and data[0] == OWN_STATE_FORMAT:
        rules = RULESET_BY_ID.get(data[1])
        if rules is None or rules.family is None:
            raise BadInput("bad_state", f"no ruleset with its own state has id {data[1]}")
        state: GameState = rules.state_from_bytes(data)
        return state
    return MatchState.from_bytes(data)


def parse_game_move(ruleset: Ruleset, text: str) -> Any:
    """``text`` as a move of ``ruleset``; ``BadInput("bad_move")`` when it is none."""
    if ruleset.family is None:
        return parse_move(text)
    return ruleset.parse_move(text)


def game_move_of_action(ruleset: Ruleset, action: int) -> Any:
    """The move a match log's action id stands for in ``ruleset``."""
    if ruleset.family is None:
        from .moves import move_of_action

        return move_of_action(action)
    return ruleset.move_of_action(action)


def as_ruleset_move(state: GameState, move: Move | str | Any) -> Any:
    """A move given as text, or as a King move object, read as a move of ``state``'s ruleset
    (the API parses a body before it knows the match)."""
    rules = state.ruleset
    if rules.family is None:
        return parse_move(move) if isinstance(move, str) else move
    return rules.parse_move(str(move))
