"""The clock sweeper: applies timeouts even when nobody is connected.

Every active match has its deadline in one sorted set (``<prefix>deadlines``). One sweeper at a
time holds a lease (a Redis key with a short expiry that the holder keeps renewing); it reads
the due entries a few times a second and runs each through the writer path
(``MatchStore.check_clock``), which re-checks the deadline against the stored record, so a
late or repeated sweep is harmless. Any number of sweeper processes can run: the others wait
and take over within one lease period when the holder dies. Reads and writes also apply due
timeouts themselves, so a client never sees a clock that has run out but not been applied.

While the game service is not serving (no fresh heartbeat from any of its workers, see
``serving``) the sweeper applies no timeout; when it serves again, every waiting match gets the
time it lost back (``MatchStore.give_back_lost_time``), so an outage costs no player their
clock.

The sweeper also re-delivers finished-match messages whose enqueue failed.
"""

from __future__ import annotations

import logging
import threading
import uuid
from typing import Final

from .serving import ServingWatch
from .store import MatchStore

log = logging.getLogger(__name__)

_RENEW: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Sweeper:
    def __init__(
        self,
        store: MatchStore,
        interval_s: float = 0.1,
        lease_ms: int = 3_000,
        pending_every_s: float = 2.0,
    ) -> None:
        self.store = store
        self.interval_s = interval_s
        self.lease_ms = lease_ms
        self.pending_every_s = pending_every_s
        self.owner = uuid.uuid4().hex
        self.lease_key = store.keys.sweeper_lease
        self.stopping = threading.Event()
        self._renew = store.redis.register_script(_RENEW)
        self._release = store.redis.register_script(_RELEASE)
        self.leader = False
        self.watch = ServingWatch(store.redis, store.keys)

    def acquire(self) -> bool:
        """Hold (or renew) the lease; True while this sweeper is the one that sweeps."""
        redis = self.store.redis
        if self.leader and int(
            self._renew(keys=[self.lease_key], args=[self.owner, self.lease_ms])
        ):
            return True
        self.leader = bool(redis.set(self.lease_key, self.owner, nx=True, px=self.lease_ms))
        return self.leader

    def release(self) -> None:
        self._release(keys=[self.lease_key], args=[self.owner])
        self.leader = False

    def sweep_once(self) -> int:
        """Apply every due timeout; returns how many matches changed. Nothing while the game
        service is not serving; when it serves again, first give every waiting match its
        lost time back."""
        seen = self.watch.check(self.store.now_ms())
        if not seen.serving:
            return 0
        if seen.resumed:
            self.give_back_all()
        changed = 0
        for match_id in self.store.due_matches():
            try:
                changed += self.store.check_clock(match_id)
            except Exception:
                log.exception("clock sweep of match %s failed", match_id)
        return changed

    def give_back_all(self) -> int:
        """After an outage: every waiting match's clock moves on by the time it lost."""
        given = 0
        for match_id in list(self.store.waiting_matches()):
            try:
                given += self.store.give_back_lost_time(match_id)
            except Exception:
                log.exception("giving match %s its lost time back failed", match_id)
        return given

    def run(self) -> None:
        """Sweep until ``stop()``; safe to run in several processes at once."""
        last_pending = 0.0
        try:
            while not self.stopping.is_set():
                try:
                    if self.acquire():
                        self.sweep_once()
                        now = self.store.clock()
                        if now - last_pending >= self.pending_every_s:
                            self.store.retry_pending_finished()
                            last_pending = now
                except Exception:
                    log.exception("clock sweeper round failed")
                    self.leader = False
                self.stopping.wait(self.interval_s)
        finally:
            if self.leader:
                try:
                    self.release()
                except Exception:
                    log.exception("could not release the sweeper lease")

    def stop(self) -> None:
        self.stopping.set()

    def start_thread(self) -> threading.Thread:
        thread = threading.Thread(target=self.run, name="king-clock-sweeper", daemon=True)
        thread.start()
        return thread
