"""The run command: ``python -m king_devservers`` (``make run``) starts the whole product.

    python -m king_devservers              # everything, in the foreground; Ctrl-C stops it
    python -m king_devservers --demo       # a demonstration match: on the stack running on
                                           # this data folder, else on a stack of its own
    python -m king_devservers --demo --api http://127.0.0.1:8001   # demo against a running stack

With no configuration it starts local Redis and PostgreSQL (see ``king_devservers.stack``);
``REDIS_URL`` and ``DATABASE_URL`` point it at existing servers instead; ``QUEUE_REDIS_URL``
puts the RQ queues on another Redis (by default they share the match Redis). Other settings:
``KING_GAME_PORT`` (8001), ``KING_RATING_PORT`` (8002), ``KING_BOT_WORKERS`` (2),
``KING_RATING_WORKERS`` (1), ``WEB_CONCURRENCY`` (2 gunicorn workers per service),
``KING_DATA_DIR`` (./var), ``KING_ENV=production`` or ``KING_LOG_FORMAT=json`` for JSON logs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from king_devservers.stack import (
    Stack,
    StackError,
    StackSettings,
    busy_ports,
    running_stack_state,
)


def _banner(stack: Stack) -> None:
    lines = ["", "King is running:"]
    for name, url in stack.urls().items():
        lines.append(f"  {name:<15} {url}")
    if stack.backends is not None:
        lines.append(f"  {'redis':<15} {stack.backends.redis_url}")
        if stack.backends.queue_url != stack.backends.redis_url:
            lines.append(f"  {'queue redis':<15} {stack.backends.queue_url}")
    started = ", ".join(c.name for c in stack.started)
    lines.append(f"  started: {started}")
    if stack.missing:
        lines.append(
            "  not started (code not present yet): " + ", ".join(m.name for m in stack.missing)
        )
    lines += ["Press Ctrl-C to stop every process.", ""]
    for line in lines:
        stack.say(line)


def _running_game_url(settings: StackSettings, wait: float = 120.0) -> str | None:
    """The game service of the stack that runs on this data folder (waiting while it
    starts), or None when none runs there."""
    deadline = time.monotonic() + wait
    while True:
        state = running_stack_state(settings.data_dir)
        if state is None:
            return None
        if state["ready"] and state.get("game_url"):
            return str(state["game_url"])
        if time.monotonic() > deadline:
            raise StackError(f"the stack on {settings.data_dir} did not get ready in {wait} s")
        time.sleep(0.5)


def _demo(settings: StackSettings, api: str | None, **match: Any) -> int:
    """Play the demonstration on ``api``, else on the running stack, else on a stack of its
    own; never beside another stack (its ports and data folder are its own)."""
    from king_devservers.demo import play_demo

    if api:
        return play_demo(api, **match)
    try:
        running = _running_game_url(settings)
    except StackError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if running is not None:
        print(f"using the stack running on {settings.data_dir}: {running}")
        return play_demo(running, **match)
    busy = busy_ports(settings)
    if busy:
        print(
            f"port {', '.join(map(str, busy))} is in use, but no stack runs on the data folder "
            f"{settings.data_dir}. If a King stack runs elsewhere, play on it with "
            f'make demo ARGS="--api {settings.game_url}"; else free the port or choose '
            "KING_GAME_PORT / KING_RATING_PORT.",
            file=sys.stderr,
        )
        return 2
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    log_path = settings.data_dir / "demo-services.log"
    print(f"no stack runs: starting one for the demo (its logs go to {log_path}) ...")
    try:
        with log_path.open("w", encoding="utf-8") as log, Stack(settings, out=log) as stack:
            _banner(stack)
            print("started: " + ", ".join(c.name for c in stack.started))
            return play_demo(settings.game_url, **match)
    except StackError as exc:
        print(f"could not start the stack: {exc}", file=sys.stderr)
        return 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m king_devservers", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--demo", action="store_true", help="play a demonstration match")
    parser.add_argument(
        "--api", help="with --demo: the game service to use instead of starting the stack"
    )
    parser.add_argument(
        "--hands", type=int, help="with --demo: the match length (default: the ruleset's first)"
    )
    parser.add_argument("--level", default="easy", help="with --demo: easy, medium or hard")
    parser.add_argument(
        "--ruleset",
        default="standard",
        help="with --demo: standard, classic20, traditional, konturlu or international",
    )
    parser.add_argument(
        "--option", action="append", default=[], help="with --demo: a table option, deck=32"
    )
    parser.add_argument("--data-dir", type=Path, help="data folder (default ./var)")
    parser.add_argument("--bot-workers", type=int, help="bot worker processes")
    args = parser.parse_args(argv)

    settings = StackSettings.from_env()
    if args.data_dir:
        settings.data_dir = args.data_dir
    if args.bot_workers is not None:
        settings.bot_workers = args.bot_workers

    if args.demo:
        options = {}
        for item in args.option:
            name, _, value = item.partition("=")
            options[name] = int(value) if value.isdigit() else value
        return _demo(
            settings,
            args.api,
            hands=args.hands,
            level=args.level,
            ruleset=args.ruleset,
            options=options or None,
        )

    return Stack(settings).run_forever(on_ready=_banner)


if __name__ == "__main__":
    sys.exit(main())
