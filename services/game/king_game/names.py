"""Player names: one normal form, so that a name shows as what it is.

A name is Unicode NFC, trimmed, with a single space between words (any run of spaces,
including no-break and ideographic ones, becomes one). It may not contain control
characters (NUL, newlines, tabs), format characters (right-to-left overrides, zero-width
spaces and joiners, the byte-order mark), line or paragraph separators or surrogates: they
hide or disguise what a seat shows. Names compare
case-insensitively (Postgres ``lower(name)``, as the unique index of registered names does).
"""

from __future__ import annotations

import typing
import unicodedata
from typing import Any

import marshmallow as ma

#: Unicode general categories a name may not contain: controls, format (invisible and
#: direction) characters, surrogates, line and paragraph separators.
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})

#: The code points of those categories (Unicode 14.0, CPython 3.11), for the documented
#: pattern; ``tests/game/test_accounts.py`` checks them against ``unicodedata``.
REFUSED_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C),
    (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xD800, 0xDFFF),
    (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)  # fmt: skip

#: Longest name, as sent and once normalised.
MAX_NAME = 40


def _point(code: int) -> str:
    # A \u escape with four hex digits reads the same in Python's and ECMA-262's regular
    # expressions; a code point beyond the BMP is written as itself (one character to both
    # in Unicode mode).
    return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)


_SURROGATES = (0xD800, 0xDFFF)
# No JSON body we parse can hold a lone surrogate (orjson refuses them), and a surrogate
# range is not a valid class in every regular-expression engine (Rust's, for one).
_CLASS = "".join(
    _point(a) if a == b else f"{_point(a)}-{_point(b)}"
    for a, b in REFUSED_RANGES
    if (a, b) != _SURROGATES
)
#: The whole rule as the OpenAPI document's ``pattern``: no refused character, and at least
#: one that is not a space.
NAME_PATTERN = f"^[^{_CLASS}]*[^{_CLASS}\\s][^{_CLASS}]*$"


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
    """A name field, loaded in its normal form (``normalise_name``); validators see that.

    At most ``MAX_NAME`` characters as sent, too, so that the document's ``maxLength`` is
    the server's rule whatever the spaces the normal form drops."""

    def _deserialize(
        self, value: Any, attr: str | None, data: typing.Mapping[str, Any] | None, **kwargs: Any
    ) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > MAX_NAME:
            raise ma.ValidationError(f"at most {MAX_NAME} characters")
        try:
            name = normalise_name(text)
        except ValueError as exc:
            raise ma.ValidationError(str(exc)) from exc
        return name
