"""The game service does what its OpenAPI document says: schemathesis sends generated requests
(valid and invalid ones, and the document's examples) to every operation of the real app and
checks every answer against the document (status codes, content types, bodies, headers, which
operations need a token)."""

from __future__ import annotations

import schemathesis
from conformance import conformance_failures
from flask import Flask

from .helpers import signup

#: Bounded so that CI stays short; every operation still gets valid and invalid requests.
MAX_EXAMPLES = 6
#: A valid sign-up hashes a password (Argon2, on purpose slow): fewer of those.
FEWER = {"POST /v1/accounts": 2, "POST /v1/tokens": 3}


def test_every_operation_answers_as_documented(app: Flask) -> None:
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    bearer = signup(app.test_client())["headers"]
    failures = conformance_failures(schema, max_examples=MAX_EXAMPLES, headers=bearer, fewer=FEWER)
    assert not failures, "\n".join(failures)
