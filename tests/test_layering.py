"""Dependency levels, enforced by reading imports.

king_engine imports only the standard library; king_match only the engine, the standard library
and redis; services never import each other (they meet in shared/ and in queues).
"""

from __future__ import annotations

import ast
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


def test_engine_imports_only_the_standard_library() -> None:
    for path, names in imported_modules(ROOT / "shared" / "king_engine").items():
        outside = {n for n in names if n not in sys.stdlib_module_names and n != "king_engine"}
        assert not outside, f"{path} imports {sorted(outside)}"


def test_match_layer_imports_no_service() -> None:
    package = ROOT / "shared" / "king_match"
    if not package.exists():
        pytest.skip("no match layer yet")
    for path, names in imported_modules(package).items():
        assert not names & set(SERVICES), f"{path} imports a service"


@pytest.mark.parametrize("service", SERVICES)
def test_services_do_not_import_each_other(service: str) -> None:
    folder = {"king_game": "game", "king_rating": "rating", "king_bots": "bots"}[service]
    package = ROOT / "services" / folder / service
    if not package.exists():
        pytest.skip(f"{service} does not exist yet")
    others = set(SERVICES) - {service}
    for path, names in imported_modules(package).items():
        assert not names & others, f"{path} imports {sorted(names & others)}"
