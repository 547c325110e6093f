"""Player names: one normal form, so that a name shows as what it is.

A name is Unicode NFC, trimmed, with a single space between words (any run of spaces,
including no-break and ideographic ones, becomes one). It may not contain control
characters (NUL, newlines, tabs), format characters (right-to-left overrides, zero-width
spaces and joiners, the byte-order mark), line or paragraph separators, private-use,
surrogate or unassigned code points: they hide or disguise what a seat shows. Names compare
case-insensitively (Postgres ``lower(name)``, as the unique index of registered names does).
"""

from __future__ import annotations

import typing
import unicodedata
from typing import Any

import marshmallow as ma

#: Unicode general categories a name may not contain (see the module's docstring).
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

_SAFE = "0-9A-Za-z\u00c0-\u024f\u0400-\u04ff"
#: The pattern the API documents: a subset of what ``normalise_name`` takes (Latin, Turkish and
#: Cyrillic letters, digits, spaces and a little punctuation), since JSON Schema's regular
#: expressions cannot name Unicode categories. The field's description says the whole rule.
NAME_PATTERN = f"^[{_SAFE} ._'-]*[{_SAFE}][{_SAFE} ._'-]*$"


def normalise_name(raw: str) -> str:
    """The normal form of ``raw``; ``ValueError`` (with a message for people) when it has
    a refused character or nothing visible."""
    name = unicodedata.normalize("NFC", raw)
    for char in name:
        if unicodedata.category(char) in _REFUSED:
            raise ValueError(
                f"the name may not contain U+{ord(char):04X} "
                "(control, invisible or direction characters)"
            )
    # str.split() splits on every kind of space and drops the ends: trimmed, one space apart.
    name = " ".join(name.split())
    if not name:
        raise ValueError("the name needs a visible character")
    return name


class Name(ma.fields.String):
    """A name field, loaded in its normal form (``normalise_name``); validators see that."""

    def _deserialize(
        self, value: Any, attr: str | None, data: typing.Mapping[str, Any] | None, **kwargs: Any
    ) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            name = normalise_name(text)
        except ValueError as exc:
            raise ma.ValidationError(str(exc)) from exc
        return name
