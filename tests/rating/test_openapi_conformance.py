"""The rating service does what its OpenAPI document says: schemathesis sends generated requests
(valid and invalid ones, and the document's examples) to every operation of the real app, with
rated matches in its database, and checks every answer against the document."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import schemathesis
from conformance import conformance_failures

from king_rating.app import create_app
from king_rating.config import Settings
from king_rating.store import Store

from .conftest import MakeMatch

pytestmark = pytest.mark.integration

#: Bounded so that CI stays short; every operation still gets valid and invalid requests.
MAX_EXAMPLES = 6
# Inside ISO week 2026-W49 (Istanbul), the week the document's examples name.
MIDWEEK = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
#: The match the document's examples name.
EXAMPLE_MATCH = "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10"


def test_every_operation_answers_as_documented(
    store: Store, redis_url: str, make_match: MakeMatch
) -> None:
    players = ("ayse", "burak", "cem", "deniz")
    for i in range(16):  # established players on the ladder and the week's board
        ended = MIDWEEK - timedelta(hours=20) + timedelta(minutes=i)
        match_id = EXAMPLE_MATCH if i == 15 else None
        store.ingest(make_match(players, (1, 2, 3, 4), ended_at=ended, match_id=match_id))
    app = create_app(
        Settings(database_url="unused", redis_url=redis_url), store=store, clock=lambda: MIDWEEK
    )
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    failures = conformance_failures(schema, max_examples=MAX_EXAMPLES)
    assert not failures, "\n".join(failures)
