"""The game service does what its OpenAPI document says: schemathesis sends generated requests
(valid and invalid ones, and the document's examples) to every operation of the real app and
checks every answer against the document (status codes, content types, bodies, headers, which
operations need a token)."""

from __future__ import annotations

import uuid
from dataclasses import replace

import schemathesis
from conformance import conformance_failures

from king_game.app import create_app
from king_game.config import Settings

from .helpers import signup

#: Bounded so that CI stays short; every operation still gets valid and invalid requests.
MAX_EXAMPLES = 6
#: A valid sign-up hashes a password (Argon2, on purpose slow): fewer of those.
FEWER = {"POST /v1/accounts": 2, "POST /v1/tokens": 3}


def test_every_operation_answers_as_documented(settings: Settings, own_database: str) -> None:
    # An app with Redis keys of its own: the tables it opens stay out of other tests' lobby.
    own = replace(settings.match, key_prefix=f"oa{uuid.uuid4().hex[:8]}:")
    app = create_app(replace(settings, match=own, database_url=own_database))
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    bearer = signup(app.test_client())["headers"]
    failures = conformance_failures(
        schema,
        max_examples=MAX_EXAMPLES,
        headers=bearer,
        fewer=FEWER,
        last=("DELETE /v1/tokens/current",),  # it revokes the token the others send
    )
    assert not failures, "\n".join(failures)


def test_a_nul_in_a_name_is_a_422_not_a_server_error(settings: Settings) -> None:
    """Found by the run above: Postgres text cannot hold NUL."""
    client = create_app(settings).test_client()
    for path in ("/v1/accounts", "/v1/tokens"):
        answer = client.post(path, json={"name": "Ay\x00şe", "password": "correct horse"})
        assert answer.status_code == 422, path
        assert list(answer.get_json()["errors"]) == ["name"], path
