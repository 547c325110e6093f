"""The example third-party bot's command line describes itself (``--help``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "third_party_bot.py"


def test_help_describes_every_option_with_its_default() -> None:
    shown = subprocess.run(
        [sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, check=True
    ).stdout
    usage, _, options = shown.partition("options:")
    offered = set(re.findall(r"\[(--[a-z-]+)", usage))
    assert len(offered) >= 10, usage
    # One entry per option: its line and the indented lines under it.
    entries = {}
    for entry in re.split(r"\n(?=  -)", options):
        words = entry.split()
        if words and words[0].startswith("--"):
            entries[words[0]] = words[1:]
    for option in offered:
        assert option in entries, f"{option} is not described"
        words = entries[option]
        if words and re.fullmatch(r"[A-Z_]+|\{[^}]*\}", words[0]):
            words = words[1:]  # the metavar or the choices
        text = " ".join(words)
        assert "(default:" in text, f"{option}: no default shown: {text!r}"
        assert len(text.split("(default:")[0].split()) >= 3, f"{option}: no help: {text!r}"
