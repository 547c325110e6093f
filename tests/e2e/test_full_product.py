"""The whole product, end to end, over HTTP: real processes started by the run command's code.

One stack (private Redis in a temporary data folder, the test run's Postgres database, game
and rating services under gunicorn, bot workers, ratings worker, clock sweeper) on free ports:

* a computer match played to the end by a scripted human, deal verified;
* live matches of four scripted clients played to the end, every seat's deal verified;
* the ranked results reach the rating service: each player's rating, and the weekly board;
* the services expose their metrics;
* everything stops, and no process it started is left.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from prometheus_client.parser import text_string_to_metric_families

from king_devservers import free_port, local_postgres_database
from king_devservers.demo import (
    ApiError,
    GameClient,
    call,
    play_computer_match,
    simple_move,
    verify_deal,
)
from king_devservers.stack import Stack, StackSettings
from king_engine import deal as kingdeal
from king_engine import parse_card

pytestmark = [pytest.mark.integration, pytest.mark.slow]

HANDS = 8
#: The weekly board lists a player from this many ranked matches in the week
#: (king_rating.weekly.MIN_MATCHES); the test plays that many live matches.
from king_rating.weekly import MIN_MATCHES as BOARD_MIN_MATCHES  # noqa: E402


@pytest.fixture(scope="module")
def e2e_database() -> Iterator[str]:
    """A database of its own: the product's public schema, shared with no other test."""
    with local_postgres_database(prefix="king_e2e") as url:
        yield url


@pytest.fixture(scope="module")
def stack(e2e_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    database_url = e2e_database
    data_dir = tmp_path_factory.mktemp("king-e2e")
    settings = StackSettings(
        data_dir=Path(data_dir),
        game_port=free_port(),
        rating_port=free_port(),
        redis_port=free_port(),
        redis_url=None,  # the run command starts its own Redis, as on a fresh machine
        database_url=database_url,
        web_workers=2,
        bot_workers=2,
        rating_workers=1,
        extra_env={
            # Rate limits have their own tests; here four clients poll as fast as they can.
            "GAME_RATE_LIMITS": "off",
            # The bots' 400 ms redeal-round answer (a fairness wait) is tested on its own.
            "KING_BOT_CALL_ANSWER_MS": "20",
            "KING_LOG_LEVEL": "INFO",
        },
    )
    log = io.StringIO()
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    running = Stack(settings, out=log)
    try:
        running.start()
    except Exception:
        running.stop()
        pytest.fail("the stack did not start:\n" + log.getvalue()[-6000:])
    running.log = log  # type: ignore[attr-defined]
    running.children_before = before  # type: ignore[attr-defined]
    try:
        yield running
    finally:
        running.stop()


def players(api: str, count: int, tag: str) -> list[GameClient]:
    return [
        GameClient(api, name=f"{tag}{index}-{secrets.token_hex(3)}").sign_up(
            password=secrets.token_hex(8)
        )
        for index in range(count)
    ]


def play_live_match(clients: list[GameClient], timeout: float = 300.0) -> dict[str, Any]:
    """Four scripted clients: one creates a live table, all four sit, all play to the end."""
    host = clients[0]
    for client in clients:
        client.dealt = {}  # what each seat is dealt in this match
    table = host.create_table("live", hands=HANDS)
    for client in clients:  # the host too: every seat's seed is made after the commitment
        client.join(str(table["id"]))
    match_id = str(table["match_id"])
    seats = {client.player_id: int(client.match(match_id)["seat"]) for client in clients}
    by_seat = {seats[client.player_id]: client for client in clients}
    deadline = time.monotonic() + timeout
    final: dict[str, Any] | None = None
    turn = 0
    while final is None and time.monotonic() < deadline:
        client = by_seat[turn]
        state = client.match(match_id)
        if state.get("outcome") is not None:
            final = state
            break
        if state.get("my_turn"):
            try:
                client.move(match_id, simple_move(state["view"]), int(state["version"]))
            except ApiError as exc:
                if exc.status != 409:
                    raise
            state = client.match(match_id)
        view_turn = (state.get("view") or {}).get("turn")
        turn = int(view_turn) if isinstance(view_turn, int) else turn
    assert final is not None, f"live match {match_id} did not end in {timeout} s"
    for client in clients:  # every seat sees the end (and its last hand's cards were seen)
        client.match(match_id)
    return {"table": table, "state": final, "seats": seats}


def wait_for(fetch: Any, condition: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = fetch()
        except ApiError as exc:
            last = exc
        if not isinstance(last, ApiError) and condition(last):
            return last
        time.sleep(0.25)
    raise AssertionError(f"condition not met in {timeout} s; last answer: {last}")


def test_a_computer_match_is_played_over_http_and_its_deal_verifies(stack: Stack) -> None:
    api = stack.settings.game_url
    rating = stack.settings.rating_url

    # A computer match: one human, three bots, played through the API; the deal verifies.
    solo = players(api, 1, "solo")[0]
    lines: list[str] = []
    result = play_computer_match(solo, hands=HANDS, level="easy", echo=lines.append)
    state = result["state"]
    assert state["outcome"] == "finished"
    assert sorted(state["places"]) == sorted(state["places"]) and len(state["places"]) == 4
    checked = verify_deal(
        result["transcript"],
        str(result["table"]["server_commit"]),
        int(result["seat"]),
        solo.client_seed,
        solo.dealt,
        list(state["view"]["totals"]),
    )
    assert len(checked) == 5 and len(solo.dealt) == HANDS
    computer_match = str(result["table"]["match_id"])
    # The finished match reaches the rating service's archive (unranked: no rating change).
    wait_for(lambda: call("GET", f"{rating}/matches/{computer_match}"), lambda body: True)


def test_a_traditional_computer_match_reaches_the_archive_with_its_deals_verified(
    stack: Stack,
) -> None:
    """``traditional`` through the whole stack: the client answers every redeal round and
    announcement, every deal it was dealt (thrown ones too) re-derives, and the moves replay.
    This is the suite's whole traditional match over HTTP, so it also checks the end: çıkar /
    batar by each total (or the King's win), no penalty picked more than twice, and the first
    declarer held ♦2 (tests/game/test_traditional_match.py plays only the first hands)."""
    api, rating = stack.settings.game_url, stack.settings.rating_url
    solo = players(api, 1, "trad")[0]
    result = play_computer_match(solo, hands=20, ruleset="traditional", echo=lambda _: None)
    state = result["state"]
    assert state["outcome"] == "finished" and state["ruleset"] == "traditional"
    assert state["end_reason"] in ("played_out", "king")
    totals = state["view"]["totals"]
    if state["end_reason"] == "played_out":
        assert state["seat_outcomes"] == ["cikar" if t >= 0 else "batar" for t in totals]
        assert sum(totals) == 0
        assert state["winners"] == [seat for seat in range(4) if totals[seat] >= 0]
    else:
        king = state["king_seat"]
        assert state["winners"] == [king] and state["places"][king] == 1
    contracts = [row["contract"] for row in state["view"]["score_sheet"]]
    assert all(contracts.count(c) <= 2 for c in set(contracts) if c != "trump")
    transcript = result["transcript"]
    key = kingdeal.match_key(
        transcript["match_id"],
        bytes.fromhex(transcript["server_seed"]),
        [bytes.fromhex(seed) for seed in transcript["client_seeds"]],
    )
    first_deal = kingdeal.deal_hand(key, 0, kingdeal.DECK_52)
    assert first_deal[transcript["first_declarer"]] >> parse_card("2D") & 1
    checked = verify_deal(
        result["transcript"],
        str(result["table"]["server_commit"]),
        int(result["seat"]),
        solo.client_seed,
        solo.dealt,
        list(state["view"]["totals"]),
    )
    assert len(checked) == 5 and len(solo.dealt) == len(result["transcript"]["hands"])
    match_id = str(result["table"]["match_id"])
    archived = wait_for(lambda: call("GET", f"{rating}/matches/{match_id}"), lambda body: True)
    assert archived["ruleset"] == "traditional"


def metric_files(stack: Stack) -> dict[str, int]:
    """The stack's multiprocess metric files and their sizes."""
    folder = stack.settings.data_dir / "metrics"
    return {str(path.relative_to(folder)): path.stat().st_size for path in folder.rglob("*.db")}


def test_every_printed_url_answers(stack: Stack) -> None:
    urls = stack.urls()
    assert {"game API", "game docs", "game metrics", "rating API", "rating metrics"} <= set(urls)
    for name, url in urls.items():
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200, (name, url)


def test_the_demo_command_plays_on_the_running_stack_and_leaves_its_files(stack: Stack) -> None:
    """``make demo`` beside ``make run``: the same data folder and ports as the running stack.
    It must play on that stack, not start a second one over its ports and files."""
    files_before = metric_files(stack)
    assert files_before, "the running stack wrote no metric files"
    pids_before = [process.pid for process in stack.processes]
    result = subprocess.run(
        [sys.executable, "-m", "king_devservers", "--demo"],
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "KING_DATA_DIR": str(stack.settings.data_dir),
            "KING_GAME_PORT": str(stack.settings.game_port),
            "KING_RATING_PORT": str(stack.settings.rating_port),
        },
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    out = result.stdout
    assert f"using the stack running on {stack.settings.data_dir}" in out
    for expected in ("contract: ", "trick 1: ", "score sheet:", "totals", "the deck is verified."):
        assert expected in out, expected
    assert out.count("  ok: ") == 5
    # The running stack is whole: the same processes, and its metric files still there (they
    # only grow).
    assert [process.pid for process in stack.processes] == pids_before
    assert stack.dead_processes() == []
    files_after = metric_files(stack)
    for name, size in files_before.items():
        assert files_after.get(name, -1) >= size, name


def test_a_second_stack_on_the_same_folder_refuses_to_start(stack: Stack) -> None:
    from king_devservers.stack import StackError

    second = Stack(StackSettings(data_dir=stack.settings.data_dir), out=io.StringIO())
    with pytest.raises(StackError, match="another stack runs on the data folder"):
        second.start()
    assert second.processes == [] and second.backends is None
    assert (stack.settings.data_dir / "stack.json").is_file()


def test_live_matches_of_four_clients_reach_the_ratings_and_the_weekly_board(
    stack: Stack,
) -> None:
    api = stack.settings.game_url
    rating = stack.settings.rating_url

    # Live matches: four scripted clients, ranked.
    clients = players(api, 4, "live")
    live_results = [play_live_match(clients) for _ in range(BOARD_MIN_MATCHES)]
    for live in live_results:
        final = live["state"]
        assert final["outcome"] == "finished"
        transcript = clients[0].fairness(str(live["table"]["match_id"]))
        for client in clients:
            seat = live["seats"][client.player_id]
            verify_deal(
                transcript,
                str(live["table"]["server_commit"]),
                seat,
                client.seeds[str(live["table"]["match_id"])],
                {},  # the cards each seat saw are checked on the last match below
                list(final["view"]["totals"]),
            )
    # Each seat's own cards, as it saw them during the last match, are the derived deal.
    last = live_results[-1]
    last_transcript = clients[0].fairness(str(last["table"]["match_id"]))
    for client in clients:
        assert len(client.dealt) == HANDS, client.name
        verify_deal(
            last_transcript,
            str(last["table"]["server_commit"]),
            last["seats"][client.player_id],
            client.seeds[str(last["table"]["match_id"])],
            client.dealt,
        )

    # Ratings: every live player is rated once per ranked match; the archive has the
    # computer match (unranked).
    ratings = []
    for client in clients:
        answer = wait_for(
            lambda c=client: call("GET", f"{rating}/players/{c.player_id}/rating"),
            lambda body: body["rated_matches"] == BOARD_MIN_MATCHES,
        )
        assert answer["name"] == client.name
        ratings.append(float(answer["rating"]))
    assert len(set(ratings)) > 1, "ranked results moved nobody's rating"

    # The weekly board lists the four live players, with their matches of the week.
    board = wait_for(
        lambda: call("GET", f"{rating}/weekly/current?page_size=100"),
        lambda body: (
            {c.player_id for c in clients} <= {entry["player_id"] for entry in body["items"]}
        ),
    )
    entries = {e["player_id"]: e for e in board["items"]}
    for client in clients:
        assert entries[client.player_id]["matches"] == BOARD_MIN_MATCHES
    ranks = [entry["rank"] for entry in board["items"]]
    assert ranks == sorted(ranks) and all(rank >= 1 for rank in ranks)


def test_the_services_expose_request_metrics(stack: Stack) -> None:
    api = stack.settings.game_url
    with urllib.request.urlopen(f"{api}/metrics", timeout=5) as response:
        metrics = response.read().decode()
    moves = [
        sample.value
        for family in text_string_to_metric_families(metrics)
        for sample in family.samples
        if sample.name == "king_http_requests_total"
        and sample.labels.get("endpoint") == "/v1/matches/<match_id>/moves"
    ]
    assert sum(moves) > 0
    with urllib.request.urlopen(f"{stack.settings.rating_url}/metrics", timeout=5) as response:
        assert "king_http_request_duration_seconds_bucket" in response.read().decode()


def scrape(url: str) -> dict[str, float]:
    """``name{label=value,...}`` -> value of every sample at ``url``."""
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            found[f"{sample.name}{{{labels}}}"] = sample.value
    return found


def total(samples: dict[str, float], name: str, *labels: str) -> float:
    return sum(
        value
        for key, value in samples.items()
        if key.startswith(name + "{") and all(label in key for label in labels)
    )


def test_every_process_metrics_are_served_after_real_matches(stack: Stack) -> None:
    """The bot workers' and the clock's numbers at the game service's /metrics, the ratings
    worker's at the rating service's: after the matches above (all of them ingested)."""
    urls = stack.urls()
    played = 2 + BOARD_MIN_MATCHES  # the computer match, the demo, the live matches
    game = scrape(urls["game metrics"])
    assert total(game, "king_moves_total", "source=bot") > 0
    assert total(game, "king_moves_total", "source=human") > 0
    assert total(game, "king_bot_decision_seconds_count") > 0
    assert total(game, "king_matches_finished_total", "mode=live") >= BOARD_MIN_MATCHES
    assert total(game, "king_matches_finished_total") >= played
    assert "king_clock_timeouts_total{mode=all}" in game
    rating = wait_for(
        lambda: scrape(urls["rating metrics"]),
        lambda found: total(found, "king_rating_ingested_total") >= played,
    )
    assert total(rating, "king_rating_ingestion_lag_seconds_count") >= played


def test_stopping_leaves_no_process_behind(stack: Stack) -> None:
    """Runs last in this module: stops the stack the tests above share, then checks that no
    process group and no child process it started is left."""
    stack.stop()
    assert stack.leftover_pgids() == []
    before = stack.children_before  # type: ignore[attr-defined]
    left = [
        f"{p.pid} {' '.join(p.cmdline())[:100]}"
        for p in psutil.Process().children(recursive=True)
        if p.pid not in before and p.pid not in browser_processes() and p.is_running()
        and p.status() != psutil.STATUS_ZOMBIE
    ]  # fmt: skip
    assert left == []


def browser_processes() -> set[int]:
    """Playwright's driver and the browser under it: when this process also runs browser
    tests, the session's browser starts helper processes of its own whenever it likes."""
    found: set[int] = set()
    for child in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            if "playwright" in " ".join(child.cmdline()):
                found.add(child.pid)
                found.update(p.pid for p in child.children(recursive=True))
    return found
