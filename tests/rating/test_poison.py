"""The ratings worker and a bad message, a crash, an idle queue (issue 42, items 1 and 7).

On real Redis and Postgres, with jobs enqueued as producers enqueue them:

* a message that fails (its validation, or anything raised while applying it) is parked in the
  failed-job registry and the rest of its batch is archived and rated; the worker goes on;
* a worker that stops on any error leaves no job claimed, and a worker that vanished (its
  in-flight list left behind, whatever happened to its entry in the workers set) has its jobs
  requeued by the next worker;
* a batch's outcomes (job status, failed registry, in-flight list) are written as soon as the
  batch is done, not when the next job arrives.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from rq import Queue
from rq.job import Job
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from king_message import INGEST_JOB_FUNCTION, job_id_for
from king_message import finished_match as fm
from king_rating.batchworker import BatchWorker
from king_rating.store import Store

from .conftest import MIDWEEK, build_match, enqueue, matches, query

pytestmark = pytest.mark.integration

#: The audit's message: valid in every field but its end, which overflowed the week arithmetic.
FAR_FUTURE = "9999-12-31T23:59:59+00:00"
#: Longest a test waits for the worker thread to reach a state (it gets there in milliseconds).
WAIT_S = 10.0


def enqueue_far_future(queue: Queue) -> str:
    """The audit's poison message, put on the queue as a producer would put it."""
    data = build_match(["ilker", "jale", "kaan", "lale"], ended_at=MIDWEEK).to_dict()
    data["ended_at"] = FAR_FUTURE
    job_id = job_id_for(data["match_id"])
    queue.enqueue(INGEST_JOB_FUNCTION, json.dumps(data), job_id=job_id)
    return job_id


def worker(queue: Queue, store: Callable[[], Store], **kwargs: Any) -> BatchWorker:
    return BatchWorker(queue.connection, queue.name, store, **kwargs)  # type: ignore[arg-type]


def applied(url: str) -> tuple[int, int]:
    """Archived matches and rating-history rows."""
    (row,) = query(
        url, "SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM rating_history)"
    )
    return row  # type: ignore[return-value]


def status(queue: Queue, job_id: str) -> str | None:
    job = Job.fetch(job_id, connection=queue.connection, serializer=JSONSerializer)
    return job.get_status(refresh=True)


def reason(queue: Queue, job_id: str) -> str:
    result = Job.fetch(job_id, connection=queue.connection).latest_result()
    assert result is not None
    return result.exc_string or ""


def inflight(queue: Queue) -> list[bytes]:
    return queue.connection.keys(f"{queue.key}:batch:inflight:*")  # type: ignore[return-value]


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {WAIT_S} s: {what}")
        time.sleep(0.01)


class Running:
    """A batch worker working in a thread of this process, as the worker command runs it."""

    def __init__(self, batch: BatchWorker) -> None:
        self.batch = batch
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="ratings-worker", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.batch.work(idle_wait_s=1)
        except BaseException as exc:  # the test reports it
            self.error = exc

    def alive(self) -> bool:
        return self.thread.is_alive()

    def stop(self) -> None:
        self.batch.stop()
        self.thread.join(timeout=WAIT_S)
        assert not self.thread.is_alive(), "the worker did not stop"
        assert self.error is None, repr(self.error)


@pytest.fixture
def running() -> Iterator[list[Running]]:
    started: list[Running] = []
    yield started
    for one in started:
        one.batch.stop()
        one.thread.join(timeout=WAIT_S)


# ------------------------------------------------------------------------------ poison


def test_a_poison_message_is_parked_and_the_valid_matches_of_its_batch_are_rated(
    store: Store, schema_url: str, queue: Queue, running: list[Running]
) -> None:
    before, after = matches(2)
    good = enqueue(queue, [before])
    poison = enqueue_far_future(queue)
    good += enqueue(queue, [after])
    # One batch holds all three; the worker is the loop the worker command runs.
    one = Running(worker(queue, lambda: store, batch_size=10))
    running.append(one)
    wait_for(lambda: status(queue, poison) == "failed", "the poison message parked")
    wait_for(lambda: all(status(queue, i) == "finished" for i in good), "the valid ones done")
    assert applied(schema_url) == (2, 8)
    results = [
        Job.fetch(i, connection=queue.connection, serializer=JSONSerializer).return_value()
        for i in good
    ]
    assert results == ["rated", "rated"]
    # Where failed jobs are shown (the registry ``replay --list`` reads), with the reason.
    assert FailedJobRegistry(queue=queue).get_job_ids() == [poison]
    assert "ended_at: 9999-12-31T23:59:59Z is outside" in reason(queue, poison)
    assert inflight(queue) == []
    # The worker goes on: the next match is rated too.
    (later,) = enqueue(queue, matches(1, start=10))
    wait_for(lambda: status(queue, later) == "finished", "a later match done")
    assert one.alive()
    one.stop()
    assert applied(schema_url) == (3, 12)


def test_a_match_whose_application_raises_fails_alone(
    store: Store, schema_url: str, queue: Queue, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With the date bound lifted, the audit's message reaches ingestion and raises what it
    # raised there (OverflowError from the week arithmetic): any exception while applying a
    # match parks that match, and the rest of its batch is archived and rated.
    monkeypatch.setattr(fm, "LATEST", datetime.max.replace(tzinfo=UTC), raising=False)
    messages = matches(5)
    good = enqueue(queue, messages[:2])
    poison = enqueue_far_future(queue)
    good += enqueue(queue, messages[2:])
    assert worker(queue, lambda: store, batch_size=10).work(burst=True) == 6
    assert applied(schema_url) == (5, 20)
    assert FailedJobRegistry(queue=queue).get_job_ids() == [poison]
    assert reason(queue, poison).startswith("OverflowError")
    assert all(status(queue, i) == "finished" for i in good)
    assert inflight(queue) == []


# ---------------------------------------------------------------------------- recovery


def test_a_worker_that_stops_on_any_error_leaves_no_job_claimed(
    store: Store, schema_url: str, queue: Queue
) -> None:
    ids = enqueue(queue, matches(12))

    def broken() -> Store:
        raise RuntimeError("a defect outside any one match")

    with pytest.raises(RuntimeError, match="a defect"):
        worker(queue, broken, batch_size=5).work(burst=True)
    # Its claims (the batch in hand and the next one) are back at the head, in order.
    assert inflight(queue) == []
    assert queue.get_job_ids() == ids
    assert worker(queue, lambda: store, batch_size=5).work(burst=True) == 12
    assert applied(schema_url) == (12, 48)


def test_a_vanished_workers_claim_is_requeued_even_when_it_left_the_workers_set(
    store: Store, schema_url: str, queue: Queue
) -> None:
    # What an older worker left when an exception ended it (its finally took it off the set
    # and deleted its alive key, its claim still in flight): no set entry, no alive key.
    ids = enqueue(queue, matches(8))
    gone = worker(queue, lambda: store, batch_size=5)
    gone.beat()
    claimed = gone.claim()
    queue.connection.srem(gone.workers_key, gone.name)
    queue.connection.delete(gone.alive_key)
    assert queue.connection.llen(gone.inflight_key) == 5
    assert worker(queue, lambda: store, batch_size=5).work(burst=True) == 8
    assert applied(schema_url) == (8, 32)
    assert inflight(queue) == []
    assert claimed == ids[:5]


def test_a_claim_lists_its_worker_in_the_workers_set(store: Store, queue: Queue) -> None:
    # A worker taken off the set (by a recovery while it stalled) is listed again by its next
    # claim, so the periodic check (which reads the set) finds its list if it then dies.
    enqueue(queue, matches(5))
    stalled = worker(queue, lambda: store, batch_size=2)
    assert len(stalled.claim(wait_s=1)) == 2
    assert queue.connection.sismember(stalled.workers_key, stalled.name)
    # A batch of one after a BLMOVE claims no more than that one (the script takes n - 1).
    single = worker(queue, lambda: store, batch_size=1)
    assert len(single.claim(wait_s=1)) == 1
    assert queue.count == 2


# ------------------------------------------------------------------------ without a next job


def test_a_batch_is_final_as_soon_as_it_is_done_without_a_next_job(
    store: Store, schema_url: str, queue: Queue, running: list[Running]
) -> None:
    good = enqueue(queue, matches(3))
    bad = queue.enqueue(INGEST_JOB_FUNCTION, '{"match_id": "x"}', job_id="malformed").id
    one = Running(worker(queue, lambda: store, batch_size=10))
    running.append(one)
    # Nothing else is enqueued: the worker waits for jobs with the batch's outcomes written.
    wait_for(lambda: status(queue, bad) == "failed", "the malformed job's status")
    wait_for(lambda: all(status(queue, i) == "finished" for i in good), "the matches' status")
    wait_for(lambda: inflight(queue) == [], "the in-flight list emptied")
    assert FailedJobRegistry(queue=queue).get_job_ids() == ["malformed"]
    assert applied(schema_url) == (3, 12)
    assert one.alive()
    one.stop()
