"""Ingest many finished matches in one Postgres transaction, with the result of one at a time.

``ingest_batch(store, messages)`` leaves the database exactly as ``Store.ingest`` called on each
message in turn would (the tests compare the two), in a handful of round trips for the whole
batch instead of two per match and one commit:

1. one pipelined round trip: the batch's weeks are held in share mode (a freeze waits for us);
   the archive rows go in with ``ON CONFLICT (match_id) DO NOTHING``, so the match id stays the
   idempotency key and the rows that come back are the new matches, with their seats and the
   people not seen before (in player-id order); only then is every person of the batch locked
   ``FOR UPDATE`` in player-id order (the order every ingestion locks in), and their names,
   current ratings and week rows are read. Archiving before locking keeps the archive's writes
   out of the time other batches that share a player wait for these locks;
2. in Python, the new matches in batch order: Elo (each match sees the ratings the matches
   before it left), the week standings (``weekly.add_match``), which weeks need a replay from
   the archive because a match ended before a player's latest one, and whose name changed;
3. one pipelined round trip writes the names, the ratings, the history (in batch order, so its
   ``seq`` is the order of application) and the week rows, replays those weeks, and commits.

A match id already in the archive, or seen earlier in the same batch, is a duplicate and
changes nothing, so a batch retried after a crash (committed or not) applies each match once.
Ratings and week standings are per ruleset: a player's rating is kept under (player, ruleset)
and their week under (week, ruleset, player).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import orjson
import psycopg
from psycopg import errors

from king_message import FinishedMatch
from king_rating import elo, weekly
from king_rating.store import (
    MAX_TRANSACTION_ATTEMPTS,
    Ingested,
    Store,
    require_rated_ruleset,
)


@dataclass(slots=True)
class _Player:
    rating: float
    rated_matches: int
    rated_here: int = 0
    last_rated_at: datetime | None = None


@dataclass(slots=True)
class _Plan:
    """What the batch's new matches do, computed in batch order."""

    #: By (player id, ruleset).
    players: dict[tuple[str, str], _Player] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    #: By (week, ruleset, player id).
    weeks: dict[tuple[str, str, str], weekly.Standing] = field(default_factory=dict)
    replay: set[tuple[str, str, str]] = field(default_factory=set)


def ingest_batch(store: Store, messages: Sequence[FinishedMatch]) -> list[Ingested]:
    """Archive and rate ``messages`` in their order, in one transaction; one result each."""
    for message in messages:
        require_rated_ruleset(message)
    first: dict[str, int] = {}
    for index, message in enumerate(messages):
        first.setdefault(message.match_id, index)
    unique = [m for i, m in enumerate(messages) if first[m.match_id] == i]
    weeks = {m.match_id: weekly.week_of(m.ended) for m in unique if m.is_rated}
    for week in {w.label: w for w in weeks.values()}.values():
        if week.label not in store._weeks_created:
            store._create_week(week)
    # Built before the transaction: the players' locks are held while it runs, and other
    # batches that share a player wait for them.
    archive = {"matches": _match_rows(unique, weeks), "seats": _seat_rows(unique, weeks)}
    for attempt in range(1, MAX_TRANSACTION_ATTEMPTS + 1):
        try:
            with store.pool.connection() as conn:
                outcome = _ingest(conn, unique, weeks, archive)
            break
        except (errors.DeadlockDetected, errors.SerializationFailure):
            if attempt == MAX_TRANSACTION_ATTEMPTS:
                raise
            time.sleep(0.01 * attempt)
        except psycopg.OperationalError:
            # A pooled connection can die with the server: one more try on a fresh one.
            if attempt >= 2:
                raise
    return [
        outcome[m.match_id] if first[m.match_id] == i else Ingested.DUPLICATE
        for i, m in enumerate(messages)
    ]


def _dumps(value: object) -> str:
    """JSON for a ``::jsonb`` parameter (datetimes in ISO 8601); orjson costs a fraction of
    ``json.dumps`` on a batch's thousands of rows."""
    return orjson.dumps(value).decode()


def _match_rows(messages: Sequence[FinishedMatch], weeks: dict[str, weekly.Week]) -> str:
    return _dumps(
        [
            {
                "match_id": m.match_id,
                "schema_version": m.schema_version,
                "mode": m.mode,
                "ranked": m.ranked,
                "ruleset": m.ruleset,
                "hands": m.hands,
                "outcome": m.outcome,
                "started_at": m.started_at,
                "ended_at": m.ended_at,
                "rated": m.match_id in weeks,
                "week": weeks[m.match_id].label if m.match_id in weeks else None,
                "fairness": m.fairness,
            }
            for m in messages
        ]
    )


def _seat_rows(messages: Sequence[FinishedMatch], weeks: dict[str, weekly.Week]) -> str:
    rows = []
    for order, message in enumerate(messages):
        seats = message.players
        points: Sequence[int | None] = [None] * len(seats)
        if message.match_id in weeks:
            points = weekly.points_x2([s.place for s in seats], [s.forfeited for s in seats])
        for seat, p in zip(seats, points, strict=True):
            rows.append(
                {
                    "ord": order,
                    "match_id": message.match_id,
                    "seat": seat.seat,
                    "player_id": seat.player_id,
                    "name": seat.name,
                    "is_bot": seat.is_bot,
                    "is_guest": seat.is_guest,
                    "total": seat.total,
                    "place": seat.place,
                    "forfeited": seat.forfeited,
                    "forfeit_order": seat.forfeit_order,
                    "left_at": seat.left_at,
                    "points_x2": p,
                    "ruleset": message.ruleset,
                    "ended_at": message.ended_at,
                    "week": weeks[message.match_id].label if message.match_id in weeks else None,
                }
            )
    return _dumps(rows)


def _ingest(
    conn: psycopg.Connection[Any],
    messages: Sequence[FinishedMatch],
    weeks: dict[str, weekly.Week],
    archive: dict[str, str],
) -> dict[str, Ingested]:
    people = sorted({s.player_id for m in messages for s in m.players if not s.is_bot})
    labels = sorted({w.label for w in weeks.values()})
    with conn.pipeline(), conn.transaction():
        conn.execute("SELECT 1 FROM weeks WHERE week = ANY(%s) ORDER BY week FOR SHARE", (labels,))
        archived = conn.execute(_ARCHIVE_BATCH, archive)
        # A statement of its own, after the archive (which added the people not seen before):
        # one that waited for a lock sees the locked rows as they are now.
        named = conn.execute(
            "SELECT player_id, name, is_guest FROM players WHERE player_id = ANY(%s) "
            "ORDER BY player_id FOR UPDATE",
            (people,),
        )
        # Every ruleset's rating of these players: the locks above keep them as read.
        locked = conn.execute(
            "SELECT player_id, ruleset, rating, rated_matches, last_rated_at FROM ratings "
            "WHERE player_id = ANY(%s)",
            (people,),
        )
        standings = conn.execute(
            "SELECT week, ruleset, player_id, points_x2, matches, score, reached_at, "
            "last_match_at FROM weekly_scores WHERE week = ANY(%s) AND player_id = ANY(%s)",
            (labels, people),
        )
        current = {
            (pid, ruleset): _Player(rating, n, last_rated_at=last)
            for pid, ruleset, rating, n, last in locked.fetchall()
        }
        new = {str(match_id): on_board for match_id, on_board in archived.fetchall()}
        plan = _Plan(
            weeks={
                (week, ruleset, pid): weekly.Standing(points, n, score, reached, last)
                for week, ruleset, pid, points, n, score, reached, last in standings.fetchall()
            }
        )
        names = {pid: (name, guest) for pid, name, guest in named.fetchall()}
        original = dict(names)
        outcome = {m.match_id: Ingested.DUPLICATE for m in messages}
        for message in messages:
            if message.match_id not in new:
                continue
            for seat in message.players:
                if not seat.is_bot:
                    names[seat.player_id] = (seat.name, seat.is_guest)
            week = weeks.get(message.match_id)
            if week is None:
                outcome[message.match_id] = Ingested.ARCHIVED
                continue
            on_board = new[message.match_id]
            _rate(plan, current, message, week, on_board)
            outcome[message.match_id] = Ingested.RATED if on_board else Ingested.RATED_LATE
        if plan.history:
            _write(conn, plan)
        _rename(conn, names, original)
    return outcome


def _rename(
    conn: psycopg.Connection[Any],
    names: dict[str, tuple[str, bool]],
    original: dict[str, tuple[str, bool]],
) -> None:
    """Names and the guest mark as the batch's last new match of each person left them."""
    changed = [
        {"player_id": pid, "name": name, "is_guest": guest}
        for pid, (name, guest) in sorted(names.items())
        if original.get(pid) != (name, guest)
    ]
    if changed:
        conn.execute(_RENAME_BATCH, {"people": _dumps(changed)})


def _rate(
    plan: _Plan,
    current: dict[tuple[str, str], _Player],
    message: FinishedMatch,
    week: weekly.Week,
    on_board: bool,
) -> None:
    seats = message.players
    ended = message.ended
    ruleset = message.ruleset
    players = []
    for seat in seats:
        key = (seat.player_id, ruleset)
        player = plan.players.get(key) or current.get(key)
        if player is None:  # no rated match in this ruleset yet
            player = _Player(elo.INITIAL_RATING, 0)
        plan.players[key] = player
        players.append(player)
    places = [s.place for s in seats]
    changes = elo.rate_match(
        [p.rating for p in players], [p.rated_matches for p in players], places
    )
    points = weekly.points_x2(places, [s.forfeited for s in seats])
    for seat, player, change, p in zip(seats, players, changes, points, strict=True):
        player.rating = change.rating_after
        player.rated_matches += 1
        player.rated_here += 1
        if player.last_rated_at is None or ended > player.last_rated_at:
            player.last_rated_at = ended
        plan.history.append(
            {
                "ord": len(plan.history),
                "player_id": seat.player_id,
                "match_id": message.match_id,
                "ruleset": ruleset,
                "ended_at": message.ended_at,
                "before": change.rating_before,
                "after": change.rating_after,
                "delta": change.delta,
                "k": change.k,
                "place": change.place,
                "played": change.rated_matches_before,
            }
        )
        if not on_board:
            continue
        week_key = (week.label, ruleset, seat.player_id)
        standing = plan.weeks.get(week_key, weekly.EMPTY)
        after = weekly.add_match(standing, ended, p)
        if standing.last_match_at is not None and standing.last_match_at > ended:
            # Replayed from the archive once the batch is written; only the latest end time
            # matters until then.
            plan.replay.add(week_key)
            after = replace(after, last_match_at=standing.last_match_at)
        plan.weeks[week_key] = after


def _write(conn: psycopg.Connection[Any], plan: _Plan) -> None:
    conn.execute(
        _RATE_BATCH,
        {
            "players": _dumps(
                [
                    {
                        "player_id": pid,
                        "ruleset": ruleset,
                        "rating": p.rating,
                        "added": p.rated_here,
                        "last": p.last_rated_at,
                    }
                    for (pid, ruleset), p in sorted(plan.players.items())
                ]
            ),
            "history": _dumps(plan.history),
        },
    )
    rows = [
        {
            "week": week,
            "ruleset": ruleset,
            "player_id": pid,
            "points_x2": s.points_x2,
            "matches": s.matches,
            "score": s.score,
            "reached_at": s.reached_at,
            "last_match_at": s.last_match_at,
        }
        for (week, ruleset, pid), s in sorted(plan.weeks.items())
        if s.matches and (week, ruleset, pid) not in plan.replay
    ]
    if rows:
        conn.execute(_WEEKS_BATCH, {"rows": _dumps(rows)})
    for week_label, ruleset, player_id in sorted(plan.replay):
        week = weekly.parse_week_label(week_label)
        played = conn.execute(
            "SELECT ended_at, points_x2 FROM match_players WHERE player_id = %s "
            "AND ended_at >= %s AND ended_at < %s AND week = %s AND ruleset = %s",
            (player_id, week.starts_at, week.ends_at, week.label, ruleset),
        ).fetchall()
        s = weekly.standing_from((ended_at, points) for ended_at, points in played)
        conn.execute(
            """
            INSERT INTO weekly_scores AS w (week, ruleset, player_id, points_x2, matches, score,
                                            reached_at, last_match_at)
            VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
            ON CONFLICT (week, ruleset, player_id) DO UPDATE SET
                points_x2 = EXCLUDED.points_x2, matches = EXCLUDED.matches,
                score = EXCLUDED.score, reached_at = EXCLUDED.reached_at,
                last_match_at = EXCLUDED.last_match_at
            """,
            (week.label, ruleset, player_id, s.points_x2, s.matches, s.score, s.reached_at,
             s.last_match_at),
        )  # fmt: skip


# The archive of the whole batch. Matches go in in match-id order (two batches that share a
# duplicate wait for each other instead of deadlocking); a row that already existed returns
# nothing, so its seats and players are left alone. A week that is frozen (or missing) leaves
# the match off its board. People not seen before go in in player-id order, the order every
# ingestion locks in; names and the guest mark of the others are updated by ``_rename``.
_ARCHIVE_BATCH = """
WITH r AS (
    SELECT * FROM jsonb_to_recordset(%(matches)s::jsonb)
        AS r(match_id uuid, schema_version int, mode text, ranked bool, ruleset text,
             hands smallint, outcome text, started_at timestamptz, ended_at timestamptz,
             rated bool, week text, fairness jsonb)
), m AS (
    INSERT INTO matches (match_id, schema_version, mode, ranked, ruleset, hands, outcome,
                         started_at, ended_at, rated, week, board_applied, fairness)
    SELECT r.match_id, r.schema_version, r.mode, r.ranked, r.ruleset, r.hands, r.outcome,
           r.started_at, r.ended_at, r.rated, r.week,
           r.rated AND coalesce((SELECT w.frozen_at IS NULL FROM weeks w
                                  WHERE w.week = r.week), false),
           r.fairness
      FROM r ORDER BY r.match_id
    ON CONFLICT (match_id) DO NOTHING
    RETURNING match_id, board_applied
), s AS (
    SELECT * FROM jsonb_to_recordset(%(seats)s::jsonb)
        AS s(ord int, match_id uuid, seat smallint, player_id text, name text, is_bot bool,
             is_guest bool, total int, place smallint, forfeited bool, forfeit_order smallint,
             left_at timestamptz, points_x2 smallint, ruleset text, ended_at timestamptz,
             week text)
), seats AS (
    INSERT INTO match_players (match_id, seat, player_id, name, is_bot, is_guest, total,
                               place, forfeited, forfeit_order, left_at, ended_at, week,
                               ruleset, points_x2)
    SELECT s.match_id, s.seat, s.player_id, s.name, s.is_bot, s.is_guest, s.total, s.place,
           s.forfeited, s.forfeit_order, s.left_at, s.ended_at,
           CASE WHEN m.board_applied THEN s.week END,
           CASE WHEN m.board_applied THEN s.ruleset END,
           CASE WHEN m.board_applied THEN s.points_x2 END
      FROM s JOIN m USING (match_id)
), people AS (
    INSERT INTO players (player_id, name, is_guest)
    SELECT DISTINCT ON (s.player_id) s.player_id, s.name, s.is_guest
      FROM s JOIN m USING (match_id)
     WHERE NOT s.is_bot
     ORDER BY s.player_id, s.ord DESC
    ON CONFLICT (player_id) DO NOTHING
)
SELECT match_id, board_applied FROM m
"""

# The people whose name or guest mark the batch changed (``_rename``).
_RENAME_BATCH = """
UPDATE players AS p
   SET name = u.name, is_guest = u.is_guest, updated_at = now()
  FROM jsonb_to_recordset(%(people)s::jsonb) AS u(player_id text, name text, is_guest bool)
 WHERE p.player_id = u.player_id
"""

# Ratings (each player's rating in each ruleset once, with the count of the batch's rated
# matches there) and the history in batch order. Names were set by the archive step.
_RATE_BATCH = """
WITH u AS (
    SELECT * FROM jsonb_to_recordset(%(players)s::jsonb)
        AS u(player_id text, ruleset text, rating float8, added int, last timestamptz)
), ratings AS (
    INSERT INTO ratings AS r (player_id, ruleset, rating, rated_matches, last_rated_at)
    SELECT u.player_id, u.ruleset, u.rating, u.added, u.last
      FROM u ORDER BY u.player_id, u.ruleset
    ON CONFLICT (player_id, ruleset) DO UPDATE
       SET rating = EXCLUDED.rating, rated_matches = r.rated_matches + EXCLUDED.rated_matches,
           last_rated_at = GREATEST(r.last_rated_at, EXCLUDED.last_rated_at), updated_at = now()
)
INSERT INTO rating_history (player_id, match_id, ruleset, ended_at, rating_before, rating_after,
                            delta, k, place, rated_matches_before)
SELECT h.player_id, h.match_id, h.ruleset, h.ended_at, h.before, h.after, h.delta, h.k, h.place,
       h.played
  FROM jsonb_to_recordset(%(history)s::jsonb)
       AS h(player_id text, match_id uuid, ruleset text, ended_at timestamptz, before float8,
            after float8, delta float8, k float8, place smallint, played int, ord bigint)
 ORDER BY h.ord
"""

# The week rows as the batch leaves them (computed in order from the rows read under the
# players' locks, so nothing else changed them meanwhile).
_WEEKS_BATCH = """
INSERT INTO weekly_scores AS w (week, ruleset, player_id, points_x2, matches, score,
                                reached_at, last_match_at)
SELECT r.week, r.ruleset, r.player_id, r.points_x2, r.matches, r.score, r.reached_at,
       r.last_match_at
  FROM jsonb_to_recordset(%(rows)s::jsonb)
       AS r(week text, ruleset text, player_id text, points_x2 int, matches int, score float8,
            reached_at timestamptz, last_match_at timestamptz)
 ORDER BY r.week, r.ruleset, r.player_id
ON CONFLICT (week, ruleset, player_id) DO UPDATE SET
    points_x2 = EXCLUDED.points_x2, matches = EXCLUDED.matches, score = EXCLUDED.score,
    reached_at = EXCLUDED.reached_at, last_match_at = EXCLUDED.last_match_at
"""
