"""The bot job: it plays through the writer path and drops a stale turn."""

from __future__ import annotations

import pytest
from redis import Redis

from king_bots import jobs
from king_bots.policies import decide
from king_match import MatchStore, Player

pytestmark = pytest.mark.integration


@pytest.fixture
def store(settings):
    match_store = MatchStore(Redis.from_url(settings.redis_url), settings.match)
    jobs.set_store(match_store)
    yield match_store
    jobs.set_store(None)


def test_a_bot_turn_is_played_once_and_a_stale_one_is_dropped(store):
    human = Player("p-human-bot-job", "human")
    record = store.create_table(human, mode="computer", seat=3, level="easy")
    record, _ = store.join(record.match_id, human)
    # Seat 0 (a bot) declares hand 0.
    first = jobs.play_turn(record.match_id, 0, record.version, "easy")
    assert first["status"] == "played" and first["version"] == record.version + 1
    again = jobs.play_turn(record.match_id, 0, record.version, "easy")
    assert again["status"] == "stale"
    assert store.load(record.match_id)[0].version == record.version + 1


def test_a_bot_job_cannot_move_for_a_human_seat(store):
    human = Player("p-human-bot-job2", "human")
    record = store.create_table(human, mode="computer", seat=0, level="easy")
    record, _ = store.join(record.match_id, human)
    result = jobs.play_turn(record.match_id, 0, record.version, "easy")
    assert result["status"] == "dropped" and result["reason"] == "not_bot_seat"
    assert store.load(record.match_id)[0].version == record.version


class RacedStore(MatchStore):
    """A real store whose ``seat_view`` lets a duplicate job commit the same turn right after
    the read: the job's own move then meets ``stale_version``."""

    def seat_view(self, match_id, seat):
        record, view = super().seat_view(match_id, seat)
        move = decide(view, "easy", 0)
        super().play(match_id, None, move, seat=seat, expected_version=record.version)
        return record, view


def test_a_turn_taken_between_the_read_and_the_move_is_stale_not_an_illegal_move(settings, caplog):
    raced = RacedStore(Redis.from_url(settings.redis_url), settings.match)
    jobs.set_store(raced)
    try:
        human = Player("p-human-bot-job3", "human")
        record = raced.create_table(human, mode="computer", seat=3, level="easy")
        record, _ = raced.join(record.match_id, human)
        result = jobs.play_turn(record.match_id, 0, record.version, "easy")
    finally:
        jobs.set_store(None)
    # A MatchError is a KingError: the job must not take it for its policy's illegal move.
    assert result == {"status": "stale", "reason": "stale_version"}
    assert not [r for r in caplog.records if "illegal move" in r.getMessage()]
    assert raced.load(record.match_id)[0].version == record.version + 1
