"""Rebuild a ``SeatView`` from its JSON form (``SeatView.to_dict()``, the API's view shape).

The round trip lives in the engine beside the view (``SeatView.from_dict``); this name stays
for programs that import it from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from king_engine import SeatView


def view_from_dict(data: Mapping[str, Any]) -> SeatView:
    """The ``SeatView`` whose ``to_dict()`` is ``data``."""
    return SeatView.from_dict(data)
