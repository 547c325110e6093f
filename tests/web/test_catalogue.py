"""The client's label catalogues: each area's strings-*.js module adds labels of its own and
never redefines one of i18n.js's (the merge would silently override it)."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "services/game/king_game/web/static"


def labels(path: Path) -> dict[str, set[str]]:
    """The keys of each language block (``en: {`` / ``tr: {``) of a catalogue file."""
    found: dict[str, set[str]] = {}
    current = None
    for line in path.read_text(encoding="utf-8").splitlines():
        block = re.match(r"\s*(en|tr): \{", line)
        if block:
            current = found.setdefault(block.group(1), set())
            continue
        key = re.match(r"\s{4}([a-z][a-z0-9_]*): ", line)
        if current is not None and key:
            current.add(key.group(1))
    return found


def test_area_catalogues_add_labels_and_redefine_none() -> None:
    base = labels(STATIC / "i18n.js")
    areas = {path.name: labels(path) for path in sorted(STATIC.glob("strings-*.js"))}
    assert base.get("en") and base.get("tr")
    seen: dict[str, str] = {}
    for name, catalogue in areas.items():
        for language, keys in catalogue.items():
            clash = keys & base.get(language, set())
            assert not clash, f"{name} redefines i18n.js labels: {sorted(clash)}"
            for key in keys:
                other = seen.setdefault(f"{language}:{key}", name)
                assert other == name, f"{key} is in both {other} and {name}"
        assert catalogue.get("en", set()) == catalogue.get("tr", set()), f"{name}: en != tr"
