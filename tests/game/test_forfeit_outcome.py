"""A forfeit decides the outcome, and a forfeited seat is the computer's.

One live match of four scripted clients. In the last trick of the last hand (every card then
forced, so the final totals are known) the seat that is going to finish on the best total stops
answering: its move time and reserve run out, the clock sweeper forfeits it and a bot takes the
seat. The app has no bot worker, so the bot's turn for that seat waits for the clock's fallback
move: a window in which the forfeited player reads their view, sends a move and listens to their
``?turns=true`` stream. Checked:

* the player who ran out of time is not a winner anywhere: the ``match_over`` and
  ``match_finished`` events, every seat's view, the finished-match message and the rating
  service's archive (reached through the ``ratings`` queue) name the best total among the
  others;
* while the bot is to move for their seat, the forfeited player's view says ``my_turn: false``,
  shows no legal moves and says the computer plays the seat, their move is refused
  ``seat_forfeited``, and their stream sends no ``your_turn`` after the takeover.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from flask.testing import FlaskClient
from pg_schema import own_schema
from redis import Redis
from rq import Queue, SimpleWorker
from rq.serializers import JSONSerializer

from king_engine import MatchState
from king_game.app import create_app
from king_game.config import Settings
from king_match import MatchSettings, Sweeper
from king_match.settings import ClockSettings
from king_message import RATINGS_QUEUE
from king_rating import jobs as rating_jobs
from king_rating.app import create_app as create_rating_app
from king_rating.config import Settings as RatingSettings
from king_rating.migrate import migrate as migrate_rating
from king_rating.store import Store as RatingStore

from .conftest import own_redis_db
from .helpers import signup, start_live_match, view

pytestmark = [pytest.mark.integration, pytest.mark.slow]

#: Short live clocks; the bot's fallback is what moves a taken-over seat (no bot worker here).
CLOCKS = ClockSettings(
    live_move_ms=3000, live_reserve_ms=2000, computer_move_ms=60_000, bot_fallback_ms=3000
)
EARLY_END = ("hearts", "queens", "boys", "king_of_hearts")
FULL_HANDS = ("trump", "tricks", "last_two")


def pick_contract(options: list[dict[str, Any]], last_hand: bool) -> str:
    """Early-ending penalties first, so the last hand (Koz, or a contract that plays all 13
    tricks) surely reaches its last trick, where every card is forced."""
    order = FULL_HANDS if last_hand else (*EARLY_END, "tricks", "last_two", "trump")
    for wanted in order:
        for option in options:
            if option["contract"] == wanted:
                return str(option["move"])
    return str(options[0]["move"])


def read_stream(client: FlaskClient, path: str, headers: dict[str, str], out: list[Any]) -> None:
    """Collect a stream's lines until it ends (after ``match_finished``)."""
    response = client.get(path, headers=headers, buffered=False)
    try:
        for raw in response.response:
            out.extend(json.loads(text) for text in raw.decode().splitlines() if text)
    finally:
        response.close()


@pytest.fixture(scope="module")
def rating_store(database_url: str) -> Iterator[RatingStore]:
    """The rating service's store on a fresh schema of its own."""
    with own_schema(database_url, "rating", migrate_rating) as url:
        store = RatingStore(url, min_size=1, max_size=2)
        try:
            yield store
        finally:
            store.close()


@pytest.fixture(scope="module")
def played(settings: Settings, redis_url: str, rating_store: RatingStore) -> Iterator[Any]:
    """Play the match described above; what every party said about it."""
    redis_db = own_redis_db(redis_url, 7)  # no bot worker listens on this database
    app = create_app(
        replace(
            settings,
            match=MatchSettings(
                redis_url=redis_db, key_prefix=f"w{uuid.uuid4().hex[:8]}:", clocks=CLOCKS
            ),
        )
    )
    store = app.extensions["king_game"].store
    sweeper = Sweeper(store, interval_s=0.05)
    sweeping = sweeper.start_thread()
    client = app.test_client()
    try:
        yield play_to_the_end(app, client, store, rating_store, redis_db)
    finally:
        sweeper.stop()
        sweeping.join(timeout=5)
        if store.notifier is not None:
            store.notifier.stop()
        app.extensions["king_game"].accounts.pool.close(timeout=1)


def play_to_the_end(
    app: Any, client: FlaskClient, store: Any, rating_store: RatingStore, redis_db: str
) -> dict[str, Any]:
    players = [signup(client) for _ in range(4)]
    match_id = start_live_match(client, players)["id"]
    target: int | None = None
    final_totals: list[int] = []
    stream_lines: list[Any] = []
    stream: threading.Thread | None = None
    while_automated: dict[str, Any] | None = None
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the match did not finish in time"
        record, state = store.load(match_id)
        if record.status != "active":
            break
        assert state is not None
        last_hand = state.hand_index == state.num_hands - 1
        if target is None and last_hand and state.trick_no == 12:
            assert state.trick_count == 0
            # Every card left is forced: play them out on a copy to know the final totals.
            rest = MatchState.from_bytes(state.to_bytes())
            while not rest.is_over:
                rest.apply_action(rest.legal_actions()[0])
            final_totals = list(rest.totals)
            target = max(range(4), key=lambda seat: final_totals[seat])
            path = f"/v1/matches/{match_id}/stream?after={record.seq}&turns=true"
            stream = threading.Thread(
                target=read_stream,
                args=(app.test_client(), path, players[target]["headers"], stream_lines),
            )
            stream.start()
        mover = state.current_player
        assert mover is not None
        if mover == target:
            if record.seat(target).automated and while_automated is None:
                # The bot is to move for the forfeited seat: what does its player see?
                own = players[target]
                card = state.legal_moves(target)[0]
                while_automated = {
                    "version": record.version,
                    "view": view(client, match_id, own),
                    "mine": client.get("/v1/me/matches", headers=own["headers"]).get_json(),
                    "move": client.post(
                        f"/v1/matches/{match_id}/moves",
                        json={"move": str(card), "version": record.version},
                        headers=own["headers"],
                    ),
                }
            time.sleep(0.05)  # the player has stopped; the clock decides
            continue
        body = view(client, match_id, players[mover])
        assert body["my_turn"], body
        mine = body["view"]
        if mine["allowed_contracts"]:
            move = {"move": pick_contract(mine["allowed_contracts"], last_hand)}
        else:
            move = {"card": mine["legal_cards"][0]}
        answer = client.post(
            f"/v1/matches/{match_id}/moves",
            json={**move, "version": body["version"]},
            headers=players[mover]["headers"],
        )
        assert answer.status_code == 200, answer.get_json()
    assert target is not None, "the last hand ended before its last trick"
    assert stream is not None
    stream.join(timeout=30)
    events = client.get(
        f"/v1/matches/{match_id}/events?after=0", headers=players[0]["headers"]
    ).get_json()["events"]
    # The finished-match message, as the rating worker gets it from the ratings queue.
    connection = Redis.from_url(redis_db)
    ratings = Queue(RATINGS_QUEUE, connection=connection, serializer=JSONSerializer)
    rating_jobs.set_store(rating_store)
    try:
        worker = SimpleWorker([ratings], connection=connection, serializer=JSONSerializer)
        assert worker.work(burst=True)
    finally:
        rating_jobs.set_store(None)
        connection.close()
    rating_app = create_rating_app(
        RatingSettings(database_url="unused", redis_url=redis_db), store=rating_store
    )
    archived = rating_app.test_client().get(f"/matches/{match_id}").get_json()
    return {
        "target": target,
        "final_totals": final_totals,
        "events": events,
        "views": [view(client, match_id, player) for player in players],
        "message": store.finished_message(match_id),
        "archived": archived,
        "while_automated": while_automated,
        "stream": stream_lines,
    }


def expected_winners(totals: list[int], forfeited: int) -> list[int]:
    others = [seat for seat in range(4) if seat != forfeited]
    best = max(totals[seat] for seat in others)
    return [seat for seat in others if totals[seat] == best]


def test_a_player_who_ran_out_of_time_is_named_winner_nowhere(played: dict[str, Any]) -> None:
    target, totals = played["target"], played["final_totals"]
    assert totals[target] == max(totals)  # the forfeited seat finished on the best total
    winners = expected_winners(totals, target)
    by_type = {event["type"]: event for event in played["events"]}
    assert by_type["player_forfeited"] == {**by_type["player_forfeited"], "seat": target}
    assert by_type["player_forfeited"]["reason"] == "timeout"
    assert by_type["match_over"]["totals"] == totals
    assert by_type["match_over"]["winners"] == winners
    assert by_type["match_finished"]["outcome"] == "forfeit"
    assert by_type["match_finished"]["winners"] == winners
    assert by_type["match_finished"]["places"][target] == 4
    for body in played["views"]:
        assert body["status"] == "finished" and body["forfeits"] == [target]
        assert body["winners"] == winners
    message = played["message"]
    assert message is not None and message.outcome == "forfeit"
    assert message.winners == winners
    assert [seat.place for seat in message.players if seat.seat in winners] == [1] * len(winners)
    archived = played["archived"]
    assert archived["winners"] == winners
    assert archived["players"][target]["forfeited"] and archived["players"][target]["place"] == 4


def test_a_forfeited_player_is_not_told_it_is_their_turn(played: dict[str, Any]) -> None:
    target, seen = played["target"], played["while_automated"]
    assert seen is not None, "the bot's turn for the forfeited seat was never seen"
    body = seen["view"]
    assert body["clock"]["turn"] == target  # the seat is to move, and the computer plays it
    assert body["my_turn"] is False
    assert body["view"]["legal_cards"] == [] and body["view"]["allowed_contracts"] == []
    assert body["played_by"] == "computer_after_forfeit"
    assert body["seats"][target]["played_by"] == "computer_after_forfeit"
    assert body["seats"][(target + 1) % 4]["played_by"] == "player"
    mine = [row for row in seen["mine"]["active"] if row["seat"] == target]
    assert mine and not any(row["my_turn"] for row in mine)
    refused = seen["move"]
    assert refused.status_code == 409 and refused.get_json()["code"] == "seat_forfeited"
    # The stream announced the player's own turn before they ran out of time, never after.
    turns = [line for line in played["stream"] if line["type"] == "your_turn"]
    takeover = next(line for line in played["stream"] if line["type"] == "bot_takeover")
    assert turns, "the stream never announced the player's turn"
    assert all(line["version"] < takeover["v"] for line in turns), turns
    assert all(line["match"]["my_turn"] for line in turns)
    assert played["stream"][-1]["type"] == "match_finished"
