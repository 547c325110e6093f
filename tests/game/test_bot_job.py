"""The bot job: it plays through the writer path and drops a stale turn."""

from __future__ import annotations

import pytest
from redis import Redis

from king_bots import jobs
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
