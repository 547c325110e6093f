"""The load generator's scripted players (``bench_api``): each follows its match on one NDJSON
stream with ``turns=true`` and, on its ``your_turn`` line, posts the first legal move; only the
POST is timed."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from typing import Any

import orjson

from .http1 import Endpoint, LineStream, Requests

#: Seconds after the last stream connected during which moves still count as warm-up.
WARMUP_S = 1.0


def _planned_move(your_turn: dict[str, Any]) -> bytes:
    """The move body a scripted player sends for a ``your_turn`` line: the first legal move."""
    view = your_turn["match"]["view"]
    move = (
        {"move": view["allowed_contracts"][0]["move"]}
        if view["allowed_contracts"]
        else {"card": view["legal_cards"][0]}
    )
    return orjson.dumps({**move, "version": your_turn["version"]})


class Load:
    def __init__(self, base: str, matches: int, hands: int, rate: float = 0.0) -> None:
        self.base = base
        self.matches = matches
        self.hands = hands
        #: Paced mode: the whole load offers ``rate`` moves a second (each match N/rate s
        #: between moves) instead of moving as soon as it may; 0: as fast as possible.
        self.interval = matches / rate if rate else 0.0
        self.next_move: dict[str, float] = {}
        self.latencies: list[tuple[float, float]] = []  # (progress 0..1, ms)
        #: Moves sent while the 4N streams are still connecting (and 1 s more), when every
        #: match makes its first moves at once: reported apart (``move_p99_ms_warmup``).
        self.warmup_until = float("inf")
        self.warmup: list[float] = []
        #: Latencies are recorded until then: the key-size sample at the end of the run
        #: (``_drive``) reads every key, which disturbs the service and this process.
        self.measure_until = float("inf")
        self.connected: set[tuple[str, int]] = set()
        self.moves = 0
        self.errors = 0
        self.finished = 0
        #: (wall-clock time, ms) of each measured move, with ``--timeline``.
        self.timeline: list[tuple[float, float]] | None = None

    async def signup(self, session: Any) -> dict[str, str]:
        name = f"b{uuid.uuid4().hex[:8]}"
        async with session.post(f"{self.base}/v1/accounts", json={"name": name}) as response:
            data = await response.json()
        return {"Authorization": f"Bearer {data['token']}"}

    async def table(self, session: Any, players: list[dict[str, str]]) -> str:
        async with session.post(
            f"{self.base}/v1/tables",
            json={"mode": "live", "hands": self.hands},
            headers=players[0],
        ) as response:
            table = await response.json()
        # Nobody sits at creation: every player, the creator too, takes its seat (with no
        # seed: the server draws them, and the transcript marks them server).
        for seat, headers in enumerate(players):
            async with session.post(
                f"{self.base}/v1/tables/{table['id']}/seats", json={"seat": seat}, headers=headers
            ) as response:
                await response.read()
        return str(table["id"])

    async def player(self, match_id: str, seat: int, headers: dict[str, str]) -> None:
        """One scripted player, to the end of its match (or until cancelled)."""
        player = Player(self, match_id, seat, Endpoint(self.base, headers))
        try:
            await player.play()
        finally:
            player.close()
        if seat == 0:
            self.finished += 1


class Player:
    """Plays from the stream alone: ``turns=true`` sends this player a private ``your_turn``
    line (its view, as ``GET /v1/matches/{id}`` would answer) whenever it is its turn; it then
    plays the first legal move (``POST .../moves`` with that version and an Idempotency-Key) on
    its own keep-alive connection. Driven by the connections' callbacks (``http1.py``), not by
    a task waking up for every read."""

    def __init__(self, load: Load, match_id: str, seat: int, endpoint: Endpoint) -> None:
        self.load = load
        self.match_id = match_id
        self.seat = seat
        self.endpoint = endpoint
        self.loop = asyncio.get_running_loop()
        self.after = 0
        self.moves = 0
        self.expected_moves = load.hands * 53
        self.move_path = f"/v1/matches/{match_id}/moves"
        self.stream: LineStream | None = None
        self.requests: Requests | None = None
        self.in_flight = False
        self.waiting_turn: bytes | None = None  # came while a move was in flight
        self.timer: asyncio.TimerHandle | None = None
        self.started = 0.0
        self.done: asyncio.Future[None] = self.loop.create_future()
        self.stream_ended = asyncio.Event()

    async def play(self) -> None:
        self.requests = await Requests.open(self.endpoint)
        while not self.done.done():
            self.stream_ended.clear()
            path = f"/v1/matches/{self.match_id}/stream?after={self.after}&turns=true"
            self.stream = await LineStream.open(
                self.endpoint, path, self.on_lines, self.stream_ended.set
            )
            ended = asyncio.ensure_future(self.stream_ended.wait())
            await asyncio.wait([ended, self.done], return_when=asyncio.FIRST_COMPLETED)
            ended.cancel()
            if self.stream.refused:
                raise ConnectionError(f"stream answered {self.stream.refused}")

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.stream is not None:
            self.stream.close()
        if self.requests is not None:
            self.requests.close()

    def on_lines(self, lines: list[bytes]) -> None:
        load = self.load
        turn = None
        for raw in lines:
            if not raw:
                continue
            line = orjson.loads(raw)
            kind = line.get("type")
            if "seq" in line:
                self.after = line["seq"]
            if kind == "match_finished":
                if not self.done.done():
                    self.done.set_result(None)
                return
            if kind == "your_turn":
                # Only the move is kept: a paced player holds its turn for up to N/R seconds,
                # and at N = 1,000 a thousand parsed views (a hundred objects each) held that
                # long made every young collection of this process a 15-20 ms pause.
                turn = _planned_move(line)
        if load.warmup_until == float("inf"):
            load.connected.add((self.match_id, self.seat))
            if len(load.connected) == 4 * load.matches:
                load.warmup_until = time.perf_counter() + WARMUP_S
        if turn is None:
            return
        if self.in_flight or self.timer is not None:
            self.waiting_turn = turn  # played once the move in flight is answered
            return
        self.schedule(turn)

    def schedule(self, turn: bytes) -> None:
        load = self.load
        if load.interval:
            now = time.perf_counter()
            # Each match moves on its own grid (a random phase, then every interval): in step,
            # N matches would move in waves of N requests at once and measure their own
            # queueing. A turn that comes late is played at once, and the match keeps its
            # phase: its next move is its grid's next slot. (Moving the grid to the late turn
            # bunched the matches' phases where the service caught up from the set-up backlog
            # at N = 1,000, and the latencies then measured those bursts.)
            due = load.next_move.get(self.match_id)
            if due is None:
                due = now + random.random() * load.interval
            following = due + load.interval
            if following <= now:  # late: skip the slots that passed, on the same grid
                following += ((now - following) // load.interval + 1) * load.interval
            load.next_move[self.match_id] = following
            if due > now:
                self.timer = self.loop.call_later(due - now, self.move, turn)
                return
        self.move(turn)

    def move(self, turn: bytes) -> None:
        self.timer = None
        request = self.endpoint.request(
            "POST",
            self.move_path,
            {"Content-Type": "application/json", "Idempotency-Key": f"{self.seat}-{self.moves}"},
            turn,
        )
        self.in_flight = True
        self.started = time.perf_counter()
        self.send(request, retried=False)

    def send(self, request: bytes, retried: bool) -> None:
        requests = self.requests
        if requests is None or not requests.usable:
            # The keep-alive connection went (the server closed it): open another.
            task = asyncio.ensure_future(Requests.open(self.endpoint))
            task.add_done_callback(lambda done: self.reopened(done, request))
            return

        def answered(status: int, body: bytes) -> None:
            if status == 0 and not retried:
                self.send(request, retried=True)  # lost: safe to repeat (Idempotency-Key)
                return
            self.answered(status)

        requests.send(request, answered)

    def reopened(self, done: asyncio.Future[Requests], request: bytes) -> None:
        if done.cancelled() or done.exception() is not None:
            self.answered(0)
            return
        self.requests = done.result()
        self.send(request, retried=True)

    def answered(self, status: int) -> None:
        load = self.load
        elapsed = (time.perf_counter() - self.started) * 1000
        self.in_flight = False
        if status == 200:
            self.moves += 1
            load.moves += 1
            if self.started < load.warmup_until:
                load.warmup.append(elapsed)
            elif time.perf_counter() >= load.measure_until:
                pass  # answered while the key sizes were being read (see ``_drive``)
            else:
                progress = min(1.0, 4 * self.moves / self.expected_moves)
                load.latencies.append((progress, elapsed))
                if load.timeline is not None:
                    load.timeline.append((time.time(), elapsed))
        else:
            load.errors += 1
        turn, self.waiting_turn = self.waiting_turn, None
        if turn is not None and not self.done.done():
            self.schedule(turn)
