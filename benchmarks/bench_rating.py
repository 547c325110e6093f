"""Rating service benchmarks: ``make bench`` (or ``python -c 'import ...; main([])'``).

Prints ``name: value`` lines:

* ``rating.dataset_generation_s`` - time to generate the data set (1,000,000 players,
  10,000,000 rating-history rows, the archive rows they belong to and the weekly scores derived
  from them). It is generated once, with set-based SQL, into the database ``king_bench_rating``
  on the server at ``$DATABASE_ADMIN_URL`` (default: the benchmark's own server, ``pgserver`` in
  the temporary folder with ``SERVER_SETTINGS``, left running for later runs), and reused by
  later runs; ``--regenerate`` rebuilds it. ``$BENCH_RATING_DATABASE_URL`` names another
  database.
* ``rating.ingest_matches_per_s`` - finished matches ingested per second through the store (one
  transaction per match: archive, Elo, history, board), 8 threads sharing one pool.
* ``rating.ingest_rq_matches_per_s`` - the whole path from the ``ratings`` queue to committed
  rows: a backlog of ``--rq-count`` (10,000) finished matches queued as the game service queues
  them, then three ``python -m king_rating.worker --burst`` processes (the batch loop; a worker
  waits for Postgres about half the time, so three keep two cores busy), timed from the first
  job they take until the last row is committed; ``rating.ingest_rq_per_job_matches_per_s`` the
  same with RQ's worker (``--per-job``), in the same run (``benchmarks/rating_queue.py``);
  ``rating.ingest_rq_cpu_ms_per_match`` is the workers' and Redis's CPU per match,
  ``rating.ingest_rq_postgres_cpu_ms_per_match`` their Postgres backends' (read from
  ``/proc``, so only with Postgres on this machine).
* ``rating.catchup_s`` / ``rating.catchup_per_job_s`` - matches finish at ``--catchup-rate``
  (100/s) throughout; the workers are down for ``--outage-s`` (30 s), then start: the seconds
  until they have caught up (``rating.catchup_backlog``: the backlog they started with).
  ``--queue`` runs only these figures.
* ``rating.board_top100_p99_ms`` / ``rating.my_rank_p99_ms`` - latency of
  ``GET /weekly/current?page_size=100`` and ``GET /weekly/current/players/<id>`` through the Flask
  app (in-process test client: routing, validation, SQL, serialization; no network).
* ``rating.quality_spearman_*`` - the rating-quality simulation: 1,000 players with hidden skill
  play random four-player matches, 100 each; Spearman correlation of rating with skill.

``--foreign-keys`` runs only what the foreign keys between the rating tables cost ingestion
(``rating.fk_*``): copies of a smaller data set (1,000,000 history rows) with the migrated
keys, with every key of 0001 and with none ingest the same matches in rotating order; per round
and as medians with their spread: matches per second, and CPU per match of the benchmark
process and its Postgres backends (read from ``/proc``; steadier than the rate on a shared
machine).
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from king_message import FinishedMatch, SeatResult, format_utc
from king_rating import elo, weekly
from king_rating.migrate import migrate

BENCH_DATABASE = "king_bench_rating"
DATASET_VERSION = "2"  # 2: ratings per ruleset (migration 0006)
PLAYERS = 1_000_000
MATCHES = 2_500_000  # four history rows each: 10,000,000
#: Share of all matches that fall in the benchmark's current week (a busy week).
CURRENT_WEEK_SHARE = 0.05
#: ``--foreign-keys`` compares copies of a data set a tenth of the size (generated once).
FK_DATABASE = "king_bench_rating_fk"
FK_PLAYERS = 100_000
FK_MATCHES = 250_000  # 1,000,000 history rows


def emit(name: str, value: object) -> None:
    print(f"{name}: {value}", flush=True)


# ------------------------------------------------------------------------ data set


#: The benchmark's own server when ``$DATABASE_ADMIN_URL`` names none: settings of a database
#: host sized for the rating service (a quarter of its 8 GB for shared buffers, so the players',
#: ratings' and recent history's index pages stay in memory; docs/capacity.md).
SERVER_SETTINGS = {"shared_buffers": "2GB", "max_wal_size": "4GB"}


@functools.cache
def admin_url() -> str:
    given = os.environ.get("DATABASE_ADMIN_URL")
    if given:
        return given
    from king_devservers import tuned_postgres

    return tuned_postgres(
        os.path.join(tempfile.gettempdir(), "king-bench-postgres"), SERVER_SETTINGS
    )


def bench_database_url() -> str:
    given = os.environ.get("BENCH_RATING_DATABASE_URL")
    if given:
        return given
    return database_url(BENCH_DATABASE)


def database_url(name: str) -> str:
    """Conninfo of the database ``name`` on the admin server, created empty if missing."""
    admin = admin_url()
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return make_conninfo(admin, dbname=name)


def dataset_meta(url: str) -> dict[str, str]:
    with psycopg.connect(url) as conn:
        found = conn.execute("SELECT to_regclass('bench_meta') IS NOT NULL").fetchone()
        if not found or not found[0]:
            return {}
        return dict(conn.execute("SELECT key, value FROM bench_meta").fetchall())


def reference_time() -> datetime:
    """The data set's "now": Saturday 12:00 (Istanbul) of the week it was generated in."""
    week = weekly.week_of(datetime.now(UTC))
    return (week.starts_at + timedelta(days=5, hours=12)).astimezone(UTC)


_DROP_FOR_LOAD = """
DROP INDEX IF EXISTS ratings_ladder;
DROP INDEX IF EXISTS rating_history_by_player;
DROP INDEX IF EXISTS weekly_scores_board;
ALTER TABLE rating_history DROP CONSTRAINT IF EXISTS rating_history_pkey;
ALTER TABLE weekly_scores DROP CONSTRAINT IF EXISTS weekly_scores_pkey;
ALTER TABLE matches DROP CONSTRAINT IF EXISTS matches_pkey;
ALTER TABLE players DROP CONSTRAINT IF EXISTS players_pkey;
ALTER TABLE ratings DROP CONSTRAINT IF EXISTS ratings_pkey;
"""

# The same definitions as the migrations leave them, rebuilt after the bulk load.
_RESTORE_AFTER_LOAD = """
ALTER TABLE players ADD PRIMARY KEY (player_id);
ALTER TABLE ratings ADD PRIMARY KEY (player_id, ruleset);
ALTER TABLE matches ADD PRIMARY KEY (match_id);
ALTER TABLE rating_history ADD PRIMARY KEY (match_id, player_id);
ALTER TABLE weekly_scores ADD PRIMARY KEY (week, ruleset, player_id);
CREATE INDEX ratings_ladder ON ratings (ruleset, rating DESC, player_id)
    WHERE rated_matches >= 15;
CREATE INDEX rating_history_by_player ON rating_history (player_id, ruleset, seq DESC);
CREATE INDEX weekly_scores_board
    ON weekly_scores (week, ruleset, score DESC, matches DESC, reached_at, player_id)
    WHERE matches >= 5;
"""


# The foreign keys that 0001 had and that stay dropped (0004 restored the others), for
# ``--foreign-keys``.
_OTHER_KEYS = """
ALTER TABLE match_players ADD FOREIGN KEY (match_id) REFERENCES matches ON DELETE CASCADE;
ALTER TABLE weekly_scores ADD FOREIGN KEY (week) REFERENCES weeks;
ALTER TABLE weekly_scores ADD FOREIGN KEY (player_id) REFERENCES players;
"""


def foreign_keys(conn: psycopg.Connection[Any]) -> list[tuple[str, str, str]]:
    """(table, constraint, definition) of every foreign key in the public schema."""
    rows = conn.execute(
        """
        SELECT t.relname, c.conname, pg_get_constraintdef(c.oid)
          FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
         WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
         ORDER BY c.conname
        """
    ).fetchall()
    return [(table, name, definition) for table, name, definition in rows]


def drop_foreign_keys(conn: psycopg.Connection[Any]) -> list[tuple[str, str, str]]:
    """Drop every foreign key; return what was dropped (for ``add_foreign_keys``)."""
    found = foreign_keys(conn)
    for table, name, _ in found:
        conn.execute(
            sql.SQL("ALTER TABLE {} DROP CONSTRAINT {}").format(
                sql.Identifier(table), sql.Identifier(name)
            )
        )
    return found


def add_foreign_keys(conn: psycopg.Connection[Any], keys: list[tuple[str, str, str]]) -> None:
    for table, name, definition in keys:
        conn.execute(
            sql.SQL("ALTER TABLE {} ADD CONSTRAINT {} {}").format(
                sql.Identifier(table), sql.Identifier(name), sql.SQL(definition)
            )
        )


def generate(url: str, players: int = PLAYERS, matches: int = MATCHES) -> float:
    """Build the data set from scratch with set-based SQL; return the seconds it took."""
    started = time.perf_counter()
    ref = reference_time()
    week = weekly.week_of(ref)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    migrate(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '1GB'")
        conn.execute("SET work_mem = '256MB'")
        conn.execute("SET synchronous_commit = off")
        # The migrations' foreign keys go for the load and are checked once after it.
        keys = drop_foreign_keys(conn)
        conn.execute(_DROP_FOR_LOAD)
        params = {
            "ref": ref,
            "week_start": week.starts_at,
            "share": CURRENT_WEEK_SHARE,
            "players": players,
            "matches": matches,
        }
        conn.execute(
            """
            INSERT INTO players (player_id, name, created_at, updated_at)
            SELECT 'p' || i, 'Player ' || i, %(ref)s, %(ref)s
              FROM generate_series(0, %(players)s - 1) AS i
            """,
            params,
        )
        # Everyone plays standard (the benchmark's matches are all of one ruleset).
        conn.execute(
            """
            INSERT INTO ratings (player_id, ruleset, rating, rated_matches, last_rated_at,
                                 updated_at)
            SELECT 'p' || i, 'standard',
                   1500 + 300 * (random() + random() + random() + random() - 2),
                   (random() * 300)::int,
                   %(ref)s - random() * interval '60 days', %(ref)s
              FROM generate_series(0, %(players)s - 1) AS i
            """,
            params,
        )
        # Activity is skewed (a few players play a lot): a match's first seat is drawn with
        # density falling like x^-1/2; the other seats are fixed strides from it, so the four
        # players of a match are always distinct.
        conn.execute(
            """
            CREATE UNLOGGED TABLE bench_gen AS
            SELECT m, md5('m' || m)::uuid AS match_id,
                   CASE WHEN random() < %(share)s
                        THEN %(week_start)s + random() * (%(ref)s - %(week_start)s)
                        ELSE %(week_start)s - random() * interval '364 days' END AS ended_at,
                   floor((%(players)s - 1) * power(random(), 2))::int AS first_seat
              FROM generate_series(1, %(matches)s) AS m
            """,
            params,
        )
        conn.execute(
            """
            INSERT INTO matches (match_id, schema_version, mode, ranked, ruleset, hands,
                                 outcome, started_at, ended_at, rated, week, board_applied,
                                 fairness)
            SELECT match_id, 1, 'live', true, 'standard', 20, 'finished',
                   ended_at - interval '40 minutes', ended_at, true,
                   to_char(ended_at AT TIME ZONE 'Europe/Istanbul', 'IYYY-"W"IW'), true,
                   '{}'::jsonb
              FROM bench_gen
            """
        )
        conn.execute(
            """
            INSERT INTO rating_history (player_id, match_id, ruleset, ended_at, rating_before,
                                        rating_after, delta, k, place, rated_matches_before)
            SELECT 'p' || ((g.first_seat + s.seat * 7919) %% %(players)s), g.match_id,
                   'standard', g.ended_at, 1500, 1500 + (2.5 - pl.place) * 8,
                   (2.5 - pl.place) * 8, 24, pl.place, 20
              FROM bench_gen g
             CROSS JOIN generate_series(0, 3) AS s(seat)
             CROSS JOIN LATERAL (SELECT ((s.seat + g.m) %% 4) + 1 AS place) AS pl
            """,
            params,
        )
        weeks = [weekly.week_of(ref - timedelta(days=7 * back)) for back in range(55)]
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO weeks (week, starts_at, ends_at, frozen_at) VALUES (%s, %s, %s, %s)",
                [(w.label, w.starts_at, w.ends_at, None) for w in weeks],
            )
        conn.execute(
            """
            INSERT INTO weekly_scores (week, ruleset, player_id, points_x2, matches, score,
                                       reached_at, last_match_at)
            SELECT week, 'standard', player_id, sum(points), count(*),
                   (sum(points) + 30)::float8 / (2 * (count(*) + 10)),
                   max(ended_at), max(ended_at)
              FROM (SELECT to_char(ended_at AT TIME ZONE 'Europe/Istanbul', 'IYYY-"W"IW')
                               AS week,
                           player_id, 2 * (4 - place) AS points, ended_at
                      FROM rating_history) AS h
             GROUP BY week, player_id
            """
        )
        conn.execute("DROP TABLE bench_gen")
        conn.execute(_RESTORE_AFTER_LOAD)
        add_foreign_keys(conn, keys)
        conn.execute("VACUUM ANALYZE")
        elapsed = time.perf_counter() - started
        conn.execute("CREATE TABLE bench_meta (key text PRIMARY KEY, value text NOT NULL)")
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO bench_meta VALUES (%s, %s)",
                [
                    ("version", DATASET_VERSION),
                    ("reference_time", ref.isoformat()),
                    ("generation_s", f"{elapsed:.1f}"),
                    ("players", str(players)),
                ],
            )
    return elapsed


# ------------------------------------------------------------------------ helpers


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def skewed_player(rng: random.Random, players: int = PLAYERS) -> int:
    return int((players - 1) * rng.random() ** 2)


def random_messages(
    count: int, start: datetime, seed: int, players: int = PLAYERS
) -> list[FinishedMatch]:
    """Ranked matches among skewed-activity players, ending 1 ms apart from ``start`` on.

    Finished matches reach the service roughly in the order they ended, so the benchmark
    sends them that way (the out-of-order path is exercised by the tests).
    """
    rng = random.Random(seed)
    messages = []
    for index in range(count):
        first = skewed_player(rng, players)
        ids = [f"p{(first + seat * 7919) % players}" for seat in range(4)]
        places = [1, 2, 3, 4]
        rng.shuffle(places)
        ended = start + timedelta(milliseconds=index)
        messages.append(
            FinishedMatch(
                match_id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
                mode="live",
                ranked=True,
                ruleset="standard",
                hands=20,
                players=tuple(
                    SeatResult(
                        seat=seat,
                        player_id=pid,
                        name=f"Player {pid[1:]}",
                        is_bot=False,
                        total=100 - 10 * place,
                        place=place,
                    )
                    for seat, (pid, place) in enumerate(zip(ids, places, strict=True))
                ),
                started_at=format_utc(ended - timedelta(minutes=40)),
                ended_at=format_utc(ended),
                outcome="finished",
                fairness={"server_seed": f"{rng.getrandbits(256):064x}"},
            )
        )
    return messages


def next_messages(url: str, count: int, seed: int | None = None) -> list[FinishedMatch]:
    """Messages that end after every match already in the data set, in the week after the
    reference week, so that ingesting them leaves the board the read benchmarks use alone.
    The clock is kept in the data set; two copies with the same clock and seed get the same
    messages."""
    with psycopg.connect(url) as conn:
        meta = dict(conn.execute("SELECT key, value FROM bench_meta").fetchall())
        ref = datetime.fromisoformat(meta["reference_time"])
        start = weekly.week_of(ref).ends_at.astimezone(UTC) + timedelta(hours=1)
        if "clock" in meta:
            start = max(start, datetime.fromisoformat(meta["clock"]) + timedelta(milliseconds=1))
        conn.execute(
            "INSERT INTO bench_meta VALUES ('clock', %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            ((start + timedelta(milliseconds=count)).isoformat(),),
        )
    players = int(meta.get("players", PLAYERS))
    return random_messages(
        count, start, seed=time.time_ns() if seed is None else seed, players=players
    )


def forget_matches(url: str, messages: list[FinishedMatch]) -> None:
    """Take the benchmark's own matches out again, so the data set keeps its size: archive,
    history and their week's scores (the players' ratings keep the effect, harmlessly)."""
    ids = [m.match_id for m in messages]
    weeks = sorted({weekly.week_of(m.ended).label for m in messages})
    with psycopg.connect(url) as conn:
        conn.execute("DELETE FROM rating_history WHERE match_id = ANY(%s::uuid[])", (ids,))
        conn.execute("DELETE FROM match_players WHERE match_id = ANY(%s::uuid[])", (ids,))
        conn.execute("DELETE FROM matches WHERE match_id = ANY(%s::uuid[])", (ids,))
        conn.execute("DELETE FROM weekly_scores WHERE week = ANY(%s)", (weeks,))


# ------------------------------------------------------------------------ benchmarks


def bench_ingest(url: str, count: int, threads: int) -> float:
    return ingest_run(url, next_messages(url, count), threads).per_s


@dataclass(frozen=True, slots=True)
class IngestRun:
    per_s: float
    #: CPU per match of this process and of its Postgres backends (None when the server's
    #: processes cannot be read here); on a shared machine it varies less than the rate.
    cpu_ms: float | None
    server_cpu_ms: float | None

    def __str__(self) -> str:
        if self.cpu_ms is None or self.server_cpu_ms is None:
            return f"{self.per_s:.0f}/s"
        return f"{self.per_s:.0f}/s {self.cpu_ms:.2f} ms ({self.server_cpu_ms:.2f} server)"


def ingest_run(url: str, messages: list[FinishedMatch], threads: int) -> IngestRun:
    """Ingest through ``Store.ingest`` from ``threads`` threads sharing one pool; the matches
    are forgotten again afterwards."""
    from king_rating.store import Store

    count = len(messages)
    store = Store(url, min_size=threads, max_size=threads)
    store.pool.wait()
    with store.pool.connection() as conn:
        backends = [
            row[0]
            for row in conn.execute(
                "SELECT pid FROM pg_stat_activity "
                "WHERE datname = current_database() AND backend_type = 'client backend'"
            )
        ]
    chunks = [messages[i::threads] for i in range(threads)]

    def run(chunk: list[FinishedMatch]) -> None:
        for message in chunk:
            store.ingest(message)

    workers = [threading.Thread(target=run, args=(chunk,)) for chunk in chunks]
    server_before = process_cpu_s(backends)
    client_before = time.process_time()
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started
    client = time.process_time() - client_before
    server_after = process_cpu_s(backends)
    store.close()
    forget_matches(url, messages)
    if server_before is None or server_after is None:
        return IngestRun(count / elapsed, None, None)
    server = server_after - server_before
    return IngestRun(count / elapsed, 1000 * (client + server) / count, 1000 * server / count)


def process_cpu_s(pids: list[int]) -> float | None:
    """User + system CPU seconds of these processes so far (Linux ``/proc``), or None."""
    total = 0
    try:
        for pid in pids:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    except OSError:
        return None
    return total / os.sysconf("SC_CLK_TCK")


def bench_foreign_keys(count: int, rounds: int, threads: int) -> None:
    """What the foreign keys cost an ingestion, side by side on copies of one data set: the
    migrated schema (``migrated``), the same with the keys that stay dropped (``all_keys``,
    ``_OTHER_KEYS``) and with no foreign key (``no_keys``: the keys of the schema before
    0004); the same matches into each, in rotating order, one after the other."""
    migrated = database_url(FK_DATABASE)
    meta = dataset_meta(migrated)
    if meta.get("version") != DATASET_VERSION or meta.get("players") != str(FK_PLAYERS):
        emit("rating.fk_dataset_generation_s", f"{generate(migrated, FK_PLAYERS, FK_MATCHES):.1f}")
    migrate(migrated)
    with psycopg.connect(migrated) as conn:
        history = conn.execute("SELECT count(*) FROM rating_history").fetchone()
    emit("rating.fk_dataset_rating_history_rows", history[0] if history else 0)

    def all_keys(conn: psycopg.Connection[Any]) -> None:
        conn.execute(_OTHER_KEYS)

    def no_keys(conn: psycopg.Connection[Any]) -> None:
        drop_foreign_keys(conn)

    variants = {
        "all_keys": copy_database(FK_DATABASE, all_keys),
        "migrated": migrated,
        "no_keys": copy_database(FK_DATABASE, no_keys),
    }
    names = list(variants)
    for name in names:  # warm-up: caches and the first plans, not counted
        ingest_run(variants[name], next_messages(variants[name], count, seed=0), threads)
    runs: dict[str, list[IngestRun]] = {name: [] for name in names}
    for index in range(rounds):
        order = names[index % len(names) :] + names[: index % len(names)]
        for name in order if index % 2 == 0 else order[::-1]:
            url = variants[name]
            runs[name].append(ingest_run(url, next_messages(url, count, seed=index + 1), threads))
        emit(f"rating.fk_round_{index + 1}", ", ".join(f"{n} {runs[n][-1]}" for n in names))
    for name in names:
        emit(
            f"rating.fk_{name}_matches_per_s",
            f"{statistics.median(r.per_s for r in runs[name]):.0f}",
        )
        if all(r.cpu_ms is not None for r in runs[name]):
            emit(
                f"rating.fk_{name}_cpu_ms_per_match",
                f"{statistics.median(r.cpu_ms or 0 for r in runs[name]):.2f}",
            )
    for name in ("migrated", "all_keys"):
        pairs = list(zip(runs[name], runs["no_keys"], strict=True))
        emit_cost(
            f"rating.fk_{name}_rate_cost_pct", [100 * (1 - k.per_s / n.per_s) for k, n in pairs]
        )
        if all(k.cpu_ms and n.cpu_ms for k, n in pairs):
            emit_cost(
                f"rating.fk_{name}_cpu_cost_pct",
                [100 * ((k.cpu_ms or 0) / (n.cpu_ms or 1) - 1) for k, n in pairs],
            )
    with psycopg.connect(admin_url(), autocommit=True) as conn:
        for name in ("all_keys", "no_keys"):
            database = str(conninfo_to_dict(variants[name])["dbname"])
            conn.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(database)))


def copy_database(template: str, change: Callable[[psycopg.Connection[Any]], None]) -> str:
    """A fresh copy of the database ``template`` (named after it, with a suffix) with
    ``change`` applied; its conninfo."""
    name = f"{template}_{change.__name__}"
    with psycopg.connect(admin_url(), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)
            )
        )
    url = make_conninfo(admin_url(), dbname=name)
    with psycopg.connect(url, autocommit=True) as conn:
        change(conn)
    return url


def emit_cost(name: str, costs: list[float]) -> None:
    """Median of the rounds' costs, then their spread."""
    emit(name, f"{statistics.median(costs):.1f} (rounds {min(costs):.1f} .. {max(costs):.1f})")


def bench_queue(url: str, args: argparse.Namespace) -> None:
    """The queue figures, batch worker and RQ's worker (``--per-job``) in alternation, each
    on its own fresh matches (``benchmarks/rating_queue.py``)."""
    from benchmarks import rating_queue

    paths = {"batch": False, "per_job": True}
    if args.skip_per_job:
        paths.pop("per_job")
    rates: dict[str, list[float]] = {name: [] for name in paths}
    cpu: dict[str, list[float]] = {name: [] for name in paths}
    postgres: dict[str, list[float]] = {name: [] for name in paths}
    for index in range(args.rq_rounds):
        for name in paths if index % 2 == 0 else list(paths)[::-1]:
            run = rating_queue.backlog_run(
                url,
                next_messages(url, args.rq_count),
                processes=args.rq_processes,
                per_job=paths[name],
                batch_size=args.batch_size,
                forget=forget_matches,
            )
            rates[name].append(run.per_s)
            cpu[name].append(run.worker_cpu_ms + run.redis_cpu_ms)
            backends = ""
            if run.postgres_cpu_ms is not None:
                postgres[name].append(run.postgres_cpu_ms)
                backends = f" (+ {run.postgres_cpu_ms:.2f} ms postgres)"
            emit(
                f"rating.ingest_rq_{name}_round_{index + 1}",
                f"{run.per_s:.0f}/s, CPU per match {run.worker_cpu_ms:.2f} ms workers"
                f" + {run.redis_cpu_ms:.2f} ms redis{backends}",
            )
            if run.failed:
                emit(f"rating.ingest_rq_{name}_failed_jobs", run.failed)
    for name, values in rates.items():
        label = (
            "rating.ingest_rq_matches_per_s"
            if name == "batch"
            else ("rating.ingest_rq_per_job_matches_per_s")
        )
        emit(label, f"{statistics.median(values):.0f}")
        emit(
            f"{label.removesuffix('matches_per_s')}cpu_ms_per_match",
            f"{statistics.median(cpu[name]):.2f}",
        )
        if postgres[name]:
            emit(
                f"{label.removesuffix('matches_per_s')}postgres_cpu_ms_per_match",
                f"{statistics.median(postgres[name]):.2f}",
            )
    for name, per_job in paths.items():
        seconds, backlog = rating_queue.catchup_run(
            url,
            next_messages(url, int(args.catchup_rate * (args.outage_s + 150))),
            rate=args.catchup_rate,
            outage_s=args.outage_s,
            processes=args.rq_processes,
            per_job=per_job,
            batch_size=args.batch_size,
            forget=forget_matches,
        )
        suffix = "" if name == "batch" else "_per_job"
        emit(f"rating.catchup{suffix}_s", f"{seconds:.1f}")
        emit(f"rating.catchup{suffix}_backlog", backlog)


def bench_latency(call: Callable[[], Any], runs: int, warmup: int = 50) -> list[float]:
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def bench_reads(url: str, ref: datetime, runs: int) -> None:
    from king_rating.app import create_app
    from king_rating.config import Settings
    from king_rating.store import Store

    store = Store(url, min_size=2, max_size=4)
    app = create_app(Settings(database_url=url), store=store, clock=lambda: ref)
    client = app.test_client()
    week = weekly.week_of(ref)
    with psycopg.connect(url) as conn:
        eligible = conn.execute(
            "SELECT count(*) FROM weekly_scores WHERE week = %s AND matches >= %s",
            (week.label, weekly.MIN_MATCHES),
        ).fetchone()
        sample = [
            row[0]
            for row in conn.execute(
                "SELECT player_id FROM weekly_scores WHERE week = %s AND matches >= %s "
                "ORDER BY random() LIMIT %s",
                (week.label, weekly.MIN_MATCHES, runs),
            )
        ]
    emit("rating.board_eligible_players_current_week", eligible[0] if eligible else 0)

    def top100() -> None:
        response = client.get("/weekly/current?page_size=100")
        assert response.status_code == 200 and len(response.get_json()["items"]) == 100

    board = bench_latency(top100, runs)
    emit("rating.board_top100_p50_ms", f"{statistics.median(board):.2f}")
    emit("rating.board_top100_p99_ms", f"{percentile(board, 0.99):.2f}")

    players = iter(sample * 2)

    def my_rank() -> None:
        response = client.get(f"/weekly/current/players/{next(players)}?neighbours=2")
        assert response.status_code == 200 and response.get_json()["rank"] is not None

    ranks = bench_latency(my_rank, len(sample), warmup=min(50, len(sample)))
    emit("rating.my_rank_p50_ms", f"{statistics.median(ranks):.2f}")
    emit("rating.my_rank_p99_ms", f"{percentile(ranks, 0.99):.2f}")
    store.close()


# ------------------------------------------------------------------------ rating quality


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        result = [0.0] * len(values)
        for rank, index in enumerate(order):
            result[index] = float(rank)
        return result

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    squared = sum((a - b) ** 2 for a, b in zip(rx, ry, strict=True))
    return 1 - 6 * squared / (n * (n * n - 1))


def simulate_population(
    luck: float, players: int = 1000, rounds: int = 100, seed: int = 7
) -> tuple[list[float], list[float]]:
    """(ratings, hidden skills) after ``rounds`` rounds: skill ~ N(0, 1), a match's
    performance is skill + N(0, luck), places follow it, ratings follow production Elo.

    Every round deals all players into random tables of four, so after ``rounds`` rounds each
    has played exactly ``rounds`` matches.
    """
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(players)]
    rating = [elo.INITIAL_RATING] * players
    played = [0] * players
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        for start in range(0, players - players % 4, 4):
            table = order[start : start + 4]
            performance = [skill[i] + rng.gauss(0, luck) for i in table]
            places = [1 + sum(1 for other in performance if other > mine) for mine in performance]
            changes = elo.rate_match([rating[i] for i in table], [played[i] for i in table], places)
            for index, change in zip(table, changes, strict=True):
                rating[index] = change.rating_after
                played[index] += 1
    return rating, skill


def simulate_quality(luck: float, players: int = 1000, rounds: int = 100, seed: int = 7) -> float:
    """Spearman correlation of rating with hidden skill (``simulate_population``)."""
    rating, skill = simulate_population(luck, players, rounds, seed)
    return spearman(rating, skill)


#: "Moderate luck": per-match noise 1.5 times the spread of skill. At this level the
#: simulation reproduces the 0.976 that RATING.md's rationale reports for this Elo variant.
MODERATE_LUCK = 1.5


def bench_quality() -> None:
    for name, luck in (("low", 1.0), ("moderate", MODERATE_LUCK), ("high", 2.0)):
        values = [simulate_quality(luck, seed=seed) for seed in (1, 2, 3)]
        emit(f"rating.quality_spearman_{name}_luck", f"{statistics.mean(values):.4f}")


# ------------------------------------------------------------------------ entry point


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_rating")
    parser.add_argument("--regenerate", action="store_true", help="rebuild the data set")
    parser.add_argument("--ingest-count", type=int, default=4000)
    parser.add_argument("--read-runs", type=int, default=1000)
    parser.add_argument(
        "--foreign-keys", action="store_true", help="only the side-by-side cost of the keys"
    )
    parser.add_argument("--rounds", type=int, default=6, help="rounds of --foreign-keys")
    parser.add_argument("--queue", action="store_true", help="only the queue figures")
    parser.add_argument("--rq-count", type=int, default=10_000, help="backlog of a queue run")
    parser.add_argument("--rq-rounds", type=int, default=1)
    parser.add_argument("--rq-processes", type=int, default=3, help="worker processes")
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument("--skip-per-job", action="store_true", help="not RQ's worker")
    parser.add_argument("--catchup-rate", type=float, default=100, help="matches/s finishing")
    parser.add_argument("--outage-s", type=float, default=30, help="workers down this long")
    args, _ = parser.parse_known_args(argv)

    if args.foreign_keys:
        bench_foreign_keys(args.ingest_count, args.rounds, 8)
        return

    if not args.queue:
        bench_quality()
    url = bench_database_url()
    meta = dataset_meta(url)
    if args.regenerate or meta.get("version") != DATASET_VERSION:
        generated = generate(url)
        meta = dataset_meta(url)
        emit("rating.dataset_generation_s", f"{generated:.1f}")
        emit("rating.dataset_reused", "no")
    else:
        emit("rating.dataset_generation_s", meta.get("generation_s", "?"))
        emit("rating.dataset_reused", "yes")
    migrate(url)  # a data set from an older schema gets the newer migrations
    with psycopg.connect(url) as conn:
        counts = conn.execute(
            "SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM rating_history)"
        ).fetchone()
    assert counts is not None
    emit("rating.dataset_players", counts[0])
    emit("rating.dataset_rating_history_rows", counts[1])
    ref = datetime.fromisoformat(meta["reference_time"])
    if args.queue:
        bench_queue(url, args)
        return
    emit("rating.ingest_matches_per_s", f"{bench_ingest(url, args.ingest_count, 8):.0f}")
    bench_queue(url, args)
    bench_reads(url, ref, args.read_runs)


if __name__ == "__main__":
    main(sys.argv[1:])
