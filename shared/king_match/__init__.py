"""The match layer shared by the services: the one writer path for matches in Redis.

* ``store.MatchStore`` — the front: tables, seats, moves, clocks and the event log, all written
  through one checked, version-guarded path (``writer``), by rules that need no Redis
  (``lifecycle``, ``seating``); its module docstring is the map of the rest;
* ``sweeper.Sweeper`` — the leased process that applies timeouts when nobody is connected;
* ``jobs`` — the jobs a change calls for (bot turns, finished matches), queue-library free; the
  finished-match message itself is ``king_message``'s;
* ``fairness`` — the KINGDEAL-v1 inputs and the transcript revealed at the end.

Dependencies: the standard library, ``redis``, ``king_engine`` and ``king_message``.
"""

from .errors import MatchError, RateLimited, StaleVersion
from .jobs import BOT_JOB_FUNCTION, BOTS_QUEUE, Enqueuer, JobSpec
from .record import MatchRecord, Seat
from .settings import ClockSettings, MatchSettings
from .store import MatchStore, MoveRate, MoveResult, Player, connect
from .sweeper import Sweeper

__all__ = [
    "BOTS_QUEUE",
    "BOT_JOB_FUNCTION",
    "ClockSettings",
    "Enqueuer",
    "JobSpec",
    "MatchError",
    "MatchRecord",
    "MatchSettings",
    "MatchStore",
    "MoveRate",
    "MoveResult",
    "Player",
    "RateLimited",
    "Seat",
    "StaleVersion",
    "Sweeper",
    "connect",
]
