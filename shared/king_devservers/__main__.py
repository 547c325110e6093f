"""The run command: ``python -m king_devservers`` (``make run``) starts the whole product.

    python -m king_devservers              # everything, in the foreground; Ctrl-C stops it
    python -m king_devservers --demo       # also play a demonstration match, then stop
    python -m king_devservers --demo --api http://127.0.0.1:8001   # demo against a running stack

With no configuration it starts local Redis and PostgreSQL (see ``king_devservers.stack``);
``REDIS_URL`` and ``DATABASE_URL`` point it at existing servers instead. Other settings:
``KING_GAME_PORT`` (8001), ``KING_RATING_PORT`` (8002), ``KING_BOT_WORKERS`` (2),
``KING_RATING_WORKERS`` (1), ``WEB_CONCURRENCY`` (2 gunicorn workers per service),
``KING_DATA_DIR`` (./var), ``KING_ENV=production`` or ``KING_LOG_FORMAT=json`` for JSON logs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from king_devservers.stack import Stack, StackSettings


def _banner(stack: Stack) -> None:
    lines = ["", "King is running:"]
    for name, url in stack.urls().items():
        lines.append(f"  {name:<15} {url}")
    if stack.backends is not None:
        lines.append(f"  {'redis':<15} {stack.backends.redis_url}")
    started = ", ".join(c.name for c in stack.started)
    lines.append(f"  started: {started}")
    if stack.missing:
        lines.append(
            "  not started (code not present yet): " + ", ".join(m.name for m in stack.missing)
        )
    lines += ["Press Ctrl-C to stop every process.", ""]
    for line in lines:
        stack.say(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m king_devservers", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--demo", action="store_true", help="play a demonstration match")
    parser.add_argument(
        "--api", help="with --demo: the game service to use instead of starting the stack"
    )
    parser.add_argument("--hands", type=int, default=8, help="with --demo: 8, 12 or 20 hands")
    parser.add_argument("--level", default="easy", help="with --demo: easy, medium or hard")
    parser.add_argument("--data-dir", type=Path, help="data folder (default ./var)")
    parser.add_argument("--bot-workers", type=int, help="bot worker processes")
    args = parser.parse_args(argv)

    settings = StackSettings.from_env()
    if args.data_dir:
        settings.data_dir = args.data_dir
    if args.bot_workers is not None:
        settings.bot_workers = args.bot_workers

    if args.demo:
        from king_devservers.demo import play_demo

        if args.api:
            return play_demo(args.api, hands=args.hands, level=args.level)
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        log_path = settings.data_dir / "demo-services.log"
        print(f"starting the product (its logs go to {log_path}) ...")
        with log_path.open("w", encoding="utf-8") as log, Stack(settings, out=log) as stack:
            _banner(stack)
            print("started: " + ", ".join(c.name for c in stack.started))
            return play_demo(settings.game_url, hands=args.hands, level=args.level)

    return Stack(settings).run_forever(on_ready=_banner)


if __name__ == "__main__":
    sys.exit(main())
