"""Swagger UI from the service itself, so that ``/docs`` works without the internet.

flask-smorest's page loads ``swagger-ui.css``, ``swagger-ui-bundle.js`` and
``swagger-ui-standalone-preset.js`` from ``OPENAPI_SWAGGER_UI_URL``. The files come from the
``swagger-ui-bundle-v2`` package (pinned in requirements.txt; the same files as the npm
``swagger-ui-dist`` of its version, which renders OpenAPI 3.1) and are served under ``URL``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from flask import Flask, Response, send_from_directory
from swagger_ui_bundle import swagger_ui_path

#: Where the files are served; give it to flask-smorest as ``OPENAPI_SWAGGER_UI_URL``.
URL: Final = "/docs/ui/"
#: The files the page needs (nothing else of the package is served).
FILES: Final = frozenset(
    {"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"}
)
_DIR: Final = Path(str(swagger_ui_path))


def register(app: Flask) -> None:
    """Serve Swagger UI's files at ``URL`` (a plain Flask route: no OpenAPI entry)."""

    def swagger_ui_file(filename: str) -> Response:
        if filename not in FILES:
            return Response("not found", status=404, content_type="text/plain")
        return send_from_directory(_DIR, filename, max_age=86400)

    app.add_url_rule(f"{URL}<path:filename>", "swagger_ui_file", swagger_ui_file)


__all__ = ["FILES", "URL", "register"]
