"""Run the rating service: apply migrations, then serve the API with gunicorn.

``python -m king_rating.run [--bind 127.0.0.1:8002] [--workers 2] [--with-worker]``

``--with-worker`` also starts one RQ worker process next to the web server (handy on a
developer machine; in deployment workers run as their own processes:
``python -m king_rating.worker``).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys

from king_rating.config import Settings
from king_rating.migrate import migrate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m king_rating.run", description=__doc__)
    parser.add_argument("--bind", default=os.environ.get("RATING_BIND", "127.0.0.1:8002"))
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", 2)))
    parser.add_argument("--with-worker", action="store_true")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    applied = migrate(settings.database_url)
    print("migrations applied: " + (", ".join(applied) if applied else "none (up to date)"))
    children = []
    if args.with_worker:
        children.append(subprocess.Popen([sys.executable, "-m", "king_rating.worker"]))
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            args.bind,
            "--workers",
            str(args.workers),
            # The deployed worker (deploy/gunicorn_rating.py): a greenlet per connection, so
            # slow or idle clients cannot take every thread; read deadlines on each request.
            "--worker-class",
            "king_web.gworker.ServiceWorker",
            "king_rating.app:create_app()",
        ]
    )
    children.append(server)

    def stop(signum: int, _frame: object) -> None:
        # Pass the stop on, so no server or worker outlives the command.
        for child in children:
            if child.poll() is None:
                child.send_signal(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    code = server.wait()
    for child in children:
        if child.poll() is None:
            child.terminate()
        child.wait()
    return code


if __name__ == "__main__":
    sys.exit(main())
