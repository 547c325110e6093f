"""One table of error codes (``king_game.errorcodes``): every code raised anywhere below the
game service has an entry, and the OpenAPI document and docs/game-api.md say what it says."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, request
from flask.testing import FlaskClient
from flask.views import MethodView
from king_web.jsonbody import Blueprint
from king_web.wire import CODES_BY_STATUS

from king_engine import errors as engine_errors
from king_game import accounts
from king_game.app import create_app
from king_game.errorcodes import ERRORS, markdown_table
from king_game.problems import ProblemApi, problems
from king_match import errors as match_errors

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = {code for code, entry in ERRORS.items() if entry.sent_as is None}


def raised(pattern: str, *places: str) -> set[str]:
    """The codes passed as first argument to the calls ``pattern`` names, in these sources."""
    call = re.compile(rf"\b(?:{pattern})\(\s*\"(\w+)\"")
    found: set[str] = set()
    for place in places:
        path = ROOT / place
        for source in [path] if path.is_file() else sorted(path.rglob("*.py")):
            found |= set(call.findall(source.read_text()))
    return found


def test_each_layer_lists_the_codes_it_raises() -> None:
    engine = raised("BadInput|ConfigError|IllegalMove|KingError", "shared/king_engine")
    assert engine == set(engine_errors.CODES)
    match = raised(r"MatchError|super\(\).__init__", "shared/king_match")
    assert match == set(match_errors.CODES)
    account = raised("AccountError", "services/game/king_game/accounts.py")
    assert account == set(accounts.CODES)


def test_every_code_of_every_layer_is_in_the_table() -> None:
    for code in (*engine_errors.CODES, *match_errors.CODES, *accounts.CODES):
        assert code in ERRORS, code


def test_the_game_service_sends_only_codes_of_the_table() -> None:
    own = raised("Problem|MatchError|AccountError", "services/game/king_game")
    assert own - PUBLIC == set()
    for status, code in CODES_BY_STATUS.items():  # HTTP's own errors, from king_web
        assert ERRORS[code].status == status, code


def test_a_code_not_sent_under_its_name_has_the_status_of_the_one_sent() -> None:
    for code, entry in ERRORS.items():
        if entry.sent_as is not None:
            assert entry.sent_as in PUBLIC, code
            assert ERRORS[entry.sent_as].status == entry.status, code


def problem_responses(spec: dict[str, Any]) -> list[tuple[str, int, str, dict[str, Any]]]:
    """(operation, status, description, examples) of every response an operation documents
    with coded examples (problem bodies), whatever its media type."""
    found = []
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            for status, response in operation["responses"].items():
                for media, content in response.get("content", {}).items():
                    examples = content.get("examples", {})
                    if any("code" in example.get("value", {}) for example in examples.values()):
                        where = f"{method.upper()} {path}"
                        assert media == "application/problem+json", (where, status)
                        found.append((where, int(status), response["description"], examples))
    return found


def test_the_documented_codes_have_the_tables_status_and_words(client: FlaskClient) -> None:
    responses = problem_responses(client.get("/openapi.json").get_json())
    documented: set[str] = set()
    for operation, status, description, examples in responses:
        assert description.startswith("problem+json; code: "), operation
        listed = [part.split(":")[0].split()[0] for part in description[20:].split(", ")]
        assert listed == list(examples), (operation, status)
        for code, example in examples.items():
            where = f"{operation} {status}: {code}"
            assert ERRORS[code].sent_as is None and ERRORS[code].status == status, where
            assert example["description"] == ERRORS[code].when, where
            assert example["value"]["code"] == code and example["value"]["status"] == status
        documented |= set(examples)
    assert len(responses) > 40
    assert {"not_your_turn", "illegal_card", "stale_version", "name_taken"} <= documented


def test_the_move_documents_its_409_and_422_codes_as_the_table_sorts_them(
    client: FlaskClient,
) -> None:
    from king_game.resources.matches.resources import MOVE_ERRORS

    moves = [code.split()[0] for code in MOVE_ERRORS]
    responses = {
        status: list(examples)
        for operation, status, _, examples in problem_responses(
            client.get("/openapi.json").get_json()
        )
        if operation == "POST /v1/matches/{match_id}/moves"
    }
    assert responses[409] == [code for code in moves if ERRORS[code].status == 409]
    assert responses[422] == [code for code in moves if ERRORS[code].status == 422]
    assert len(responses[409]) >= 6 and len(responses[422]) >= 10


def documented_by_status(*codes: str) -> dict[int, list[str]]:
    """The codes a view decorated with ``@problems(blp, *codes)`` documents, by status: in
    the OpenAPI document of a small app of its own."""
    app = Flask(__name__)
    app.config.update(API_TITLE="t", API_VERSION="1", OPENAPI_VERSION="3.1.0")
    api = ProblemApi(app)
    blp = Blueprint("probe", __name__)

    @blp.route("/probe")
    class Probe(MethodView):
        @blp.response(204)
        @problems(blp, *codes)
        def post(self) -> None:
            pass

    api.register_blueprint(blp)
    operation = api.spec.to_dict()["paths"]["/probe"]["post"]
    return {
        int(status): list(response["content"]["application/problem+json"]["examples"])
        for status, response in operation["responses"].items()
        if "content" in response and int(status) >= 400
    }


def test_moving_a_code_to_another_status_in_the_table_moves_its_documentation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    codes = ("not_your_turn", "stale_version (current_version)", "illegal_card")
    assert documented_by_status(*codes) == {
        409: ["not_your_turn", "stale_version"],
        422: ["illegal_card"],
    }
    monkeypatch.setitem(ERRORS, "not_your_turn", replace(ERRORS["not_your_turn"], status=422))
    assert documented_by_status(*codes) == {
        409: ["stale_version"],
        422: ["not_your_turn", "illegal_card"],
    }


def test_a_view_documents_only_codes_of_the_table_a_client_gets() -> None:
    with pytest.raises(KeyError):
        documented_by_status("not_a_code")
    with pytest.raises(ValueError, match="not_found"):
        documented_by_status("match_not_found")


def test_a_view_documents_its_codes_in_one_call() -> None:
    blp = Blueprint("twice", __name__)
    with pytest.raises(ValueError, match="one @problems"):

        @problems(blp, "not_your_turn")
        @blp.response(204)
        @problems(blp, "stale_version")
        def post() -> None:
            pass


def test_the_error_table_of_the_docs_is_the_tables() -> None:
    text = (ROOT / "docs/game-api.md").read_text()
    found = re.search(
        r"<!-- generated from services/game/king_game/errorcodes.py[^>]*-->\n(.*?)"
        r"<!-- end of the generated table -->",
        text,
        re.S,
    )
    assert found, "docs/game-api.md lost the markers of its error table"
    assert found[1] == markdown_table(), (
        "docs/game-api.md's error table is not king_game.errorcodes': replace it with the "
        "output of `python -m king_game.errorcodes`"
    )


@pytest.fixture(scope="module")
def raising(settings: Any) -> FlaskClient:
    """The app, with one more route that raises the coded error its query names."""
    app = create_app(settings)
    families = {
        "engine": engine_errors.KingError,
        "match": match_errors.MatchError,
        "account": accounts.AccountError,
    }

    def raise_it() -> None:
        raise families[request.args["family"]](request.args["code"], "as asked", turn=2)

    app.add_url_rule("/raise", view_func=raise_it)
    return app.test_client()


@pytest.mark.parametrize("family", ["engine", "match", "account"])
@pytest.mark.parametrize("code", [*sorted(ERRORS), "not_in_the_table"])
def test_every_coded_error_is_answered_with_its_tables_status(
    raising: FlaskClient, family: str, code: str
) -> None:
    answer = raising.get("/raise", query_string={"family": family, "code": code})
    body = answer.get_json()
    entry = ERRORS.get(code, ERRORS["bad_state"])  # a code not in the table: a bug
    assert answer.status_code == body["status"] == entry.status
    assert body["code"] == (entry.sent_as or code)
    assert answer.mimetype == "application/problem+json"
    if entry.sent_as is None:
        assert body["details"]["turn"] == 2


def test_every_status_the_docs_give_a_code_is_the_tables() -> None:
    """The prose names codes with their statuses too ("`409 table_found`"): the same ones."""
    mention = re.compile(r"\b([45]\d\d)`?\s+`?([a-z][a-z_]+)`?")
    found = 0
    for doc in ("docs/game-api.md", "README.md"):
        for status, code in mention.findall((ROOT / doc).read_text()):
            if code in ERRORS:
                found += 1
                assert ERRORS[code].status == int(status), f"{doc}: {status} {code}"
    assert found > 15
