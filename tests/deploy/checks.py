"""Helpers for the deployment tests: load YAML, and check that a command runs real code."""

from __future__ import annotations

import importlib
import shlex
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from king_devservers.stack import module_exists, module_runnable

ROOT = Path(__file__).resolve().parents[2]
#: Where the image puts the repository's deploy/ folder.
IMAGE_ROOT = "/app/"


def load_yaml(path: Path) -> Any:
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def load_yaml_documents(path: Path) -> list[Any]:
    return [doc for doc in YAML(typ="safe", pure=True).load_all(path.read_text("utf-8")) if doc]


def split_command(command: Sequence[str] | str) -> Iterator[list[str]]:
    """The simple commands of ``command``, unwrapping ``sh -c "a && b"``."""
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if len(argv) >= 3 and argv[0] in ("sh", "bash", "/bin/sh") and argv[1] == "-c":
        for part in argv[2].split("&&"):
            yield from split_command(part.strip())
        return
    yield argv


def entry_points(argv: list[str]) -> list[str]:
    """The code a command needs: ``module`` for ``python -m``, ``module:obj`` for gunicorn."""
    if len(argv) < 3 or not argv[0].startswith("python") or argv[1] != "-m":
        return []
    module = argv[2]
    if module != "gunicorn":
        return [module]
    rest = argv[3:]
    needs = ["gunicorn"]
    skip_next = False
    positional = []
    for index, arg in enumerate(rest):
        if skip_next:
            skip_next = False
            continue
        if arg in ("--config", "-c", "--bind", "-b", "--workers", "-w"):
            skip_next = True
            if arg in ("--config", "-c"):
                needs.append("file:" + rest[index + 1])
            continue
        if not arg.startswith("-"):
            positional.append(arg)
    needs += [f"app:{app}" for app in positional]
    return needs


def problems_with(entry: str) -> str | None:
    """None when ``entry`` exists in the code; else what is wrong."""
    if entry.startswith("file:"):
        path = entry[len("file:") :]
        local = ROOT / path[len(IMAGE_ROOT) :] if path.startswith(IMAGE_ROOT) else ROOT / path
        return None if local.is_file() else f"config file {path} is not in the repository"
    if entry.startswith("app:"):
        module, _, call = entry[len("app:") :].partition(":")
        if not module_exists(module):
            return f"module {module} does not exist"
        name = call.removesuffix("()")
        obj = getattr(importlib.import_module(module), name, None)
        if obj is None or (call.endswith("()") and not callable(obj)):
            return f"{module} has no callable {name}"
        return None
    if entry == "gunicorn":
        return None if module_exists("gunicorn") else "gunicorn is not installed"
    return None if module_runnable(entry) else f"python -m {entry} has no __main__ to run"


def owner_missing(entry: str) -> str | None:
    """The module of ``entry`` when it does not exist at all (code built in parallel).

    A module that exists but cannot run, or an app factory that is not there, is a failure;
    only code that nobody has written yet is reported as missing.
    """
    if entry.startswith("file:"):
        # The game service's gunicorn settings belong to the game service's code.
        if entry.endswith("gunicorn_game.py") and not (ROOT / "deploy/gunicorn_game.py").is_file():
            return "deploy/gunicorn_game.py"
        return None
    target = entry[len("app:") :].split(":", 1)[0] if entry.startswith("app:") else entry
    return None if module_exists(target) else target
