"""Names with nothing visible, and names that look like a registered one (issue 42, item 8)."""

from __future__ import annotations

import re
import unicodedata
import uuid

import pytest

from king_game.names import MARK_RANGES, NAME_PATTERN, lookalike_key, normalise_name

pytestmark = pytest.mark.integration


def _unique(base: str) -> str:
    # (hex letters a-f only: no digit, so the suffix has no lookalike of its own)
    return base + "".join("abcdef"[int(c, 16) % 6] for c in uuid.uuid4().hex[:8])


def test_the_mark_ranges_are_the_marks_of_this_unicode_database():
    expected = [cp for cp in range(0x110000) if unicodedata.category(chr(cp)).startswith("M")]
    listed = [cp for first, last in MARK_RANGES for cp in range(first, last + 1)]
    assert listed == expected


@pytest.mark.parametrize(
    "raw", ["\u0301\u0301", " \u0301", "\u0301a", "  \u20dd x", "\u0903", "\x1f0", "\t a"]
)
def test_a_name_that_starts_with_a_mark_or_a_refused_space_is_refused_by_rule_and_pattern(raw):
    with pytest.raises(ValueError):
        normalise_name(raw)
    assert re.fullmatch(NAME_PATTERN, raw) is None


@pytest.mark.parametrize("raw", ["e\u0301", "Ayşe Öztürk", "a \u0301", " Işık "])
def test_a_mark_after_a_visible_character_is_kept(raw):
    normalise_name(raw)
    assert re.fullmatch(NAME_PATTERN, raw) is not None


def test_a_name_of_combining_marks_alone_is_a_validation_error(client):
    for body in ({"name": "\u0301\u0301"}, {"name": "\u0301\u0301", "password": "correct horse"}):
        response = client.post("/v1/accounts", json=body)
        assert response.status_code == 422, response.get_data(as_text=True)
        assert response.get_json()["code"] == "validation_failed"
        assert "name" in response.get_json()["errors"]


@pytest.mark.parametrize(
    ("registered", "lookalike"),
    [
        ("Kemal", "Kema\u217c"),  # U+217C SMALL ROMAN NUMERAL FIFTY for l (the audit's case)
        ("Kemal", "K\u0435mal"),  # Cyrillic е
        ("Ali", "AIi"),  # capital I for l
        ("Işık", "IŞIK"),  # Turkish case: ı is the small I
        ("Elif", "E1if"),  # 1 for l
        ("Emre", "Ernre"),  # rn for m
    ],
)
def test_a_guest_cannot_take_a_lookalike_of_a_registered_name(client, registered, lookalike):
    suffix = _unique("")
    name, guest = registered + suffix, lookalike + suffix
    assert lookalike_key(name) == lookalike_key(guest)
    created = client.post("/v1/accounts", json={"name": name, "password": "correct horse"})
    assert created.status_code == 201, created.get_json()
    refused = client.post("/v1/accounts", json={"name": guest})
    assert refused.status_code == 409, refused.get_data(as_text=True)
    assert refused.get_json()["code"] == "name_taken"
    # A registration that looks like it is refused too.
    again = client.post("/v1/accounts", json={"name": guest, "password": "other password"})
    assert again.status_code == 409 and again.get_json()["code"] == "name_taken"


def test_names_that_only_differ_visibly_are_not_lookalikes(client):
    suffix = _unique("")
    for first, second in [("Ayşe", "Ayse"), ("Ali", "Aii"), ("Emre", "Emra"), ("Dara", "Clara")]:
        assert lookalike_key(first + suffix) != lookalike_key(second + suffix)
    name = "Ayşe" + suffix
    assert client.post("/v1/accounts", json={"name": name, "password": "x" * 12}).status_code == 201
    guest = client.post("/v1/accounts", json={"name": "Ayse" + suffix})
    assert guest.status_code == 201, guest.get_json()
