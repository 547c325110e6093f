"""Several real processes join, leave, confirm and pair from one quick-match pool at once;
afterwards no player sits at two started matches and every state agrees with the tables."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from redis import Redis

from king_match import MatchSettings, MatchStore
from king_match.quickmatch import QuickMatch

from .quickmatch_worker import POOL, SETTINGS

WORKER = Path(__file__).with_name("quickmatch_worker.py")
PROCESSES = 4
PLAYERS = 24


def test_no_player_is_ever_at_two_matches(redis_url: str, redis: Redis) -> None:
    prefix = f"c{uuid.uuid4().hex[:8]}:"
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), redis_url, prefix, str(i), str(PLAYERS), "8"],
            stderr=subprocess.PIPE,
        )
        for i in range(PROCESSES)
    ]
    for worker in workers:
        _, errors = worker.communicate(timeout=120)
        assert worker.returncode == 0, errors.decode()
    store = MatchStore(redis, MatchSettings(key_prefix=prefix))
    quick = QuickMatch(store, SETTINGS)
    # Let every found table reach its deadline and settle.
    time.sleep(SETTINGS.confirm_ms / 1000 + 0.2)
    while quick.settle_due():
        pass
    records = []
    for key in redis.scan_iter(match=f"{prefix}m:*"):
        name = key.decode()
        if name.count(":") == 2:  # (not the :moves / :log keys)
            records.append(store.load(name.rsplit(":", 1)[1])[0])
    started = [r for r in records if r.status == "active"]
    assert started, "the run made no match at all"
    seated = Counter(p for r in started for p in r.human_ids())
    assert max(seated.values()) == 1, [p for p, n in seated.items() if n > 1]
    for record in started:
        assert record.human_ids() == record.reserved
    waiting = {w.player_id for w in quick.waiters(POOL)}
    assert not waiting & set(seated)
    states: dict[str, Any] = {}
    for index in range(PROCESSES):
        for i in range(PLAYERS):
            name = f"w{index}-{i:02d}"
            states[name] = quick.status(name)
    for name in seated:
        assert states[name]["state"] == "matched"
        assert any(r.match_id == states[name]["match"] and name in r.human_ids() for r in started)
    assert not [n for n, s in states.items() if s.get("state") == "found"]
    aborted = [r for r in records if r.status == "aborted"]
    assert all(r.end_reason == "not_confirmed" for r in aborted)
