"""Play one complete match between four random players and print the score sheet.

    python examples/random_match.py [--ruleset standard|classic20] [--hands 8|12|20] [--seed N]

The deal is the real one (KINGDEAL-v1, from a server seed and four client seeds drawn from the
seed given here), every move goes through the engine's checked path, and the output ends with
the verification of every hand's deal from the revealed seeds.
"""

from __future__ import annotations

import argparse
import random
import uuid

from king_engine import CONTRACTS, RULESETS, deal, format_cards, new_match, parse_card, view_for
from king_engine.contracts import TRUMP

SUIT_NAMES = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="standard", choices=sorted(RULESETS))
    parser.add_argument("--hands", type=int, default=None, help="default: the shortest")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    hands = args.hands or min(RULESETS[args.ruleset].lengths)
    rng = random.Random(args.seed)

    match_id = str(uuid.UUID(bytes=rng.randbytes(16), version=4))
    server_seed = rng.randbytes(32)
    commit = deal.server_commit(match_id, server_seed)
    client_seeds = [rng.randbytes(32) for _ in range(4)]
    key = deal.match_key(match_id, server_seed, client_seeds)
    state = new_match(args.ruleset, hands, key)
    print(f"King ({args.ruleset}, {hands} hands), match {match_id}")
    print(f"deal commitment {commit}\n")

    plays: dict[int, list[tuple[int, int]]] = {}  # by deal number: a redeal deals anew
    while not state.is_over:
        seat = state.turn
        if state.phase == 0:
            view = view_for(state, seat)
            print(f"hand {state.hand_index + 1:2}: seat {seat} holds {format_cards(view.hand)}")
        move = rng.choice(state.legal_moves(seat))
        deal_no = state.deal_no
        for event in state.apply(seat, move):
            if event["type"] == "contract_chosen":
                trump = f" {SUIT_NAMES[event['trump']]}" if event["trump"] else ""
                name = next(c.turkish for c in CONTRACTS if c.code == event["contract"])
                print(f"         seat {seat} picks {name}{trump}")
            elif event["type"] in ("redealt", "replayed"):
                print(f"         {event['type']} ({event['reason']}): next deal {event['deal']}")
            elif event["type"] == "card_played":
                plays.setdefault(deal_no, []).append((event["seat"], parse_card(event["card"])))
            elif event["type"] == "hand_scored":
                tricks = event["tricks_played"]
                early = "" if tricks == 13 else f" (ended after {tricks} tricks)"
                print(f"         points {event['points']}{early}")

    print("\nscore sheet")
    print(
        f"{'hand':>4}  {'declarer':>8}  {'contract':<16}"
        + "".join(f"{f'seat {s}':>8}" for s in range(4))
    )
    for record in state.sheet:
        name = CONTRACTS[record.contract].turkish
        if record.contract == TRUMP:
            name += " " + SUIT_NAMES["CDHS"[record.trump]]
        print(
            f"{record.hand_index + 1:>4}  {record.declarer:>8}  {name:<16}"
            + "".join(f"{p:>8}" for p in record.points)
        )
    print(f"{'':>4}  {'':>8}  {'total':<16}" + "".join(f"{t:>8}" for t in state.totals))
    print(f"\nwinner(s): {', '.join(f'seat {s}' for s in state.winners())}")

    # Verify the deal the way a client does once the seeds are revealed.
    problems = [] if deal.verify_commit(match_id, server_seed, commit) else ["commitment"]
    for deal_no, deal_plays in plays.items():
        problems += deal.verify_plays(key, deal_no, deal_plays)
    print("deck verification:", "passed" if not problems else f"FAILED: {problems}")


if __name__ == "__main__":
    main()
