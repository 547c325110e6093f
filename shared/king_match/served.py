"""The rulesets the platform offers. The engine knows more systems than the product plays end
to end: a ruleset is served once the API, the bots and the web client all play it, and only
served rulesets can be chosen for a table, a quick match or the arena."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from king_engine import RULESETS, Ruleset
from king_engine.errors import ConfigError

SERVED_RULESETS: Final[Mapping[str, Ruleset]] = MappingProxyType(
    {
        name: RULESETS[name]
        for name in ("standard", "classic20", "traditional", "konturlu", "international")
    }
)


def served_ruleset(name: str, preview: tuple[str, ...] = ()) -> Ruleset:
    """The served ruleset called ``name`` (or one of the engine's rulesets named in
    ``preview``, ``MatchSettings.preview_rulesets``); ``ConfigError("unknown_ruleset")``
    otherwise."""
    ruleset = SERVED_RULESETS.get(name) if isinstance(name, str) else None
    if ruleset is None and isinstance(name, str) and name in preview:
        ruleset = RULESETS.get(name)
    if ruleset is None:
        raise ConfigError(
            "unknown_ruleset",
            f"{name!r} is not a ruleset this platform offers (one of {', '.join(SERVED_RULESETS)})",
            allowed=list(SERVED_RULESETS),
        )
    return ruleset
