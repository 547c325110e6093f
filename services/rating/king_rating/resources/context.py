"""Access to the per-app store and clock from views."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from flask import current_app
from redis import Redis

from king_rating.store import Store


@dataclass
class RatingContext:
    store: Store
    redis: Redis
    clock: Callable[[], datetime]


def ctx() -> RatingContext:
    context: RatingContext = current_app.extensions["king_rating"]
    return context


def now() -> datetime:
    return ctx().clock()
