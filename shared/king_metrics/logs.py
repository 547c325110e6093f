"""Log setup: readable lines in development, one JSON object per line in production.

``KING_LOG_FORMAT`` chooses ``text`` or ``json``; when it is unset, ``KING_ENV=production``
means JSON and anything else means text. ``KING_LOG_LEVEL`` sets the level (INFO). Fields
passed with ``extra=`` (the request log's method, path, status, duration_ms ...) become keys of
the JSON object, so a log pipeline can filter on them without parsing the message.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import Any

#: Attributes every LogRecord has; anything else on a record came from ``extra=``.
_STANDARD_ATTRS = frozenset(
    vars(logging.LogRecord("x", logging.INFO, "x", 0, "x", None, None)).keys()
) | {"message", "asctime", "taskName"}


def log_format() -> str:
    """``json`` or ``text``, from the environment."""
    chosen = os.environ.get("KING_LOG_FORMAT", "").strip().lower()
    if chosen in ("json", "text"):
        return chosen
    return "json" if os.environ.get("KING_ENV", "").strip().lower() == "production" else "text"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, service, message and the extras."""

    def __init__(self, service: str) -> None:
        super().__init__()
        self.service = service

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "service": self.service,
            "pid": record.process,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD_ATTRS and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """``12:00:01.234 INFO  king.request: GET /v1/rules 200 1.8ms``."""

    def __init__(self) -> None:
        super().__init__(
            "%(asctime)s.%(msecs)03d %(levelname)-5s %(name)s: %(message)s", "%H:%M:%S"
        )


def configure_logging(service: str, fmt: str | None = None, level: str | None = None) -> None:
    """Send the root logger's records to stderr in the chosen format (idempotent)."""
    root = logging.getLogger()
    chosen = fmt or log_format()
    for handler in root.handlers:
        if getattr(handler, "_king_logging", None) == chosen:
            return
    for handler in list(root.handlers):
        if getattr(handler, "_king_logging", None):
            root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(service) if chosen == "json" else TextFormatter())
    handler._king_logging = chosen  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel((level or os.environ.get("KING_LOG_LEVEL", "INFO")).upper())
