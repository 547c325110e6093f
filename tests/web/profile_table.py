"""What the table costs the browser: the first 120 steps of seat 0 in a konturlu match at the
instant pace (test_konturlu's driver), with Chromium's main-thread figures and the CPU
profile's heaviest functions written to ``test-artifacts/web/profile-table.txt``.

Not part of ``make test`` (the name does not start with ``test_``); run it by name, before and
after a change to the table's drawing, on a quiet machine:

    .venv/bin/pytest tests/web/profile_table.py
"""

from __future__ import annotations

import collections
import json
import time
from pathlib import Path
from typing import Any

from .pages import create_computer_table, new_page, sign_in_as_guest
from .servers import LiveServer
from .test_konturlu import SUMMARIES_JS, Driver

STEPS = 120
METRICS = ["TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration",
           "LayoutCount", "RecalcStyleCount"]  # fmt: skip


def heaviest(profile: dict[str, Any], count: int = 25) -> list[tuple[float, str]]:
    """The functions with the most samples of their own, in seconds."""
    nodes = {node["id"]: node["callFrame"] for node in profile["nodes"]}
    own: collections.Counter[str] = collections.Counter()
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[sample]
        where = f"{frame['url'].rsplit('/', 1)[-1]}:{frame['lineNumber']}"
        own[f"{frame['functionName'] or '(anonymous)'} {where}"] += delta
    return [(micros / 1e6, name) for name, micros in own.most_common(count)]


def test_profile_the_konturlu_table(browser: Any, game_server: LiveServer, artifacts: Path) -> None:
    with new_page(
        browser, pace="instant", lang="en", timeout_ms=30_000, init_script=SUMMARIES_JS
    ) as page:
        sign_in_as_guest(page, game_server.url, "Profil")
        match_id = create_computer_table(page, level="easy", hands=32, ruleset="konturlu")
        driver = Driver(page, game_server.url, match_id, artifacts)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        cdp.send("Profiler.enable")
        cdp.send("Profiler.start")
        started = time.monotonic()
        for _ in range(STEPS):
            assert driver.step()
        elapsed = time.monotonic() - started
        profile = cdp.send("Profiler.stop")["profile"]
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    figures = {"steps": STEPS, "elapsed_s": round(elapsed, 1)}
    figures |= {name: round(metrics[name], 2) for name in METRICS}
    lines = [json.dumps(figures)] + [f"{s:8.2f} {name}" for s, name in heaviest(profile)]
    (artifacts / "profile-table.txt").write_text("\n".join(lines) + "\n")
    print(lines[0])
