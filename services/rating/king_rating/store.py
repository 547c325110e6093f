"""Postgres side of the rating service: one transaction per finished match, and the reads.

Ingestion is exactly-once per match id. The archive row in ``matches`` is inserted first with
``ON CONFLICT DO NOTHING``: a duplicate message, a retried job or a second worker holding the
same message finds the row (a concurrent insert waits for the first transaction and then sees
the conflict) and changes nothing. Everything else a match causes (seats, ratings, rating
history, the weekly board) happens in that same transaction, so it is applied entirely or not
at all.

Concurrent matches that share players lock the rows they change in player-id order, so they
cannot deadlock each other; a deadlock or serialization failure from elsewhere is retried.

Every ruleset is rated apart (``king_message.RATED_RULESETS``): a player has a rating, a
history and a standing on each week's board per ruleset, and a rated match moves only those of
its own ruleset. Elo is applied in the order matches are processed (the rating history keeps
every before / after so it can be replayed). The weekly board depends only on the set of
matches in the week, so out-of-order arrival is exact there: a player's ``reached_at`` is
recomputed from the archive when a match arrives that ended before their latest one.
"""

from __future__ import annotations

import enum
import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from psycopg import errors
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from king_message import DEFAULT_RULESET, RATED_RULESETS, FinishedMatch, is_rated_ruleset
from king_rating import elo, weekly

#: The ladder lists players with a rated match in this many days.
LADDER_ACTIVE_DAYS = 30
#: How often a transaction that hit a deadlock or serialization failure is tried again.
MAX_TRANSACTION_ATTEMPTS = 5


class Ingested(enum.StrEnum):
    """What ingesting one message did."""

    RATED = "rated"  # archived, rated, counted on its week's board
    RATED_LATE = "rated_late"  # archived and rated; its week was already frozen
    ARCHIVED = "archived"  # archived only (computer, casual or aborted match)
    DUPLICATE = "duplicate"  # this match id was already ingested; nothing changed


class NotFound(LookupError):
    """The requested player, match or week has nothing to show."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def require_rated_ruleset(message: FinishedMatch) -> None:
    """``ValueError`` for a rated match of a ruleset that has no ratings (a name the message
    package does not list): it cannot be ingested until the service knows the name."""
    if message.is_rated and not is_rated_ruleset(message.ruleset):
        raise ValueError(
            f"ruleset: {message.ruleset!r} is not a rated ruleset "
            f"(one of {', '.join(RATED_RULESETS)})"
        )


@dataclass(frozen=True, slots=True)
class Page:
    items: list[dict[str, Any]]
    page: int
    page_size: int
    has_more: bool


class Store:
    """The service's only door to Postgres. Thread-safe; one per process."""

    def __init__(
        self,
        conninfo: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        freeze_grace: timedelta = timedelta(hours=1),
        connect_timeout: float = 5.0,
    ) -> None:
        self.freeze_grace = freeze_grace
        self.pool = ConnectionPool(
            conninfo,
            min_size=min_size,
            max_size=max_size,
            timeout=connect_timeout,
            kwargs={"connect_timeout": max(1, int(connect_timeout))},
            configure=_configure_connection,
            reconnect_timeout=60,
            open=False,
            name="king-rating",
        )
        self.pool.open(wait=False)
        self._weeks_created: set[str] = set()
        self._frozen_weeks: set[str] = set()

    def close(self) -> None:
        self.pool.close()

    # ------------------------------------------------------------------ health

    def ping(self) -> None:
        with self.pool.connection() as conn:
            conn.execute("SELECT 1")

    def pending_migrations(self) -> list[str]:
        """Shipped migrations this database has not applied (empty when up to date)."""
        from king_rating.migrate import shipped_migrations

        with self.pool.connection() as conn:
            exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")
            row = exists.fetchone()
            done: set[str] = set()
            if row and row[0]:
                done = {r[0] for r in conn.execute("SELECT version FROM schema_migrations")}
        return [m.name for m in shipped_migrations() if m.version not in done]

    # --------------------------------------------------------------- ingestion

    def ingest(self, message: FinishedMatch) -> Ingested:
        """Archive the match and apply it to ratings and the board, exactly once."""
        require_rated_ruleset(message)
        week = weekly.week_of(message.ended) if message.is_rated else None
        for attempt in range(1, MAX_TRANSACTION_ATTEMPTS + 1):
            try:
                if week is not None and week.label not in self._weeks_created:
                    self._create_week(week)
                with self.pool.connection() as conn:
                    return self._ingest(conn, message, week)
            except (errors.DeadlockDetected, errors.SerializationFailure):
                if attempt == MAX_TRANSACTION_ATTEMPTS:
                    raise
                time.sleep(0.01 * attempt)
            except psycopg.OperationalError:
                # A pooled connection can die with the server; the pool drops it on return.
                # One more try gets a fresh one (or a PoolTimeout if the server is still down).
                if attempt >= 2:
                    raise
        raise AssertionError("unreachable")

    def _create_week(self, week: weekly.Week) -> None:
        """Make sure the week row exists (committed) before matches lock it in share mode."""
        with self.pool.connection() as conn:
            conn.execute(
                "INSERT INTO weeks (week, starts_at, ends_at) VALUES (%s, %s, %s) "
                "ON CONFLICT (week) DO NOTHING",
                (week.label, week.starts_at, week.ends_at),
            )
        self._weeks_created.add(week.label)

    def _ingest(
        self, conn: psycopg.Connection[Any], message: FinishedMatch, week: weekly.Week | None
    ) -> Ingested:
        """One transaction; two round trips for a rated match that arrives in order."""
        ended = message.ended
        seats = message.players
        ids = [s.player_id for s in seats]
        places = [s.place for s in seats]
        points: list[int | None] = [None] * len(seats)
        if week is not None:
            points = list(weekly.points_x2(places, [s.forfeited for s in seats]))
        with conn.pipeline(), conn.transaction():
            # The write statements' plans do not depend on their values: plan them once.
            conn.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            archived = conn.execute(
                _ARCHIVE if week is None else _ARCHIVE_RATED,
                {
                    "match_id": message.match_id,
                    "schema_version": message.schema_version,
                    "mode": message.mode,
                    "ranked": message.ranked,
                    "ruleset": message.ruleset,
                    "hands": message.hands,
                    "outcome": message.outcome,
                    "started_at": message.started,
                    "ended_at": ended,
                    "rated": week is not None,
                    "week": week.label if week else None,
                    "fairness": Jsonb(message.fairness),
                    # One JSON parameter instead of ten arrays: much cheaper to send.
                    "seats": json.dumps(
                        [
                            {
                                "seat": s.seat,
                                "player_id": s.player_id,
                                "name": s.name,
                                "is_bot": s.is_bot,
                                "is_guest": s.is_guest,
                                "total": s.total,
                                "place": s.place,
                                "forfeited": s.forfeited,
                                "forfeit_order": s.forfeit_order,
                                "left_at": s.left_at,
                                "points_x2": p,
                            }
                            for s, p in zip(seats, points, strict=True)
                        ]
                    ),
                },
            )
            locked = None
            if week is not None:
                # Players are locked before their ratings and week rows, so the rows read here
                # cannot change before this transaction writes them. They are read by a
                # statement of their own: one that waited for a lock sees only the locked rows
                # as they are now, and joined rows as they were when it started.
                conn.execute(
                    "SELECT 1 FROM players WHERE player_id = ANY(%s) ORDER BY player_id FOR UPDATE",
                    (ids,),
                )
                locked = conn.execute(
                    """
                    SELECT p.player_id, coalesce(r.rating, %(initial)s),
                           coalesce(r.rated_matches, 0), w.last_match_at
                      FROM players p
                      LEFT JOIN ratings r
                        ON r.player_id = p.player_id AND r.ruleset = %(ruleset)s
                      LEFT JOIN weekly_scores w
                        ON w.week = %(week)s AND w.ruleset = %(ruleset)s
                       AND w.player_id = p.player_id
                     WHERE p.player_id = ANY(%(ids)s)
                    """,
                    {
                        "initial": elo.INITIAL_RATING,
                        "ruleset": message.ruleset,
                        "week": week.label,
                        "ids": ids,
                    },
                )
            row = archived.fetchone()
            if row is None or row[0] is None:
                return Ingested.DUPLICATE
            if locked is None or week is None:
                return Ingested.ARCHIVED
            on_board = bool(row[0] == "board")
            current = {pid: (r, n, last) for pid, r, n, last in locked.fetchall()}
            changes = elo.rate_match(
                [current[pid][0] for pid in ids], [current[pid][1] for pid in ids], places
            )
            late = [pid for pid in ids if current[pid][2] is not None and current[pid][2] > ended]
            conn.execute(
                _RATE_AND_COUNT,
                {
                    "match_id": message.match_id,
                    "ruleset": message.ruleset,
                    "ended": ended,
                    "changes": json.dumps(
                        [
                            {
                                "player_id": pid,
                                "name": seat.name,
                                "is_guest": seat.is_guest,
                                "before": c.rating_before,
                                "after": c.rating_after,
                                "delta": c.delta,
                                "k": c.k,
                                "place": c.place,
                                "played": c.rated_matches_before,
                                "points": p,
                            }
                            for pid, seat, c, p in zip(ids, seats, changes, points, strict=True)
                        ]
                    ),
                    "on_board": on_board,
                    "week": week.label,
                    "prior": round(2 * weekly.PRIOR_AVERAGE * weekly.PRIOR_MATCHES),
                    "prior_matches": weekly.PRIOR_MATCHES,
                },
            )
            if not on_board:
                return Ingested.RATED_LATE
            for player_id in late:
                # This match ended before the player's latest one this week: replay their week
                # in end-time order so "who reached the score first" stays exact.
                self._recompute_standing(conn, week, message.ruleset, player_id)
            return Ingested.RATED

    def _recompute_standing(
        self, conn: psycopg.Connection[Any], week: weekly.Week, ruleset: str, player_id: str
    ) -> None:
        played = conn.execute(
            "SELECT ended_at, points_x2 FROM match_players WHERE player_id = %s "
            "AND ended_at >= %s AND ended_at < %s AND week = %s AND ruleset = %s",
            (player_id, week.starts_at, week.ends_at, week.label, ruleset),
        ).fetchall()
        standing = weekly.standing_from((ended_at, points) for ended_at, points in played)
        conn.execute(
            """
            UPDATE weekly_scores SET points_x2 = %s, matches = %s, score = %s,
                   reached_at = %s, last_match_at = %s
             WHERE week = %s AND ruleset = %s AND player_id = %s
            """,
            (
                standing.points_x2,
                standing.matches,
                standing.score,
                standing.reached_at,
                standing.last_match_at,
                week.label,
                ruleset,
                player_id,
            ),
        )

    # ------------------------------------------------------------------ weeks

    def week_state(self, week: weekly.Week, now: datetime) -> str:
        """``future``, ``live`` (still changing) or ``frozen`` (final ranks kept)."""
        if now < week.starts_at:
            return "future"
        if now < week.ends_at + self.freeze_grace:
            return "live"
        if week.label not in self._frozen_weeks:
            # Frozen is for good, so each process asks (and freezes) once per week.
            self.freeze_week(week)
            self._frozen_weeks.add(week.label)
        return "frozen"

    def freeze_week(self, week: weekly.Week) -> bool:
        """Keep the final ranks of a finished week; False if it was already frozen."""
        with self.pool.connection() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO weeks (week, starts_at, ends_at) VALUES (%s, %s, %s) "
                "ON CONFLICT (week) DO NOTHING",
                (week.label, week.starts_at, week.ends_at),
            )
            # Waits for ingestions holding the week row in share mode, then excludes new ones.
            froze = conn.execute(
                "UPDATE weeks SET frozen_at = now() WHERE week = %s AND frozen_at IS NULL "
                "RETURNING 1",
                (week.label,),
            ).fetchone()
            if froze is None:
                return False
            conn.execute(
                """
                INSERT INTO weekly_final (week, ruleset, rank, player_id, points_x2, matches,
                                          score, reached_at)
                SELECT week, ruleset,
                       row_number() OVER (PARTITION BY ruleset
                                          ORDER BY score DESC, matches DESC, reached_at,
                                                   player_id),
                       player_id, points_x2, matches, score, reached_at
                  FROM weekly_scores
                 WHERE week = %s AND matches >= %s
                """,
                (week.label, weekly.MIN_MATCHES),
            )
            return True

    def board(
        self,
        week: weekly.Week,
        page: int,
        page_size: int,
        now: datetime,
        ruleset: str = DEFAULT_RULESET,
    ) -> Page:
        """A page of one ruleset's board of ``week``."""
        state = self.week_state(week, now)
        if state == "future":
            raise NotFound("week_not_started", f"week {week.label} has not started yet")
        offset = (page - 1) * page_size
        with self.pool.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            if state == "frozen":
                rows = cur.execute(
                    """
                    SELECT f.rank, f.player_id, p.name, p.is_guest, f.points_x2, f.matches, f.score,
                           f.reached_at
                      FROM weekly_final f JOIN players p USING (player_id)
                     WHERE f.week = %s AND f.ruleset = %s AND f.rank > %s
                     ORDER BY f.rank LIMIT %s
                    """,
                    (week.label, ruleset, offset, page_size + 1),
                ).fetchall()
            else:
                rows = cur.execute(
                    _LIVE_BOARD,
                    (week.label, ruleset, weekly.MIN_MATCHES, page_size + 1, offset),
                ).fetchall()
                for index, row in enumerate(rows):
                    row["rank"] = offset + index + 1
        return _page([_board_entry(row) for row in rows], page, page_size)

    def board_rank(
        self,
        week: weekly.Week,
        player_id: str,
        neighbours: int,
        now: datetime,
        ruleset: str = DEFAULT_RULESET,
    ) -> dict[str, Any]:
        """A player's rank on a week's board of ``ruleset``, up to ``neighbours`` each side."""
        state = self.week_state(week, now)
        if state == "future":
            raise NotFound("week_not_started", f"week {week.label} has not started yet")
        with self.pool.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            player = cur.execute(
                "SELECT player_id, name, is_guest FROM players WHERE player_id = %s",
                (player_id,),
            ).fetchone()
            if player is None:
                raise NotFound("player_not_found", f"no player {player_id!r}")
            mine = cur.execute(
                "SELECT points_x2, matches, score, reached_at FROM weekly_scores "
                "WHERE week = %s AND ruleset = %s AND player_id = %s",
                (week.label, ruleset, player_id),
            ).fetchone()
            result: dict[str, Any] = {
                "week": week.label,
                "ruleset": ruleset,
                "player_id": player_id,
                "name": player["name"],
                "is_guest": player["is_guest"],
                "frozen": state == "frozen",
                "matches": mine["matches"] if mine else 0,
                "min_matches": weekly.MIN_MATCHES,
                "eligible": False,
                "rank": None,
                "entry": None,
                "above": [],
                "below": [],
            }
            rank: int | None = None
            if state == "frozen":
                found = cur.execute(
                    "SELECT rank FROM weekly_final "
                    "WHERE week = %s AND ruleset = %s AND player_id = %s",
                    (week.label, ruleset, player_id),
                ).fetchone()
                rank = found["rank"] if found else None
                if rank is None:
                    return result
                rows = cur.execute(
                    """
                    SELECT f.rank, f.player_id, p.name, p.is_guest, f.points_x2, f.matches, f.score,
                           f.reached_at
                      FROM weekly_final f JOIN players p USING (player_id)
                     WHERE f.week = %s AND f.ruleset = %s AND f.rank BETWEEN %s AND %s
                     ORDER BY f.rank
                    """,
                    (week.label, ruleset, rank - neighbours, rank + neighbours),
                ).fetchall()
            else:
                if mine is None or not weekly.is_eligible(mine["matches"]):
                    return result
                ahead = cur.execute(
                    """
                    SELECT count(*) AS ahead FROM weekly_scores
                     WHERE week = %(week)s AND ruleset = %(ruleset)s AND matches >= %(min)s
                       AND score >= %(score)s
                       AND (score > %(score)s OR matches > %(matches)s
                            OR (matches = %(matches)s
                                AND (reached_at < %(reached)s
                                     OR (reached_at = %(reached)s AND player_id < %(pid)s))))
                    """,
                    {
                        "week": week.label,
                        "ruleset": ruleset,
                        "min": weekly.MIN_MATCHES,
                        "score": mine["score"],
                        "matches": mine["matches"],
                        "reached": mine["reached_at"],
                        "pid": player_id,
                    },
                ).fetchone()
                assert ahead is not None
                rank = int(ahead["ahead"]) + 1
                # Neighbours by keyset from the player's own position in the board index (an
                # offset would walk every row above them).
                key = {
                    "week": week.label,
                    "ruleset": ruleset,
                    "min": weekly.MIN_MATCHES,
                    "score": mine["score"],
                    "matches": mine["matches"],
                    "reached": mine["reached_at"],
                    "pid": player_id,
                    "n": neighbours,
                }
                above = cur.execute(_NEIGHBOURS_ABOVE, key).fetchall() if neighbours else []
                below = cur.execute(_NEIGHBOURS_BELOW, key).fetchall() if neighbours else []
                mine_row = {
                    "player_id": player_id,
                    "name": player["name"],
                    "is_guest": player["is_guest"],
                    **mine,
                }
                rows = [*reversed(above), mine_row, *below]
                first = rank - len(above)
                for index, row in enumerate(rows):
                    row["rank"] = first + index
        entries = [_board_entry(row) for row in rows]
        result.update(
            eligible=True,
            rank=rank,
            entry=next((e for e in entries if e["rank"] == rank), None),
            above=[e for e in entries if e["rank"] < rank],
            below=[e for e in entries if e["rank"] > rank],
        )
        return result

    # ------------------------------------------------------------------ reads

    def player(self, player_id: str, ruleset: str = DEFAULT_RULESET) -> dict[str, Any]:
        """The player's rating in ``ruleset`` (the initial one before a rated match there),
        and under ``ratings`` every ruleset they have a rating in."""
        with self.pool.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            row = cur.execute(
                "SELECT player_id, name, is_guest FROM players WHERE player_id = %s",
                (player_id,),
            ).fetchone()
            if row is None:
                raise NotFound("player_not_found", f"no player {player_id!r}")
            rated = cur.execute(
                "SELECT ruleset, rating, rated_matches, last_rated_at FROM ratings "
                "WHERE player_id = %s",
                (player_id,),
            ).fetchall()
        by_ruleset = {r["ruleset"]: r for r in rated}
        mine = by_ruleset.get(
            ruleset,
            {"rating": elo.INITIAL_RATING, "rated_matches": 0, "last_rated_at": None},
        )
        view = _rating_view({**row, **mine})
        view["ruleset"] = ruleset
        view["ratings"] = [
            {"ruleset": name, **_rating_numbers(by_ruleset[name])}
            for name in RATED_RULESETS
            if name in by_ruleset
        ]
        return view

    def rating_history(
        self, player_id: str, page: int, page_size: int, ruleset: str = DEFAULT_RULESET
    ) -> Page:
        with self.pool.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            self._require_player(cur, player_id)
            rows = cur.execute(
                """
                SELECT match_id, ended_at, rating_before, rating_after, delta, k, place,
                       rated_matches_before
                  FROM rating_history WHERE player_id = %s AND ruleset = %s
                 ORDER BY seq DESC LIMIT %s OFFSET %s
                """,
                (player_id, ruleset, page_size + 1, (page - 1) * page_size),
            ).fetchall()
        return _page(rows, page, page_size)

    def player_matches(self, player_id: str, page: int, page_size: int) -> Page:
        with self.pool.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            self._require_player(cur, player_id)
            rows = cur.execute(
                """
                SELECT m.match_id, m.mode, m.ranked, m.rated, m.ruleset, m.hands, m.outcome,
                       m.started_at, m.ended_at, mp.seat, mp.place, mp.total, mp.forfeited
                  FROM match_players mp JOIN matches m USING (match_id)
                 WHERE mp.player_id = %s
                 ORDER BY mp.ended_at DESC, mp.match_id DESC LIMIT %s OFFSET %s
                """,
                (player_id, page_size + 1, (page - 1) * page_size),
            ).fetchall()
            seats = self._seats(cur, [row["match_id"] for row in rows])
        for row in rows:
            row["players"] = seats.get(row["match_id"], [])
        return _page(rows, page, page_size)

    def match(self, match_id: str) -> dict[str, Any]:
        with self.pool.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            row = cur.execute(
                """
                SELECT match_id, schema_version, mode, ranked, rated, ruleset, hands, outcome,
                       started_at, ended_at, week, board_applied, fairness, ingested_at
                  FROM matches WHERE match_id = %s
                """,
                (match_id,),
            ).fetchone()
            if row is None:
                raise NotFound("match_not_found", f"no archived match {match_id}")
            row["players"] = self._seats(cur, [row["match_id"]]).get(row["match_id"], [])
            changes = cur.execute(
                "SELECT player_id, rating_before, rating_after, delta, k, place "
                "FROM rating_history WHERE player_id = ANY(%s) AND match_id = %s",
                ([seat["player_id"] for seat in row["players"]], match_id),
            ).fetchall()
        by_player = {change.pop("player_id"): change for change in changes}
        for seat in row["players"]:
            seat["rating_change"] = by_player.get(seat["player_id"])
        row["winners"] = _winners(row["players"])
        return row

    def ladder(
        self, page: int, page_size: int, now: datetime, ruleset: str = DEFAULT_RULESET
    ) -> Page:
        offset = (page - 1) * page_size
        with self.pool.connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            rows = cur.execute(
                """
                SELECT r.player_id, p.name, p.is_guest, r.rating, r.rated_matches,
                       r.last_rated_at
                  FROM ratings r JOIN players p USING (player_id)
                 WHERE r.ruleset = %s AND r.rated_matches >= %s AND r.last_rated_at >= %s
                 ORDER BY r.rating DESC, r.player_id LIMIT %s OFFSET %s
                """,
                (
                    ruleset,
                    elo.PROVISIONAL_BELOW,
                    now - timedelta(days=LADDER_ACTIVE_DAYS),
                    page_size + 1,
                    offset,
                ),
            ).fetchall()
        items = []
        for index, row in enumerate(rows):
            item = _rating_view(row)
            item["rank"] = offset + index + 1
            items.append(item)
        return _page(items, page, page_size)

    def _require_player(self, cur: psycopg.Cursor[dict[str, Any]], player_id: str) -> None:
        found = cur.execute("SELECT 1 FROM players WHERE player_id = %s", (player_id,))
        if found.fetchone() is None:
            raise NotFound("player_not_found", f"no player {player_id!r}")

    def _seats(
        self, cur: psycopg.Cursor[dict[str, Any]], match_ids: list[Any]
    ) -> dict[Any, list[dict[str, Any]]]:
        if not match_ids:
            return {}
        rows = cur.execute(
            """
            SELECT match_id, seat, player_id, name, is_bot, is_guest, total, place, forfeited,
                   forfeit_order, left_at
              FROM match_players WHERE match_id = ANY(%s) ORDER BY match_id, seat
            """,
            (match_ids,),
        ).fetchall()
        seats: dict[Any, list[dict[str, Any]]] = {}
        for row in rows:
            seats.setdefault(row.pop("match_id"), []).append(row)
        return seats


def _winners(seats: list[dict[str, Any]]) -> list[int]:
    """The archived match's winning seats, by the message's rule: placed first and not
    forfeited."""
    return [s["seat"] for s in seats if s["place"] == 1 and not s["forfeited"]]


# Archive the match. The week row is held in share mode (a freeze updates it, so it waits
# for us, and we see a freeze that committed first). The match id decides duplicates: the
# seats and players are written only when the match row was new. Returns 'board' / 'off' for
# a new match (counted on its week's board or not), or a NULL for a duplicate.
_ARCHIVE = """
WITH wk AS (
    SELECT frozen_at IS NULL AS open FROM weeks WHERE week = %(week)s FOR SHARE
), m AS (
    INSERT INTO matches (match_id, schema_version, mode, ranked, ruleset, hands, outcome,
                         started_at, ended_at, rated, week, board_applied, fairness)
    VALUES (%(match_id)s, %(schema_version)s, %(mode)s, %(ranked)s, %(ruleset)s, %(hands)s,
            %(outcome)s, %(started_at)s, %(ended_at)s, %(rated)s, %(week)s,
            coalesce((SELECT open FROM wk), false), %(fairness)s)
    ON CONFLICT (match_id) DO NOTHING
    RETURNING match_id, board_applied
), seats AS (
    INSERT INTO match_players (match_id, seat, player_id, name, is_bot, is_guest, total,
                               place, forfeited, forfeit_order, left_at, ended_at, week,
                               ruleset, points_x2)
    SELECT m.match_id, s.seat, s.player_id, s.name, s.is_bot, s.is_guest, s.total, s.place,
           s.forfeited,
           s.forfeit_order, s.left_at, %(ended_at)s,
           CASE WHEN m.board_applied THEN %(week)s END,
           CASE WHEN m.board_applied THEN %(ruleset)s END,
           CASE WHEN m.board_applied THEN s.points_x2 END
      FROM m, jsonb_to_recordset(%(seats)s::jsonb)
           AS s(seat smallint, player_id text, name text, is_bot bool, is_guest bool, total int,
                place smallint, forfeited bool, forfeit_order smallint, left_at timestamptz,
                points_x2 smallint)
), people AS (
    INSERT INTO players AS p (player_id, name, is_guest)
    SELECT h.player_id, h.name, h.is_guest
      FROM jsonb_to_recordset(%(seats)s::jsonb)
           AS h(player_id text, name text, is_bot bool, is_guest bool)
     WHERE NOT h.is_bot AND EXISTS (SELECT 1 FROM m)
     ORDER BY h.player_id
    ON CONFLICT (player_id) DO UPDATE
       SET name = EXCLUDED.name, is_guest = EXCLUDED.is_guest, updated_at = now()
     WHERE (p.name, p.is_guest) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.is_guest)
)
SELECT CASE WHEN m.board_applied THEN 'board' ELSE 'off' END FROM m
UNION ALL SELECT NULL WHERE NOT EXISTS (SELECT 1 FROM m)
"""
# For a rated match the players are locked and updated (name included) right after, so the
# archive step only creates missing players: a conflict action would lock them once more.
_ARCHIVE_RATED = _ARCHIVE.replace(
    """    ON CONFLICT (player_id) DO UPDATE
       SET name = EXCLUDED.name, is_guest = EXCLUDED.is_guest, updated_at = now()
     WHERE (p.name, p.is_guest) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.is_guest)""",
    "    ON CONFLICT (player_id) DO NOTHING",
)
assert _ARCHIVE_RATED != _ARCHIVE

# Apply the Elo changes to the players' ratings in the match's ruleset, append the history, and
# (when the week is open) add the placement points to the players' week, in one statement.
_RATE_AND_COUNT = """
WITH u AS (
    SELECT * FROM jsonb_to_recordset(%(changes)s::jsonb)
        AS u(player_id text, name text, is_guest bool, before float8, after float8,
             delta float8, k float8, place smallint, played int, points int)
), people AS (
    UPDATE players AS p
       SET name = u.name, is_guest = u.is_guest, updated_at = now()
      FROM u
     WHERE p.player_id = u.player_id AND (p.name, p.is_guest) IS DISTINCT FROM (u.name, u.is_guest)
), ratings AS (
    INSERT INTO ratings AS r (player_id, ruleset, rating, rated_matches, last_rated_at)
    SELECT u.player_id, %(ruleset)s, u.after, 1, %(ended)s FROM u ORDER BY u.player_id
    ON CONFLICT (player_id, ruleset) DO UPDATE
       SET rating = EXCLUDED.rating, rated_matches = r.rated_matches + 1,
           last_rated_at = GREATEST(r.last_rated_at, EXCLUDED.last_rated_at), updated_at = now()
), history AS (
    INSERT INTO rating_history (player_id, match_id, ruleset, ended_at, rating_before,
                                rating_after, delta, k, place, rated_matches_before)
    SELECT u.player_id, %(match_id)s, %(ruleset)s, %(ended)s, u.before, u.after, u.delta, u.k,
           u.place, u.played
      FROM u
)
INSERT INTO weekly_scores AS w (week, ruleset, player_id, points_x2, matches, score, reached_at,
                                last_match_at)
SELECT %(week)s, %(ruleset)s, u.player_id, u.points, 1,
       (u.points + %(prior)s)::float8 / (2 * (1 + %(prior_matches)s)), %(ended)s, %(ended)s
  FROM u
 WHERE %(on_board)s
 ORDER BY u.player_id
ON CONFLICT (week, ruleset, player_id) DO UPDATE SET
    points_x2 = w.points_x2 + EXCLUDED.points_x2,
    matches = w.matches + 1,
    score = (w.points_x2 + EXCLUDED.points_x2 + %(prior)s)::float8
            / (2 * (w.matches + 1 + %(prior_matches)s)),
    reached_at = CASE
        WHEN (w.points_x2 + EXCLUDED.points_x2 + %(prior)s)::float8
             / (2 * (w.matches + 1 + %(prior_matches)s)) = w.score
        THEN w.reached_at ELSE EXCLUDED.reached_at END,
    last_match_at = GREATEST(w.last_match_at, EXCLUDED.last_match_at)
"""


_NEIGHBOURS_ABOVE = """
    SELECT w.player_id, p.name, p.is_guest, w.points_x2, w.matches, w.score, w.reached_at
      FROM (SELECT player_id, points_x2, matches, score, reached_at
              FROM weekly_scores
             WHERE week = %(week)s AND ruleset = %(ruleset)s AND matches >= %(min)s
               AND score >= %(score)s
               AND (score > %(score)s OR matches > %(matches)s
                    OR (matches = %(matches)s
                        AND (reached_at < %(reached)s
                             OR (reached_at = %(reached)s AND player_id < %(pid)s))))
             ORDER BY score, matches, reached_at DESC, player_id DESC
             LIMIT %(n)s) AS w
      JOIN players p USING (player_id)
     ORDER BY w.score, w.matches, w.reached_at DESC, w.player_id DESC
"""

_NEIGHBOURS_BELOW = """
    SELECT w.player_id, p.name, p.is_guest, w.points_x2, w.matches, w.score, w.reached_at
      FROM (SELECT player_id, points_x2, matches, score, reached_at
              FROM weekly_scores
             WHERE week = %(week)s AND ruleset = %(ruleset)s AND matches >= %(min)s
               AND score <= %(score)s
               AND (score < %(score)s OR matches < %(matches)s
                    OR (matches = %(matches)s
                        AND (reached_at > %(reached)s
                             OR (reached_at = %(reached)s AND player_id > %(pid)s))))
             ORDER BY score DESC, matches DESC, reached_at, player_id
             LIMIT %(n)s) AS w
      JOIN players p USING (player_id)
     ORDER BY w.score DESC, w.matches DESC, w.reached_at, w.player_id
"""


def _configure_connection(conn: psycopg.Connection[Any]) -> None:
    # Timestamps come back in UTC whatever the server's default zone is.
    conn.execute("SET TIME ZONE 'UTC'")
    conn.commit()


# The page is cut from the board index alone; only its rows are joined to players for names.
_LIVE_BOARD = """
    SELECT w.player_id, p.name, p.is_guest, w.points_x2, w.matches, w.score, w.reached_at
      FROM (SELECT player_id, points_x2, matches, score, reached_at
              FROM weekly_scores
             WHERE week = %s AND ruleset = %s AND matches >= %s
             ORDER BY score DESC, matches DESC, reached_at, player_id
             LIMIT %s OFFSET %s) AS w
      JOIN players p USING (player_id)
     ORDER BY w.score DESC, w.matches DESC, w.reached_at, w.player_id
"""


def _page(rows: list[dict[str, Any]], page: int, page_size: int) -> Page:
    return Page(
        items=rows[:page_size], page=page, page_size=page_size, has_more=len(rows) > page_size
    )


def _board_entry(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "rank": row["rank"],
        "player_id": row["player_id"],
        "name": row["name"],
        "is_guest": row["is_guest"],
        "score": row["score"],
        "points": row["points_x2"] / 2,
        "matches": row["matches"],
        "reached_at": row["reached_at"],
    }


def _rating_numbers(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "rating": row["rating"],
        "display": elo.display_rating(row["rating"], row["rated_matches"]),
        "provisional": elo.is_provisional(row["rated_matches"]),
        "rated_matches": row["rated_matches"],
        "last_rated_at": row["last_rated_at"],
    }


def _rating_view(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "player_id": row["player_id"],
        "name": row["name"],
        "is_guest": row["is_guest"],
        **_rating_numbers(row),
    }


def utc_now() -> datetime:
    return datetime.now(UTC)
