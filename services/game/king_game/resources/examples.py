"""Example bodies of the OpenAPI document (``example=`` of the views): real answers of the
service, from one computer match, with its ids."""

from __future__ import annotations

from typing import Any

MATCH_ID = "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10"
TABLE_ID = "5c2e8f14-3b7a-4d9e-a1f0-7e6b2c9d4a81"

ACCOUNT: dict[str, Any] = {
    "id": "6f1c4a52-5b8e-4e43-9a4e-0e0c8c1d2f3a",
    "name": "Ayşe",
    "is_guest": False,
    "is_bot": False,
}

TABLE: dict[str, Any] = {
    "id": "5c2e8f14-3b7a-4d9e-a1f0-7e6b2c9d4a81",
    "match_id": "5c2e8f14-3b7a-4d9e-a1f0-7e6b2c9d4a81",
    "mode": "live",
    "ranked": True,
    "ruleset": "standard",
    "hands": 8,
    "level": None,
    "options": {},
    "status": "waiting",
    "version": 1,
    "server_commit": "d451b582b053aa01225c97f3cb303079dccdd410cfd4150d9c816841cebbd963",
    "seats": [None, None, None, None],
    "free_seats": [0, 1, 2, 3],
    "created_at_ms": 1796168320271,
}

LOBBY: dict[str, Any] = {
    "tables": [
        {
            "id": "5c2e8f14-3b7a-4d9e-a1f0-7e6b2c9d4a81",
            "match_id": "5c2e8f14-3b7a-4d9e-a1f0-7e6b2c9d4a81",
            "mode": "live",
            "ranked": True,
            "ruleset": "standard",
            "hands": 8,
            "level": None,
            "options": {},
            "status": "waiting",
            "version": 1,
            "server_commit": "d451b582b053aa01225c97f3cb303079dccdd410cfd4150d9c816841cebbd963",
            "seats": [None, None, None, None],
            "free_seats": [0, 1, 2, 3],
            "created_at_ms": 1796168320271,
        }
    ]
}

SEATED: dict[str, Any] = {
    "seat": 0,
    "table": {
        "id": "5c2e8f14-3b7a-4d9e-a1f0-7e6b2c9d4a81",
        "match_id": "5c2e8f14-3b7a-4d9e-a1f0-7e6b2c9d4a81",
        "mode": "live",
        "ranked": True,
        "ruleset": "standard",
        "hands": 8,
        "level": None,
        "options": {},
        "status": "waiting",
        "version": 2,
        "server_commit": "d451b582b053aa01225c97f3cb303079dccdd410cfd4150d9c816841cebbd963",
        "seats": [
            {
                "seat": 0,
                "player_id": "6f1c4a52-5b8e-4e43-9a4e-0e0c8c1d2f3a",
                "name": "Ayşe",
                "is_bot": False,
                "automated": False,
                "forfeited": False,
            },
            None,
            None,
            None,
        ],
        "free_seats": [1, 2, 3],
        "created_at_ms": 1796168320271,
    },
}

LEFT_TABLE: dict[str, Any] = {
    "id": "5c2e8f14-3b7a-4d9e-a1f0-7e6b2c9d4a81",
    "match_id": "5c2e8f14-3b7a-4d9e-a1f0-7e6b2c9d4a81",
    "mode": "live",
    "ranked": True,
    "ruleset": "standard",
    "hands": 8,
    "level": None,
    "options": {},
    "status": "aborted",
    "version": 3,
    "server_commit": "d451b582b053aa01225c97f3cb303079dccdd410cfd4150d9c816841cebbd963",
    "seats": [None, None, None, None],
    "free_seats": [0, 1, 2, 3],
    "created_at_ms": 1796168320271,
}

COMPUTER_TABLE: dict[str, Any] = {
    "id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
    "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
    "mode": "computer",
    "ranked": False,
    "ruleset": "standard",
    "hands": 8,
    "level": "medium",
    "options": {},
    "status": "active",
    "version": 1,
    "server_commit": "0e450e5e5f49fbb7413e418a482cdbb04320f60f1f3a2f3853c19c5d92bafb2b",
    "seats": [
        {
            "seat": 0,
            "player_id": "6f1c4a52-5b8e-4e43-9a4e-0e0c8c1d2f3a",
            "name": "Ayşe",
            "is_bot": False,
            "automated": False,
            "forfeited": False,
        },
        {
            "seat": 1,
            "player_id": None,
            "name": "Bot 1 (medium)",
            "is_bot": True,
            "automated": True,
            "forfeited": False,
        },
        {
            "seat": 2,
            "player_id": None,
            "name": "Bot 2 (medium)",
            "is_bot": True,
            "automated": True,
            "forfeited": False,
        },
        {
            "seat": 3,
            "player_id": None,
            "name": "Bot 3 (medium)",
            "is_bot": True,
            "automated": True,
            "forfeited": False,
        },
    ],
    "free_seats": [],
    "created_at_ms": 1796168320872,
}

MATCH: dict[str, Any] = {
    "id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
    "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
    "mode": "computer",
    "ranked": False,
    "ruleset": "standard",
    "hands": 8,
    "level": "medium",
    "options": {},
    "status": "active",
    "version": 8,
    "server_commit": "0e450e5e5f49fbb7413e418a482cdbb04320f60f1f3a2f3853c19c5d92bafb2b",
    "seats": [
        {
            "seat": 0,
            "player_id": "6f1c4a52-5b8e-4e43-9a4e-0e0c8c1d2f3a",
            "name": "Ayşe",
            "is_bot": False,
            "automated": False,
            "forfeited": False,
        },
        {
            "seat": 1,
            "player_id": None,
            "name": "Bot 1 (medium)",
            "is_bot": True,
            "automated": True,
            "forfeited": False,
        },
        {
            "seat": 2,
            "player_id": None,
            "name": "Bot 2 (medium)",
            "is_bot": True,
            "automated": True,
            "forfeited": False,
        },
        {
            "seat": 3,
            "player_id": None,
            "name": "Bot 3 (medium)",
            "is_bot": True,
            "automated": True,
            "forfeited": False,
        },
    ],
    "free_seats": [],
    "created_at_ms": 1796168320872,
    "seat": 0,
    "my_turn": False,
    "clock": {
        "server_time_ms": 1796168325288,
        "turn": 1,
        "turn_started_ms": 1796168325231,
        "deadline_ms": 1796168329231,
        "move_ms": 60000,
        "reserve_ms": [0, 0, 0, 0],
    },
    "outcome": None,
    "forfeits": [],
    "view": {
        "seat": 0,
        "ruleset": "standard",
        "hands_in_match": 8,
        "hand": 0,
        "phase": "play",
        "declarer": 0,
        "contract": "tricks",
        "trump": None,
        "turn": 1,
        "my_cards": ["QC", "KC", "3D", "7D", "9D", "9H", "KH", "7S", "8S", "9S", "TS"],
        "current_trick": {
            "leader": 3,
            "plays": [{"seat": 3, "card": "3H"}, {"seat": 0, "card": "4H"}],
            "winner": None,
        },
        "tricks": [
            {
                "leader": 0,
                "plays": [
                    {"seat": 0, "card": "7C"},
                    {"seat": 1, "card": "6C"},
                    {"seat": 2, "card": "5C"},
                    {"seat": 3, "card": "AC"},
                ],
                "winner": 3,
            }
        ],
        "cards_left": [11, 12, 12, 11],
        "tricks_taken": [0, 0, 0, 1],
        "penalty_cards_taken": [[], [], [], []],
        "hand_points": [0, 0, 0, -50],
        "totals": [0, 0, 0, 0],
        "score_sheet": [],
        "legal_cards": [],
        "allowed_contracts": [],
    },
}

EVENTS: dict[str, Any] = {
    "events": [
        {
            "type": "table_created",
            "mode": "computer",
            "ruleset": "standard",
            "hands": 8,
            "server_commit": "0e450e5e5f49fbb7413e418a482cdbb04320f60f1f3a2f3853c19c5d92bafb2b",
            "v": 1,
            "seq": 1,
        },
        {"type": "seat_taken", "seat": 0, "name": "Ayşe", "is_bot": False, "v": 1, "seq": 2},
        {
            "type": "match_started",
            "seats": [
                {"seat": 0, "name": "Ayşe", "is_bot": False},
                {"seat": 1, "name": "Bot 1 (medium)", "is_bot": True},
                {"seat": 2, "name": "Bot 2 (medium)", "is_bot": True},
                {"seat": 3, "name": "Bot 3 (medium)", "is_bot": True},
            ],
            "hand": 0,
            "declarer": 0,
            "v": 1,
            "seq": 3,
        },
        {
            "type": "contract_chosen",
            "hand": 0,
            "seat": 0,
            "contract": "tricks",
            "trump": None,
            "v": 2,
            "seq": 4,
        },
        {"type": "card_played", "hand": 0, "trick": 0, "seat": 0, "card": "7C", "v": 3, "seq": 5},
    ],
    "last_seq": 5,
    "reset": False,
    "finished": False,
}

MY_MATCHES: dict[str, Any] = {
    "active": [
        {
            "id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
            "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
            "mode": "computer",
            "ranked": False,
            "ruleset": "standard",
            "hands": 8,
            "level": "medium",
            "options": {},
            "status": "active",
            "version": 9,
            "server_commit": "0e450e5e5f49fbb7413e418a482cdbb04320f60f1f3a2f3853c19c5d92bafb2b",
            "seats": [
                {
                    "seat": 0,
                    "player_id": "6f1c4a52-5b8e-4e43-9a4e-0e0c8c1d2f3a",
                    "name": "Ayşe",
                    "is_bot": False,
                    "automated": False,
                    "forfeited": False,
                },
                {
                    "seat": 1,
                    "player_id": None,
                    "name": "Bot 1 (medium)",
                    "is_bot": True,
                    "automated": True,
                    "forfeited": False,
                },
                {
                    "seat": 2,
                    "player_id": None,
                    "name": "Bot 2 (medium)",
                    "is_bot": True,
                    "automated": True,
                    "forfeited": False,
                },
                {
                    "seat": 3,
                    "player_id": None,
                    "name": "Bot 3 (medium)",
                    "is_bot": True,
                    "automated": True,
                    "forfeited": False,
                },
            ],
            "free_seats": [],
            "created_at_ms": 1796168320872,
            "seat": 0,
            "my_turn": False,
            "deadline_ms": 1796168329299,
            "outcome": None,
        }
    ],
    "recent": [],
}

RESIGNED: dict[str, Any] = {
    "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
    "version": 11,
    "seat": 0,
    "move": "resign",
    "events": [
        {"type": "player_forfeited", "seat": 0, "reason": "resigned", "v": 11, "seq": 15},
        {
            "type": "match_finished",
            "outcome": "aborted",
            "reason": "abandoned (resigned)",
            "totals": [0, 0, 0, 0],
            "places": [4, 1, 1, 1],
            "forfeits": [0],
            "v": 11,
            "seq": 16,
        },
    ],
}

TRANSCRIPT: dict[str, Any] = {
    "spec": "KINGDEAL-v1",
    "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
    "server_commit": "0e450e5e5f49fbb7413e418a482cdbb04320f60f1f3a2f3853c19c5d92bafb2b",
    "server_seed": "1e76a03dc1584a4f268cd3be4c36dfc5a7ea126c15436613e2a1e18867ea852d",
    "client_seeds": [
        "05547e7207c916538451c3c9a2146794f425b71dd7f03edba0aa693ec6342729",
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000000",
    ],
    "seed_sources": ["server", "bot", "bot", "bot"],
    "ruleset": "standard",
    "num_hands": 8,
    "options": {},
    "first_declarer": 0,
    "draw": None,
    "status": "aborted",
    "outcome": "aborted",
    "hands": [
        {
            "hand": 0,
            "deal": 0,
            "declarer": 0,
            "contract": "tricks",
            "trump": None,
            "plays": [
                [0, "7C"],
                [1, "6C"],
                [2, "5C"],
                [3, "AC"],
                [3, "3H"],
                [0, "4H"],
                [1, "2H"],
                [2, "AH"],
            ],
            "ended": None,
        }
    ],
}

RULES: dict[str, Any] = {
    "cards": [
        "2C",
        "3C",
        "4C",
        "5C",
        "6C",
        "7C",
        "8C",
        "9C",
        "TC",
        "JC",
        "QC",
        "KC",
        "AC",
        "2D",
        "3D",
        "4D",
        "5D",
        "6D",
        "7D",
        "8D",
        "9D",
        "TD",
        "JD",
        "QD",
        "KD",
        "AD",
        "2H",
        "3H",
        "4H",
        "5H",
        "6H",
        "7H",
        "8H",
        "9H",
        "TH",
        "JH",
        "QH",
        "KH",
        "AH",
        "2S",
        "3S",
        "4S",
        "5S",
        "6S",
        "7S",
        "8S",
        "9S",
        "TS",
        "JS",
        "QS",
        "KS",
        "AS",
    ],
    "suits": ["C", "D", "H", "S"],
    "contracts": [
        {
            "code": "tricks",
            "turkish": "El Almaz",
            "total": -650,
            "penalty": True,
            "needs_trump": False,
        },
        {
            "code": "hearts",
            "turkish": "Kupa Almaz",
            "total": -390,
            "penalty": True,
            "needs_trump": False,
        },
        {
            "code": "queens",
            "turkish": "Kız Almaz",
            "total": -400,
            "penalty": True,
            "needs_trump": False,
        },
        {
            "code": "boys",
            "turkish": "Erkek Almaz",
            "total": -480,
            "penalty": True,
            "needs_trump": False,
        },
        {
            "code": "last_two",
            "turkish": "Son İki",
            "total": -360,
            "penalty": True,
            "needs_trump": False,
        },
        {
            "code": "king_of_hearts",
            "turkish": "Rıfkı",
            "total": -320,
            "penalty": True,
            "needs_trump": False,
        },
        {"code": "trump", "turkish": "Koz", "total": 650, "penalty": False, "needs_trump": True},
    ],
    "rulesets": [
        {
            "name": "standard",
            "description": (
                "The product's default (seed 004): 8, 12 or 20 hands; every player declares "
                "equally often, mixing penalties and Koz; early end in Hearts, Queens, Boys and "
                "Rıfkı."
            ),
            "hands": [8, 12, 20],
            "quotas": {
                "8": {
                    "per_player": {"picks": 2, "penalties": 1, "trump": 1},
                    "cap_per_penalty_contract": 1,
                },
                "12": {
                    "per_player": {"picks": 3, "penalties": 2, "trump": 1},
                    "cap_per_penalty_contract": 2,
                },
                "20": {
                    "per_player": {"picks": 5, "penalties": 3, "trump": 2},
                    "cap_per_penalty_contract": 2,
                },
            },
        },
        {
            "name": "classic20",
            "description": (
                "Seed 002: always 20 hands; per-match quotas (each penalty twice, Koz twice in "
                "each suit); strict Koz (no trump in trick 1, trump lead only once broken, must "
                "overtrump); every hand played to the 13th trick."
            ),
            "hands": [20],
            "quotas": {"20": {"per_match": {"each_penalty": 2, "trump_per_suit": 2}}},
        },
    ],
    "clocks": {
        "live": {
            "move_ms": 3000,
            "reserve_ms": 2000,
            "on_reserve_out": "the player loses (ranked last); a bot finishes the seat",
        },
        "computer": {
            "move_ms": 60000,
            "reserve_ms": 0,
            "on_timeout": "the human abandons the match (aborted)",
        },
    },
    "modes": [
        {"mode": "live", "players": "four people", "ranked": True},
        {"mode": "computer", "players": "you and three bots", "ranked": False},
    ],
    "bot_levels": ["easy", "medium", "hard"],
    "fairness": {"spec": "KINGDEAL-v1", "seed_hex_chars": 64},
}

HEALTHY: dict[str, Any] = {"status": "ok", "checks": {}}

READY: dict[str, Any] = {"status": "ok", "checks": {"redis": "ok", "postgres": "ok"}}

MOVED: dict[str, Any] = {
    "match_id": "0b7a3d9e-8f7c-4c1e-bb6a-5d1f3e2a9c10",
    "version": 3,
    "seat": 0,
    "move": "7C",
    "events": [
        {"type": "card_played", "hand": 0, "trick": 0, "seat": 0, "card": "7C", "v": 3, "seq": 5}
    ],
}

TOKEN: dict[str, Any] = {"token": "MZV6CvH6_ogDi5HWVI1rVc-So4Xw3XImQgd_tPjDcPI", "account": ACCOUNT}
SIGN_UP: dict[str, Any] = {"name": "Ayşe", "password": "correct horse battery", "is_bot": False}
LOG_IN: dict[str, Any] = {"name": "Ayşe", "password": "correct horse battery"}
NEW_TABLE: dict[str, Any] = {"mode": "live", "hands": 8, "ruleset": "standard", "sit": False}
TAKE_SEAT: dict[str, Any] = {"seat": 0, "client_seed": "ab" * 32}


def path(name: str, example: str, description: str) -> dict[str, Any]:
    """A path parameter's documentation with its example (``Blueprint.route(parameters=)``)."""
    return {"in": "path", "name": name, "description": description, "example": example}


MATCH_PATH = [path("match_id", MATCH_ID, "the match's id (the same as its table's)")]
TABLE_PATH = [path("table_id", TABLE_ID, "the table's id")]

#: ``GET /v1/matches/{id}/stream`` sends JSON objects, one a line (NDJSON).
STREAM = "\n".join(
    [
        '{"type": "card_played", "hand": 0, "trick": 0, "seat": 0, "card": "7C", "v": 3, "seq": 5}',
        '{"type": "heartbeat", "server_time_ms": 1796168340000}',
        '{"type": "your_turn", "version": 8, "match": {"id": "' + MATCH_ID + '", "...": "..."}}',
    ]
)

#: Quick-match states (``/v1/quickmatch``): waiting in a pool, a table found, the match started.
QUICK_WAITING = {
    "state": "waiting",
    "server_time_ms": 1796168340000,
    "ruleset": "standard",
    "hands": 8,
    "guest": False,
    "rating": 1512,
    "joined_ms": 1796168328000,
    "waited_ms": 12000,
    "window": 160,
    "waiting": 7,
}
QUICK_FOUND = {
    "state": "found",
    "server_time_ms": 1796168352000,
    "ruleset": "standard",
    "hands": 8,
    "guest": False,
    "rating": 1512,
    "table_id": TABLE_ID,
    "seat": 2,
    "server_commit": "9f1c2b7e4a6d8f0e3b5c7a9d1e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f",
    "confirm_by_ms": 1796168367000,
    "confirmed": False,
    "confirmed_seats": 1,
}
QUICK_MATCHED = {
    "state": "matched",
    "server_time_ms": 1796168358000,
    "ruleset": "standard",
    "hands": 8,
    "guest": False,
    "rating": 1512,
    "match_id": TABLE_ID,
}
#: ``GET /v1/quickmatch/stream``: the state as NDJSON, a line whenever it changes.
QUICK_STREAM = "\n".join(
    [
        '{"state": "waiting", "server_time_ms": 1796168340000, "window": 160, "waiting": 7}',
        '{"type": "heartbeat", "server_time_ms": 1796168350000}',
        '{"state": "found", "table_id": "' + TABLE_ID + '", "seat": 2, "...": "..."}',
    ]
)
