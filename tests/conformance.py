"""Schemathesis against one of our apps: generated requests to every operation of its OpenAPI
document, each answer checked against the document. Shared by the game and rating tests."""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode


def conformance_failures(
    schema: Any,
    *,
    max_examples: int,
    headers: dict[str, str] | None = None,
    fewer: dict[str, int] | None = None,
    last: tuple[str, ...] = (),
) -> list[str]:
    """Every disagreement between the app and its document, one line each (empty: none).

    Each operation gets the document's own examples, then ``max_examples`` valid and as many
    invalid generated requests (``fewer`` lowers that for expensive operations, by label);
    the operations named in ``last`` run after all others.
    Hypothesis does not shrink (a bounded run, and the failing request is reported whole).
    """
    failures: list[str] = []
    found = [result.ok() for result in schema.get_all_operations()]
    # ``last`` ones at the end: e.g. revoking the token the others send.
    for operation in sorted(found, key=lambda op: op.label in last):
        label = operation.label
        budget = (fewer or {}).get(label, max_examples)
        strategies = list(schema.get_strategies_from_examples(operation))
        modes = list(GenerationMode) if _negatable(schema.raw_schema, operation) else []
        strategies += [
            operation.as_strategy(generation_mode=mode)
            for mode in modes or [GenerationMode.POSITIVE]
        ]
        for strategy in strategies:
            failure = _first_failure(strategy, budget, headers)
            if failure is not None:
                failures.append(f"{label}: {failure}")
                break
    return failures


def _negatable(document: dict[str, Any], operation: Any) -> bool:
    """Whether an invalid request exists: a body, a query or header parameter, or a path
    parameter with a constraint (any text is a valid plain path parameter, and hypothesis would
    spend seconds finding that out)."""
    item = document["paths"][operation.path]
    spec = item[operation.method.lower()]
    parameters = item.get("parameters", []) + spec.get("parameters", [])
    return "requestBody" in spec or any(
        p["in"] != "path" or set(p.get("schema", {})) - {"type"} for p in parameters
    )


def _first_failure(strategy: Any, budget: int, headers: dict[str, str] | None) -> str | None:
    found: list[str] = []

    @given(strategy)
    @settings(
        max_examples=budget,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def check(case: schemathesis.Case) -> None:
        if found:
            return
        try:
            case.call_and_validate(headers=headers)
        except (Exception, BaseExceptionGroup) as exc:  # failed checks: keep the first
            found.append(f"{exc}\n    request: {case.as_curl_command()}")

    try:
        check()
    except Unsatisfiable:  # nothing to generate: e.g. no invalid request exists
        return None
    return found[0] if found else None


def example_gaps(document: dict[str, Any]) -> list[str]:
    """Every request body, parameter and response body of the document without an example, and
    every example that does not fit its own schema, one line each (empty: none)."""
    from jsonschema import Draft202012Validator

    components = document.get("components", {})

    def unfit(value: Any, schema: dict[str, Any]) -> str | None:
        validator = Draft202012Validator({"components": components, **schema})
        error = next(iter(validator.iter_errors(value)), None)
        return None if error is None else error.message[:200]

    def media_gaps(where: str, content: dict[str, Any]) -> list[str]:
        gaps = []
        for media_type, media in content.items():
            values = [e["value"] for e in media.get("examples", {}).values()]
            if "example" in media:
                values.append(media["example"])
            if not values:
                gaps.append(f"{where} {media_type}: no example")
            for value in values:
                problem = unfit(value, media.get("schema", {}))
                if problem:
                    gaps.append(f"{where} {media_type}: example does not fit: {problem}")
        return gaps

    gaps: list[str] = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            label = f"{method.upper()} {path}"
            for parameter in item.get("parameters", []) + operation.get("parameters", []):
                schema = parameter.get("schema", {})
                value = parameter.get("example", schema.get("example"))
                if value is None:
                    gaps.append(f"{label} parameter {parameter['name']}: no example")
                elif unfit(value, schema):
                    gaps.append(f"{label} parameter {parameter['name']}: example does not fit")
            body = operation.get("requestBody")
            if body is not None:
                gaps += media_gaps(f"{label} request", body["content"])
            for status, response in operation["responses"].items():
                if "$ref" in response:
                    response = components["responses"][response["$ref"].rsplit("/", 1)[1]]
                gaps += media_gaps(f"{label} {status}", response.get("content", {}))
    return gaps
