"""Load generator for the game API: N concurrent live matches, four scripted players each.

It starts its own private Redis and Postgres database, the game service under gunicorn
(``deploy/gunicorn_game.py``: gevent workers) on a free port, and then drives N live 8-hand
matches with aiohttp clients. Each player follows its match on one NDJSON stream with
``turns=true`` (as a real client does): the stream brings the public events and, when it is the
player's turn, a private ``your_turn`` line with its view; the player then plays the first legal
move (``POST .../moves`` with that version and an Idempotency-Key). Only the POST is timed.

Printed figures (``name: value``):

* ``api.moves_per_s`` — applied moves per second over the play phase;
* ``api.move_p50_ms`` / ``api.move_p99_ms`` — POST latency percentiles once every stream is
  connected (the moves before that, and 1 s after — 4N streams connecting, every match's
  first moves at once — give ``api.move_p99_ms_warmup``) and until the key sizes are read;
* ``api.move_p50_ms_first_half`` / ``_second_half`` — latency early and late in the matches;
* ``api.redis_bytes_per_match`` — Redis ``used_memory`` during play (65 s in, or 2 s before
  the end of a shorter run) minus the baseline before the tables were created, divided by N
  (match state, event log, deadlines, token cache and rate limiter counters all included);
* ``api.redis_match_keys_bytes_per_match`` / ``…player_keys…`` and
  ``api.redis_bytes_per_match.<kind>`` — ``MEMORY USAGE`` of the keys at that moment;
* ``api.server_cpu_ms_per_move`` — the service's CPU per applied move;
  ``api.redis_cpu_ms_per_move`` — Redis's (all primaries');
* ``api.machine_checked_moves_per_s_before`` / ``_after`` — the engine benchmark's figure on
  one core, just before and after: the machine's own speed, which every other figure follows;
* ``api.cluster.*`` — the same figures for 100 matches with the match state on a local
  three-primary Redis Cluster (the queues on a plain Redis of their own), in the same run
  (``--no-cluster`` skips it), and ``api.cluster.max_primary_key_share``, the largest share of
  the match keys one primary holds.

``make bench`` runs the 100-match case; ``python -m benchmarks api -- --full`` the sweep over
10, 100 and 1,000 matches (the load generator shares the machine's cores with the service).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from .api_players import Load
from .bench_engine import checked_moves_per_s
from .redis_figures import memory, primary_key_share, read_key_bytes, redis_cpu_s

ROOT = Path(__file__).resolve().parent.parent


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, round(q * (len(ordered) - 1)))
    return ordered[index]


async def _drive(
    base: str,
    matches: int,
    hands: int,
    redis_url: str,
    seconds: float,
    rate: float,
    cpu_seconds: Callable[[], float],
    timeline: Path | None = None,
    cluster: bool = False,
) -> dict[str, float]:
    import aiohttp

    from king_match import MatchSettings, connect

    redis = connect(MatchSettings(redis_url=redis_url, cluster=cluster))
    load = Load(base, matches, hands, rate)
    if timeline is not None:
        load.timeline = []
    timeout = aiohttp.ClientTimeout(total=None, sock_read=120)
    connector = aiohttp.TCPConnector(limit=0, limit_per_host=0)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        players = []
        for start in range(0, matches * 4, 200):
            batch = [load.signup(session) for _ in range(min(200, matches * 4 - start))]
            players.extend(await asyncio.gather(*batch))
        groups = [players[i * 4 : i * 4 + 4] for i in range(matches)]
        # Warm the token cache (as a client's first request would) before the baseline.
        for group in groups:
            await asyncio.gather(*(session.get(f"{base}/v1/me", headers=h) for h in group))
        baseline, baseline_all = memory(redis)
        match_ids = []
        for start in range(0, matches, 100):
            chunk = groups[start : start + 100]
            match_ids.extend(await asyncio.gather(*(load.table(session, g) for g in chunk)))
        samples: list[tuple[int, int]] = []
        key_bytes: dict[str, int] = {}
        shares: list[float] = []
        # The load generator's own garbage collector: its heap only grows during play (the
        # latencies, the players' state), and full collections over it would be paid on this
        # machine's cores, which it shares with the service. What exists now is kept for good.
        gc.freeze()
        gc.set_threshold(50_000, 20, 100)
        started = time.perf_counter()
        cpu_started = cpu_seconds()
        redis_cpu_started = redis_cpu_s(redis)
        tasks = [
            asyncio.create_task(load.player(match_id, seat, group[seat]))
            for match_id, group in zip(match_ids, groups, strict=True)
            for seat in range(4)
        ]

        # Memory is read once play has gone on for a while (65 s, or 2 s before the end of a
        # shorter run, or at 60 % of the moves if the matches get that far first): the
        # rate-limiter counters of the set-up requests (sign-up, tables) are then expiring, as
        # they would have in a match that has been running for minutes, and every match is
        # still being played. Reading the key sizes (MEMORY USAGE of every key) loads Redis and
        # this process, so the latencies measured end when it starts.
        sample_at = min(65.0, max(0.75 * seconds, seconds - 2.0)) if seconds else 65.0
        sample_moves = 0.6 * matches * hands * 52

        async def sample() -> None:
            frozen = False
            while True:
                await asyncio.sleep(0.5)
                if not frozen and time.perf_counter() >= load.warmup_until:
                    # Every player is connected: its task, coroutine, connections and buffers
                    # live to the end. Frozen, this process's young collections no longer walk
                    # them (at N = 1,000 its young collections were 11–24 ms pauses, which
                    # delay the replies it reads as if the service were late).
                    gc.freeze()
                    frozen = True
                if load.finished:
                    continue
                # In a thread: a blocking Redis call here would stall every player of the
                # load generator (the key scan takes a round trip per key).
                samples.append(await asyncio.to_thread(memory, redis))
                late = time.perf_counter() - started >= sample_at or load.moves >= sample_moves
                if not key_bytes and late:
                    load.measure_until = time.perf_counter()
                    key_bytes.update(await asyncio.to_thread(read_key_bytes, redis))
                    if cluster:
                        shares.append(await asyncio.to_thread(primary_key_share, redis))
                    samples[:] = [samples[-1]]
                    return

        sampler = asyncio.create_task(sample())
        _done, pending = await asyncio.wait(tasks, timeout=seconds or None)
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds() - cpu_started
        redis_cpu = redis_cpu_s(redis) - redis_cpu_started
        moves = load.moves
        if load.measure_until != float("inf") and not sampler.done():
            # The key sizes are being read (it takes seconds at N = 1,000): let it finish
            # while the matches are still being played.
            await asyncio.wait([sampler], timeout=120)
        for task in pending:
            task.cancel()
        sampler.cancel()
    if timeline is not None and load.timeline is not None:
        timeline.write_bytes(orjson.dumps(load.timeline))
    mid, mid_all = samples[-1] if samples else (baseline, baseline_all)
    all_ms = [ms for _, ms in load.latencies]
    first = [ms for progress, ms in load.latencies if progress < 0.5]
    second = [ms for progress, ms in load.latencies if progress >= 0.5]
    return {
        "offered_moves_per_s": rate,  # 0: unpaced (every player moves as soon as it may)
        "moves_per_s": moves / elapsed,
        "move_p50_ms": _percentile(all_ms, 0.5),
        "move_p99_ms": _percentile(all_ms, 0.99),
        "move_p99_ms_warmup": _percentile(load.warmup, 0.99),
        "move_p50_ms_first_half": _percentile(first, 0.5),
        "move_p50_ms_second_half": _percentile(second, 0.5),
        "redis_bytes_per_match": (mid - baseline) / matches,
        "redis_bytes_per_match_with_connections": (mid_all - baseline_all) / matches,
        "redis_match_keys_bytes_per_match": key_bytes.get("match", 0) / matches,
        "redis_player_keys_bytes_per_match": key_bytes.get("player", 0) / matches,
        **{
            f"redis_bytes_per_match.{name[5:]}": size / matches
            for name, size in sorted(key_bytes.items())
            if name.startswith("kind:")
        },
        "matches_finished": load.finished,
        "moves": moves,
        "rejected_moves": load.errors,
        "seconds": elapsed,
        "mean_ms": statistics.fmean(all_ms) if all_ms else float("nan"),
        # The service's CPU (master and workers) during play only, over the moves: what
        # one move costs; and what both cores could serve at that cost with nothing else
        # running (the load generator and Redis share them here).
        "server_cpu_ms_per_move": 1000 * cpu / max(1, moves),
        "capacity_moves_per_s_2_cores": 2 * moves / max(cpu, 1e-9),
        # Redis's own CPU per move (the memory and key-size reads during play included).
        "redis_cpu_ms_per_move": 1000 * redis_cpu / max(1, moves),
        **({"max_primary_key_share": shares[0]} if shares else {}),
    }


def _cpu_seconds(parent: int) -> float:
    """User + system CPU seconds of ``parent`` and its children (the gunicorn workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid == parent or ppid == parent:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _wait_ready(base: str, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/readyz", timeout=2) as response:
                if response.status == 200:
                    return
        except Exception:
            time.sleep(0.3)
    raise RuntimeError("the game service did not become ready")


def run(
    sizes: list[int],
    hands: int,
    workers: int,
    seconds: float,
    rate: float = 0.0,
    timeline: Path | None = None,
    cluster: bool = False,
) -> dict[int, dict[str, float]]:
    """Each case on a fresh Redis, database and service, so no case inherits another's
    matches, open streams or warmed caches. ``timeline``: write each case's measured moves
    there as JSON ``[[wall-clock s, ms], ...]`` (``<name>.n<N><suffix>`` for several cases)."""
    return {
        size: _run_case(
            size,
            hands,
            workers,
            seconds,
            rate,
            cluster,
            None
            if timeline is None
            else timeline
            if len(sizes) == 1
            else timeline.with_name(f"{timeline.stem}.n{size}{timeline.suffix}"),
        )
        for size in sizes
    }


def _run_case(
    size: int,
    hands: int,
    workers: int,
    seconds: float,
    rate: float,
    cluster: bool = False,
    timeline: Path | None = None,
) -> dict[str, float]:
    """One case; with ``cluster`` the match state lives on a local three-primary cluster
    (the queues on their own Redis, as RQ needs)."""
    import uvloop

    from king_devservers import free_port, local_postgres_database, start_redis
    from king_devservers.cluster import start_cluster
    from king_game.migrate import migrate

    redis_server = start_redis()
    match_cluster = start_cluster() if cluster else None
    match_url = match_cluster.url if match_cluster else redis_server.url
    try:
        with local_postgres_database(prefix="king_bench") as database_url:
            migrate(database_url)
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            env = {
                **os.environ,
                # TCP, as a deployment reaches its Redis; BENCH_REDIS=unix for the Unix socket
                # (measured: no difference beyond the noise, see docs/benchmarks-api.md).
                "REDIS_URL": (
                    redis_server.unix_url
                    if redis_server.unix_url and os.environ.get("BENCH_REDIS") == "unix"
                    else redis_server.url
                ),
                "DATABASE_URL": database_url,
                **(
                    {
                        "REDIS_URL": match_url,
                        "REDIS_CLUSTER": "on",
                        "QUEUE_REDIS_URL": redis_server.url,
                    }
                    if cluster
                    else {}
                ),
                "KING_KEY_PREFIX": "bench:",
                "KING_LIVE_MOVE_MS": "600000",  # load must not make anyone lose on time
                "GAME_RATE_DEFAULT": "10000000/minute",
                "GAME_RATE_MOVES": "10000000/minute",
                "GAME_RATE_PER_ADDRESS": "10000000/minute",
                "GAME_RATE_SIGNUP": "10000000/minute",
                "GAME_EMBEDDED_SWEEPER": "on",
                # As deployed (Dockerfile, Compose, k8s): JSON logs, failed or slow requests
                # only in the request log.
                "KING_ENV": "production",
                "WEB_CONCURRENCY": str(workers),
            }
            command = [
                sys.executable,
                "-m",
                "gunicorn",
                "-c",
                str(ROOT / "deploy" / "gunicorn_game.py"),
                "--bind",
                f"127.0.0.1:{port}",
                "king_game.app:create_app()",
            ]
            process = subprocess.Popen(command, env=env, cwd=ROOT)
            try:
                _wait_ready(base, process)
                # uvloop: the load generator shares the cores with the service, so the
                # cheaper its event loop, the more of the machine the service gets.
                return uvloop.run(
                    _drive(
                        base,
                        size,
                        hands,
                        match_url,
                        seconds,
                        rate,
                        lambda: _cpu_seconds(process.pid),
                        timeline,
                        cluster,
                    )
                )
            finally:
                _stop_gunicorn(process)
    finally:
        redis_server.stop()
        if match_cluster is not None:
            match_cluster.stop()


def _stop_gunicorn(process: subprocess.Popen[bytes]) -> None:
    """Quick shutdown (SIGINT: open streams would hold a graceful one for its whole timeout),
    and wait for the workers too, so that none outlives Redis and logs its loss."""
    workers = _children(process.pid)
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    deadline = time.monotonic() + 10
    while workers and time.monotonic() < deadline:
        workers = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
        time.sleep(0.05)
    for pid in workers:
        os.kill(pid, signal.SIGKILL)


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_api", description=__doc__)
    parser.add_argument("--full", action="store_true", help="sweep N = 10, 100, 1000")
    parser.add_argument("--matches", type=int, default=100, help="concurrent matches (default 100)")
    parser.add_argument("--hands", type=int, default=8, choices=(8, 12, 20))
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="paced: offer this many moves/s in all (default: as fast as possible)",
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--seconds",
        type=float,
        default=90.0,
        help="stop each case after this long (0: play every match to the end)",
    )
    parser.add_argument(
        "--cluster",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also run 100 matches with the match state on a local three-primary Redis "
        "Cluster (api.cluster.*; default on)",
    )
    parser.add_argument(
        "--timeline",
        type=Path,
        help="write every measured move's (wall-clock time, ms) to this JSON file",
    )
    args = parser.parse_args(argv)
    sizes = [10, 100, 1000] if args.full else [args.matches]
    # The machine's own speed, on the engine's benchmark, before and after: this machine's
    # cores ran from ~9,000 to ~22,000 checked moves/s on different days, and every figure
    # below moves with it. Compare runs only at similar speeds (docs/benchmarks-api.md).
    speed_before = checked_moves_per_s(2.0)
    results = run(sizes, args.hands, args.workers, args.seconds, args.rate, args.timeline)
    clustered = {}
    if args.cluster:
        clustered = run([100], args.hands, args.workers, args.seconds, args.rate, cluster=True)
    speed_after = checked_moves_per_s(2.0)
    print(f"api.machine_checked_moves_per_s_before: {speed_before:.0f}")
    print(f"api.machine_checked_moves_per_s_after: {speed_after:.0f}")
    main_size = 100 if 100 in results else sizes[0]
    cases = [("api" if n == main_size else f"api.n{n}", n, f) for n, f in results.items()]
    cases += [("api.cluster", n, f) for n, f in clustered.items()]
    for prefix, size, figures in cases:
        print(f"{prefix}.matches: {size}")
        for name, value in figures.items():
            # CPU per move keeps three decimals: changes of a few per cent matter there.
            digits = 3 if name.endswith("cpu_ms_per_move") else 1
            print(
                f"{prefix}.{name}: {value:.{digits}f}"
                if isinstance(value, float)
                else f"{prefix}.{name}: {value}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
