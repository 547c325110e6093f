"""One process of the quick-match concurrency test: its own players join, leave, confirm (or
not) and every loop runs a pairing pass over the shared pool, as a service copy would.

python quickmatch_worker.py REDIS_URL PREFIX INDEX PLAYERS SECONDS
"""

from __future__ import annotations

import random
import secrets
import sys
import time

from redis import Redis

from king_match import MatchError, MatchSettings, MatchStore, Player
from king_match.quickmatch import QuickMatch, QuickSettings, Window, pool_name

POOL = pool_name("standard", 8, guest=False)
SETTINGS = QuickSettings(window=Window(100, 50, 400), stale_ms=3_000, confirm_ms=1_500)


def main(url: str, prefix: str, index: int, count: int, seconds: float) -> None:
    store = MatchStore(Redis.from_url(url), MatchSettings(key_prefix=prefix))
    quick = QuickMatch(store, SETTINGS)
    rng = random.Random(index)
    players = {f"w{index}-{i:02d}": int(rng.gauss(1500, 200)) for i in range(count)}
    ignored: set[str] = set()  # tables a player lets time out
    end = time.time() + seconds
    while time.time() < end:
        for name, rating in players.items():
            state = quick.status(name)
            now = state.get("state")
            if now in (None, "left", "dropped", "missed"):
                if rng.random() < 0.5:
                    quick.join(name, POOL, rating)
            elif now == "waiting":
                if rng.random() < 0.03:
                    quick.leave(name)
            elif now == "found" and state["table"] not in ignored:
                choice = rng.random()
                if choice < 0.85:
                    try:
                        quick.confirm(Player(name, name), secrets.token_hex(32))
                    except MatchError as exc:
                        if exc.code not in ("table_expired", "no_table_found"):
                            raise
                elif choice < 0.9:
                    quick.leave(name)
                else:
                    ignored.add(state["table"])
        quick.pass_pool(POOL, "standard", 8, ranked=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
