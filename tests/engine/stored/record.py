"""Write the stored-format fixtures: ``python -m tests.engine.stored.record`` (from the repo root).

The files it writes are test data: states serialised by ``MatchState.to_bytes`` and fairness
transcripts, as the engine wrote them when they were recorded. ``test_stored.py`` checks that
the engine still reads, replays and re-writes them exactly. Re-run this only to add new cases:
never to make a changed engine pass (the old bytes are the point).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from king_engine import MatchState, move_of_action, new_match, view_for
from king_match import fairness
from king_match.record import MatchRecord, Seat

HERE = Path(__file__).resolve().parent

# (name, ruleset, hands, seed, where to stop: (hand, moves into it); None: the match's end)
STATE_CASES: list[tuple[str, str, int, int, tuple[int, int] | None]] = [
    ("standard-8-start", "standard", 8, 1, (0, 0)),
    ("standard-8-mid-trick", "standard", 8, 2, (0, 23)),
    ("standard-12-end-of-hand", "standard", 12, 3, (1, 0)),
    ("standard-20-late", "standard", 20, 4, (19, 30)),
    ("standard-8-over", "standard", 8, 5, None),
    ("standard-20-over", "standard", 20, 6, None),
    ("classic20-20-start", "classic20", 20, 7, (0, 0)),
    ("classic20-20-mid-hand", "classic20", 20, 8, (5, 17)),
    ("classic20-20-end-of-hand", "classic20", 20, 9, (3, 0)),
    ("classic20-20-late", "classic20", 20, 10, (19, 14)),
    ("classic20-20-over", "classic20", 20, 11, None),
]


def _play(state: MatchState, rng: random.Random, stop: tuple[int, int] | None) -> list[int]:
    """Random legal moves through the checked path, to ``stop`` or the match's end."""
    actions: list[int] = []
    into = 0
    while not state.is_over:
        if stop is not None and state.hand_index == stop[0] and into == stop[1]:
            break
        hand = state.hand_index
        action = rng.choice(state.legal_actions())
        state.apply(state.turn, move_of_action(action))
        actions.append(action)
        into = into + 1 if state.hand_index == hand else 0
    return actions


def state_case(name: str, ruleset: str, hands: int, seed: int, stop: tuple[int, int] | None) -> Any:
    rng = random.Random(seed)
    key = rng.randbytes(32)
    state = new_match(ruleset, hands, key)
    actions = _play(state, rng, stop)
    return {
        "name": name,
        "ruleset": ruleset,
        "num_hands": hands,
        "match_key": key.hex(),
        "actions": actions,
        "bytes": state.to_bytes().hex(),
        "totals": state.totals,
        "views": [view_for(state, seat).to_dict() for seat in range(4)],
    }


# (match id, ruleset, hands, seed, seat sources)
TRANSCRIPT_CASES: list[tuple[str, str, int, int, tuple[str, ...]]] = [
    ("0f2a7c1e-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "standard", 8, 11, ("client", "bot", "bot", "bot")),
    ("1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", "standard", 12, 12, ("client",) * 4),
    (
        "3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f",
        "standard",
        20,
        14,
        ("client", "bot", "client", "bot"),
    ),
    ("2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e", "classic20", 20, 13, ("client", "server") * 2),
]


def transcript_case(
    match_id: str, ruleset: str, hands: int, seed: int, sources: tuple[str, ...]
) -> Any:
    rng = random.Random(seed)
    server_seed = rng.randbytes(32).hex()
    seats: list[Seat | None] = [
        Seat(
            player_id=f"p{index}",
            name=f"P{index}",
            is_bot=source == "bot",
            server_bot=source == "bot",
            seed="00" * 32 if source == "bot" else rng.randbytes(32).hex(),
            seed_source=source,
        )
        for index, source in enumerate(sources)
    ]
    record = MatchRecord(
        match_id=match_id,
        mode="computer",
        ranked=False,
        ruleset=ruleset,
        hands=hands,
        creator_id="p0",
        server_seed=server_seed,
        server_commit=fairness.commitment(match_id, server_seed),
        created_ms=1,
        status="finished",
        seats=seats,
        started_ms=2,
        outcome="finished",
    )
    state = new_match(ruleset, hands, fairness.match_key(record))
    moves = bytearray()
    while not state.is_over:
        seat, action = state.turn, rng.choice(state.legal_actions())
        state.apply(seat, move_of_action(action))
        moves.append(seat << 6 | action)
    return {
        "record": record.to_json(),
        "moves": moves.hex(),
        "totals": state.totals,
        "transcript": fairness.transcript(record, bytes(moves)),
    }


def write(name: str, cases: list[Any]) -> None:
    """One case a line: the files stay short and a new case is a one-line diff."""
    lines = ",\n".join(json.dumps(case, separators=(",", ":")) for case in cases)
    (HERE / name).write_text(f"[\n{lines}\n]\n", encoding="utf-8")


def main() -> None:
    write("states.json", [state_case(*case) for case in STATE_CASES])
    write("transcripts.json", [transcript_case(*case) for case in TRANSCRIPT_CASES])


if __name__ == "__main__":
    main()
