"""Dependency levels, enforced by reading imports.

king_message (the finished-match message) imports only the standard library; king_engine only
the standard library and king_message; king_match only those, the standard library and redis;
services never import each other (they meet in shared/ and in queues). The rating service reads
the message without loading the match layer or the engine. Inside the match layer, the rules
(lifecycle, seating) reach no Redis, and only keys.py spells a key.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICES = ("king_game", "king_rating", "king_bots")


def imported_modules(package_dir: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in package_dir.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_message_imports_only_the_standard_library() -> None:
    for path, names in imported_modules(ROOT / "shared" / "king_message").items():
        outside = {n for n in names if n not in sys.stdlib_module_names and n != "king_message"}
        assert not outside, f"{path} imports {sorted(outside)}"


def test_engine_imports_only_the_standard_library() -> None:
    # king_message is standard library only too: the engine takes the winners rule from there.
    allowed = {"king_engine", "king_message"}
    for path, names in imported_modules(ROOT / "shared" / "king_engine").items():
        outside = {n for n in names if n not in sys.stdlib_module_names and n not in allowed}
        assert not outside, f"{path} imports {sorted(outside)}"


def test_the_rating_service_loads_neither_the_match_layer_nor_the_engine() -> None:
    # Imported for real in a fresh interpreter: what a module pulls in through other modules
    # counts too, which reading its import lines cannot see. redis is allowed: the rating
    # worker takes its jobs from RQ itself.
    modules = ["king_rating.app", "king_rating.jobs", "king_rating.store", "king_rating.worker"]
    script = (
        "import json, sys\n"
        + "".join(f"import {name}\n" for name in modules)
        + "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    loaded = set(json.loads(done.stdout))
    assert not loaded & {"king_match", "king_engine"}
    assert "king_message" in loaded


def test_match_layer_imports_no_service() -> None:
    package = ROOT / "shared" / "king_match"
    assert package.is_dir(), "shared/king_match is missing"
    for path, names in imported_modules(package).items():
        assert not names & set(SERVICES), f"{path} imports a service"


@pytest.mark.parametrize("service", SERVICES)
def test_services_do_not_import_each_other(service: str) -> None:
    folder = {"king_game": "game", "king_rating": "rating", "king_bots": "bots"}[service]
    package = ROOT / "services" / folder / service
    assert package.is_dir(), f"{service} is missing"
    others = set(SERVICES) - {service}
    for path, names in imported_modules(package).items():
        assert not names & others, f"{path} imports {sorted(names & others)}"


#: The match layer's rules: pure, testable without Redis (tests/match/test_lifecycle.py).
PURE_MATCH_MODULES = ("lifecycle", "seating", "record", "fairness", "jobs", "settings", "errors")


def test_the_rules_of_a_match_need_no_redis() -> None:
    """What the rules import, followed through the match layer's own modules (the package's
    ``__init__`` aside, which gathers the whole layer): no redis, no module that talks to it."""
    package = ROOT / "shared" / "king_match"
    seen: set[str] = set()
    outside: set[str] = set()
    todo = list(PURE_MATCH_MODULES)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in ast.walk(ast.parse((package / f"{name}.py").read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    todo.append(node.module.split(".")[0])
                else:
                    todo.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                outside.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                outside.update(alias.name.split(".")[0] for alias in node.names)
    assert "redis" not in outside
    assert not seen & {"store", "writer", "reads", "commit", "notify", "quickmatch", "serving"}
    assert outside - set(sys.stdlib_module_names) <= {"king_engine", "king_message", "orjson"}


def test_match_layer_key_names_are_built_in_one_module() -> None:
    """Only keys.py spells a Redis key of the match layer (an f-string on the prefix)."""
    for path in sorted((ROOT / "shared" / "king_match").glob("*.py")):
        if path.name == "keys.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr) and node.values:
                head = node.values[0]
                spelled = isinstance(head, ast.FormattedValue) and "prefix" in ast.unparse(head)
                assert not spelled, f"{path.name}:{node.lineno} builds a key: {ast.unparse(node)}"


def _engine_private_names() -> set[str]:
    """Every underscore name the engine defines: module globals, functions, classes, methods,
    class attributes and slots (dunder names are Python's, not the engine's)."""
    names: set[str] = set()
    for path in (ROOT / "shared" / "king_engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.add(node.value)  # __slots__ entries
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _outside_engine_sources() -> list[Path]:
    skip = (ROOT / "shared" / "king_engine", ROOT / "tests" / "engine")
    found = []
    for top in ("shared", "services", "benchmarks", "examples", "tests"):
        for path in (ROOT / top).rglob("*.py"):
            if not any(path.is_relative_to(s) for s in skip) and "build" not in path.parts:
                found.append(path)
    return found


def engine_private_uses(path: Path, private: set[str]) -> list[str]:
    """``x._name`` (``getattr(x, "_name")``) for an underscore name the engine defines, and
    imports of underscore names from king_engine. ``self``/``cls``/``super()`` reach the
    file's own classes, not the engine's."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    uses = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            if parts[0] == "king_engine":
                bad = [p for p in parts[1:] if p.startswith("_")]
                bad += [a.name for a in node.names if a.name.startswith("_")]
                uses += [f"{node.lineno}: from {node.module} import {b}" for b in bad]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "king_engine" and any(p.startswith("_") for p in parts[1:]):
                    uses.append(f"{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.Attribute) and node.attr in private:
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and getattr(owner.func, "id", None) == "super":
                continue
            uses.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in private
        ):
            uses.append(f"{node.lineno}: {ast.unparse(node)}")
    return uses


def test_no_code_outside_the_engine_touches_its_private_members() -> None:
    # The engine's tests (tests/engine) may test its insides; nothing else may lean on them.
    private = _engine_private_names()
    assert {"_replay", "_finish_hand", "_blank"} <= private  # the scan sees the engine's names
    found = {}
    for path in _outside_engine_sources():
        uses = engine_private_uses(path, private)
        if uses:
            found[str(path.relative_to(ROOT))] = uses
    assert not found, f"code outside king_engine uses its private names: {found}"
