"""Run-command and observability figures.

* ``deploy.metrics_overhead_us``: extra time per request that ``king_metrics.install`` adds
  (counter, histogram, one log line), measured in-process on a trivial Flask route;
* ``deploy.stack_start_s`` / ``deploy.stack_stop_s``: the run command's machinery starting the
  whole product (own Redis, a fresh Postgres database, migrations, both web services ready,
  workers, clock) and stopping every process;
* ``deploy.demo_match_s``: an 8-hand match against three easy bots through the HTTP API,
  deck verification included.
"""

from __future__ import annotations

import io
import logging
import tempfile
import time
from pathlib import Path


def _per_request_us(install: bool, requests: int) -> float:
    import king_metrics
    from flask import Flask

    app = Flask(f"bench_{install}")

    @app.get("/v1/things/<thing>")
    def thing(thing: str) -> dict[str, str]:
        return {"thing": thing}

    if install:
        king_metrics.install(app, service="bench", configure_logs=False)
    logging.getLogger("king.request").setLevel(logging.INFO)
    logging.getLogger("king.request").propagate = False
    logging.getLogger("king.request").addHandler(logging.StreamHandler(io.StringIO()))
    client = app.test_client()
    for _ in range(200):
        client.get("/v1/things/warm")
    started = time.perf_counter()
    for index in range(requests):
        client.get(f"/v1/things/{index}")
    return (time.perf_counter() - started) / requests * 1e6


def main(argv: list[str]) -> None:
    requests = 3000
    plain = min(_per_request_us(False, requests) for _ in range(3))
    measured = min(_per_request_us(True, requests) for _ in range(3))
    print(f"deploy.request_plain_us: {plain:.1f}")
    print(f"deploy.metrics_overhead_us: {measured - plain:.1f}")

    from king_devservers import free_port, local_postgres_database
    from king_devservers.demo import GameClient, play_computer_match
    from king_devservers.stack import Stack, StackSettings

    with (
        local_postgres_database(prefix="king_bench") as database_url,
        tempfile.TemporaryDirectory(prefix="king-bench-") as data_dir,
    ):
        settings = StackSettings(
            data_dir=Path(data_dir),
            game_port=free_port(),
            rating_port=free_port(),
            redis_port=free_port(),
            database_url=database_url,
            extra_env={"GAME_RATE_LIMITS": "off"},
        )
        stack = Stack(settings, out=io.StringIO())
        started = time.perf_counter()
        stack.start()
        try:
            print(f"deploy.stack_start_s: {time.perf_counter() - started:.2f}")
            client = GameClient(settings.game_url, name="bench").sign_up()
            started = time.perf_counter()
            play_computer_match(client, hands=8, level="easy", echo=lambda line: None)
            print(f"deploy.demo_match_s: {time.perf_counter() - started:.2f}")
        finally:
            started = time.perf_counter()
            stack.stop()
            print(f"deploy.stack_stop_s: {time.perf_counter() - started:.2f}")
        print(f"deploy.leftover_process_groups: {len(stack.leftover_pgids())}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
