"""Query strings: only the documented parameters, each at most once.

webargs reads the query parameters a view's schema names and ignores the rest, and it takes the
first value of a repeated one: ``/ladder?ruleset=standard&ruleset=poker`` read ``standard``
and answered 200, and a misspelt ``?rulset=poker`` answered the default ruleset's board. A
client that sends what the service does not read must be told, so ``install`` refuses, for
every operation of the OpenAPI document, a query parameter the operation does not document,
and any parameter given more than once (none of ours is a list): 422 ``validation_failed``
whose ``errors`` name the parameter, before the view runs, so nothing changes.

The documented parameters are read from the service's own OpenAPI document (built once, on the
first request), so the rule and the document cannot disagree. Routes outside the document
(the web client's files, ``/docs``) are left alone.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, request
from webargs.flaskparser import abort

#: Methods whose operation is documented under another name (HEAD is answered by GET).
_DOCUMENTED_AS = {"HEAD": "get"}
#: A Flask rule's variable (``<match_id>``, ``<string:week>``), written ``{name}`` in the
#: document's paths, as flask-smorest writes it.
_VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


class _Allowed:
    """The query parameter names of each documented (rule, method): None for routes the
    document does not have."""

    def __init__(self, api: Any) -> None:
        self.api = api
        self._paths: dict[str, Any] | None = None
        self._by_rule: dict[tuple[str, str], frozenset[str] | None] = {}

    def of(self, rule: str, method: str) -> frozenset[str] | None:
        key = (rule, method)
        if key not in self._by_rule:
            self._by_rule[key] = self._documented(rule, method)
        return self._by_rule[key]

    def _documented(self, rule: str, method: str) -> frozenset[str] | None:
        if self._paths is None:  # (the whole document is built once)
            self._paths = self.api.spec.to_dict().get("paths", {})
        item = self._paths.get(_VARIABLE.sub(r"{\1}", rule))
        if item is None:
            return None
        operation = item.get(_DOCUMENTED_AS.get(method, method.lower()))
        if operation is None:
            return None
        parameters = [*item.get("parameters", ()), *operation.get("parameters", ())]
        return frozenset(p["name"] for p in parameters if p.get("in") == "query")


def install(app: Flask, api: Any) -> None:
    """Refuse undocumented and repeated query parameters on ``api``'s documented operations
    (``api``: the app's flask-smorest ``Api``, its blueprints registered)."""
    allowed = _Allowed(api)

    @app.before_request
    def _documented_query_only() -> None:
        if not request.args or request.url_rule is None:
            return
        names = allowed.of(request.url_rule.rule, request.method)
        if names is None:
            return
        errors: dict[str, list[str]] = {}
        for name in request.args:
            if name not in names:
                errors[name] = ["unknown query parameter"]
            elif len(request.args.getlist(name)) > 1:
                errors[name] = ["given more than once"]
        if errors:
            abort(
                422,
                message="the request did not pass validation; see errors",
                errors={"query": errors},
            )
