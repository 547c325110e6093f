"""Example bodies of the OpenAPI document (``example=`` of the views): real answers of the
service, for four players after 16 rated matches in week 2026-W49."""

from __future__ import annotations

from typing import Any

MATCH_ID = "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10"

RATING: dict[str, Any] = {
    "display": "1721",
    "last_rated_at": "2026-12-01T16:15:00+00:00",
    "name": "Ayşe",
    "is_guest": False,
    "player_id": "ayse",
    "provisional": False,
    "rated_matches": 16,
    "rating": 1721.4448662717282,
    "ruleset": "standard",
    "ratings": [
        {
            "ruleset": "standard",
            "display": "1721",
            "last_rated_at": "2026-12-01T16:15:00+00:00",
            "provisional": False,
            "rated_matches": 16,
            "rating": 1721.4448662717282,
        }
    ],
}

RATING_HISTORY: dict[str, Any] = {
    "has_more": True,
    "items": [
        {
            "delta": 4.296029347706155,
            "ended_at": "2026-12-01T16:15:00+00:00",
            "k": 24.0,
            "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
            "place": 1,
            "rated_matches_before": 15,
            "rating_after": 1721.4448662717282,
            "rating_before": 1717.1488369240221,
        },
        {
            "delta": 8.983325959688955,
            "ended_at": "2026-12-01T16:14:00+00:00",
            "k": 48.0,
            "match_id": "59e36360-8a6d-4a35-bdf0-fe511a548429",
            "place": 1,
            "rated_matches_before": 14,
            "rating_after": 1717.1488369240221,
            "rating_before": 1708.1655109643332,
        },
    ],
    "page": 1,
    "page_size": 2,
}

PLAYER_MATCHES: dict[str, Any] = {
    "has_more": True,
    "items": [
        {
            "ended_at": "2026-12-01T16:15:00+00:00",
            "forfeited": False,
            "hands": 20,
            "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
            "mode": "live",
            "outcome": "finished",
            "place": 1,
            "players": [
                {
                    "forfeit_order": None,
                    "forfeited": False,
                    "is_bot": False,
                    "left_at": None,
                    "name": "Ayşe",
                    "is_guest": False,
                    "place": 1,
                    "player_id": "ayse",
                    "seat": 0,
                    "total": 90,
                },
                {
                    "forfeit_order": None,
                    "forfeited": False,
                    "is_bot": False,
                    "left_at": None,
                    "name": "Burak",
                    "is_guest": False,
                    "place": 2,
                    "player_id": "burak",
                    "seat": 1,
                    "total": 80,
                },
                {
                    "forfeit_order": None,
                    "forfeited": False,
                    "is_bot": False,
                    "left_at": None,
                    "name": "Cem",
                    "is_guest": False,
                    "place": 3,
                    "player_id": "cem",
                    "seat": 2,
                    "total": 70,
                },
                {
                    "forfeit_order": None,
                    "forfeited": False,
                    "is_bot": False,
                    "left_at": None,
                    "name": "Deniz",
                    "is_guest": False,
                    "place": 4,
                    "player_id": "deniz",
                    "seat": 3,
                    "total": 60,
                },
            ],
            "ranked": True,
            "rated": True,
            "ruleset": "standard",
            "seat": 0,
            "started_at": "2026-12-01T15:35:00+00:00",
            "total": 90,
        }
    ],
    "page": 1,
    "page_size": 1,
}

ARCHIVED_MATCH: dict[str, Any] = {
    "board_applied": True,
    "ended_at": "2026-12-01T16:15:00+00:00",
    "fairness": {
        "spec": "KINGDEAL-v1",
        "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
        "server_commit": "0e450e5e5f49fbb7413e418a482cdbb04320f60f1f3a2f3853c19c5d92bafb2b",
        "server_seed": "1e76a03dc1584a4f268cd3be4c36dfc5a7ea126c15436613e2a1e18867ea852d",
        "client_seeds": [
            "05547e7207c916538451c3c9a2146794f425b71dd7f03edba0aa693ec6342729",
            "9b1f0c3e5d7a2b4c6e8f0a1b3c5d7e9f1a2b3c4d5e6f708192a3b4c5d6e7f809",
            "3c5d7e9f1a2b3c4d5e6f708192a3b4c5d6e7f8099b1f0c3e5d7a2b4c6e8f0a1b",
            "d5e6f708192a3b4c5d6e7f8099b1f0c3e5d7a2b4c6e8f0a1b3c5d7e9f1a2b3c4",
        ],
        "seed_sources": ["client", "client", "client", "client"],
        "...": "every hand's contract and plays",
    },
    "hands": 20,
    "ingested_at": "2026-12-01T16:15:02.539260+00:00",
    "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
    "mode": "live",
    "outcome": "finished",
    "players": [
        {
            "forfeit_order": None,
            "forfeited": False,
            "is_bot": False,
            "left_at": None,
            "name": "Ayşe",
            "is_guest": False,
            "place": 1,
            "player_id": "ayse",
            "rating_change": {
                "delta": 4.296029347706155,
                "k": 24.0,
                "place": 1,
                "rating_after": 1721.4448662717282,
                "rating_before": 1717.1488369240221,
            },
            "seat": 0,
            "total": 90,
        },
        {
            "forfeit_order": None,
            "forfeited": False,
            "is_bot": False,
            "left_at": None,
            "name": "Burak",
            "is_guest": False,
            "place": 2,
            "player_id": "burak",
            "rating_change": {
                "delta": 1.3237976976307224,
                "k": 24.0,
                "place": 2,
                "rating_after": 1572.2133628904276,
                "rating_before": 1570.889565192797,
            },
            "seat": 1,
            "total": 80,
        },
        {
            "forfeit_order": None,
            "forfeited": False,
            "is_bot": False,
            "left_at": None,
            "name": "Cem",
            "is_guest": False,
            "place": 3,
            "player_id": "cem",
            "rating_change": {
                "delta": -1.3237976976307229,
                "k": 24.0,
                "place": 3,
                "rating_after": 1427.7866371095724,
                "rating_before": 1429.110434807203,
            },
            "seat": 2,
            "total": 70,
        },
        {
            "forfeit_order": None,
            "forfeited": False,
            "is_bot": False,
            "left_at": None,
            "name": "Deniz",
            "is_guest": False,
            "place": 4,
            "player_id": "deniz",
            "rating_change": {
                "delta": -4.296029347706155,
                "k": 24.0,
                "place": 4,
                "rating_after": 1278.5551337282718,
                "rating_before": 1282.8511630759779,
            },
            "seat": 3,
            "total": 60,
        },
    ],
    "ranked": True,
    "rated": True,
    "ruleset": "standard",
    "schema_version": 1,
    "started_at": "2026-12-01T15:35:00+00:00",
    "week": "2026-W49",
    "winners": [0],
}

LADDER: dict[str, Any] = {
    "has_more": True,
    "items": [
        {
            "display": "1721",
            "last_rated_at": "2026-12-01T16:15:00+00:00",
            "name": "Ayşe",
            "is_guest": False,
            "player_id": "ayse",
            "provisional": False,
            "rank": 1,
            "rated_matches": 16,
            "rating": 1721.4448662717282,
        },
        {
            "display": "1572",
            "last_rated_at": "2026-12-01T16:15:00+00:00",
            "name": "Burak",
            "is_guest": False,
            "player_id": "burak",
            "provisional": False,
            "rank": 2,
            "rated_matches": 16,
            "rating": 1572.2133628904276,
        },
    ],
    "page": 1,
    "page_size": 2,
}

BOARD: dict[str, Any] = {
    "ends_at": "2026-12-07T00:00:00+03:00",
    "frozen": False,
    "has_more": True,
    "items": [
        {
            "matches": 16,
            "name": "Ayşe",
            "is_guest": False,
            "player_id": "ayse",
            "points": 48.0,
            "rank": 1,
            "reached_at": "2026-12-01T16:15:00+00:00",
            "score": 2.423076923076923,
        },
        {
            "matches": 16,
            "name": "Burak",
            "is_guest": False,
            "player_id": "burak",
            "points": 32.0,
            "rank": 2,
            "reached_at": "2026-12-01T16:15:00+00:00",
            "score": 1.8076923076923077,
        },
    ],
    "page": 1,
    "page_size": 2,
    "ruleset": "standard",
    "starts_at": "2026-11-30T00:00:00+03:00",
    "week": "2026-W49",
}

RESET: dict[str, Any] = {
    "resets_at": "2026-12-07T00:00:00+03:00",
    "seconds_until_reset": 378000,
    "week": "2026-W49",
}

RANK: dict[str, Any] = {
    "above": [
        {
            "matches": 16,
            "name": "Ayşe",
            "is_guest": False,
            "player_id": "ayse",
            "points": 48.0,
            "rank": 1,
            "reached_at": "2026-12-01T16:15:00+00:00",
            "score": 2.423076923076923,
        }
    ],
    "below": [
        {
            "matches": 16,
            "name": "Cem",
            "is_guest": False,
            "player_id": "cem",
            "points": 16.0,
            "rank": 3,
            "reached_at": "2026-12-01T16:15:00+00:00",
            "score": 1.1923076923076923,
        }
    ],
    "eligible": True,
    "entry": {
        "matches": 16,
        "name": "Burak",
        "is_guest": False,
        "player_id": "burak",
        "points": 32.0,
        "rank": 2,
        "reached_at": "2026-12-01T16:15:00+00:00",
        "score": 1.8076923076923077,
    },
    "frozen": False,
    "matches": 16,
    "min_matches": 5,
    "name": "Burak",
    "is_guest": False,
    "player_id": "burak",
    "rank": 2,
    "ruleset": "standard",
    "week": "2026-W49",
}

HEALTHY: dict[str, Any] = {"status": "ok"}

READY: dict[str, Any] = {"checks": {"postgres": "ok", "redis": "ok"}, "status": "ok"}


def path(name: str, example: str, description: str) -> dict[str, Any]:
    """A path parameter's documentation with its example (``Blueprint.route(parameters=)``)."""
    return {"in": "path", "name": name, "description": description, "example": example}


PLAYER_PATH = [path("player_id", "ayse", "the player's id (the game service's account id)")]
MATCH_PATH = [path("match_id", MATCH_ID, "the match's id")]
