"""Helpers for the end-to-end tests: run the run command, read its output, find leftovers."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[2]


class RunCommand:
    """``python -m king_devservers`` in a subprocess, its output collected line by line."""

    def __init__(self, env: Mapping[str, str], args: tuple[str, ...] = ()) -> None:
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "king_devservers", *args],
            env={**os.environ, **env},
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.descendants: dict[int, psutil.Process] = {}
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.append(line.rstrip("\n"))

    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for_line(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in line for line in self.lines):
                return
            if self.popen.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"never printed {text!r}:\n{self.output()[-6000:]}")

    def remember_descendants(self) -> None:
        """Note every process below the runner now, to check later that all are gone."""
        for child in psutil.Process(self.popen.pid).children(recursive=True):
            self.descendants[child.pid] = child

    def alive_descendants(self) -> list[str]:
        alive = []
        for child in self.descendants.values():
            try:
                if child.is_running() and child.status() != psutil.STATUS_ZOMBIE:
                    alive.append(f"{child.pid} {' '.join(child.cmdline())[:120]}")
            except psutil.NoSuchProcess:
                continue
        return alive

    def kill_everything(self) -> None:
        """Last resort for a failed test: leave nothing behind on the shared machine."""
        self.remember_descendants() if self.popen.poll() is None else None
        for child in self.descendants.values():
            try:
                child.kill()
            except psutil.NoSuchProcess:
                continue
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait()
