"""The ``ruleset`` query parameter of every rating, history, ladder and board read.

Every ruleset is rated apart; a read names the one it means (``standard`` when it names none).
A name that is not a rated ruleset is a 400 ``unknown_ruleset``, like an impossible week label,
rather than a field error: it names something that does not exist.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from king_message import DEFAULT_RULESET, RATED_RULESETS, is_rated_ruleset
from king_rating.problems import Problem
from king_rating.resources.paging import PageArgsSchema


class RulesetArgsSchema(ma.Schema):
    ruleset = ma.fields.String(
        load_default=DEFAULT_RULESET,
        metadata={
            "description": "the ruleset whose ratings are meant (each is rated apart); "
            "anything else is 400 unknown_ruleset",
            "enum": list(RATED_RULESETS),
            "example": DEFAULT_RULESET,
        },
    )

    @ma.post_load
    def _known(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if not is_rated_ruleset(data["ruleset"]):
            raise Problem(
                400,
                "unknown_ruleset",
                f"{data['ruleset']!r} is not a rated ruleset (one of {', '.join(RATED_RULESETS)})",
            )
        return data


class RulesetPageArgsSchema(PageArgsSchema, RulesetArgsSchema):
    """A page of one ruleset's list."""
