"""Tables and the lobby: create, list open live tables, take a seat, leave before the start."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from king_web.jsonbody import Blueprint

from king_game import render
from king_game.context import current_account, current_player, game
from king_game.problems import Problem, problems
from king_game.resources import examples
from king_game.resources.tables.schemas import (
    JoinSchema,
    LobbySchema,
    SeatedSchema,
    TableCreateSchema,
    TableSchema,
    seed_before_commit,
)

blp = Blueprint("tables", __name__, url_prefix="/v1", description="Tables, seats and the lobby")


@blp.route("/tables")
class TablesView(MethodView):
    @blp.response(200, LobbySchema, example=examples.LOBBY)
    @problems(blp, "unauthenticated")
    def get(self) -> dict[str, Any]:
        """The lobby: live tables that wait for players, oldest first."""
        current_account()
        return {"tables": [render.table(r) for r in game().store.lobby()]}

    @blp.arguments(TableCreateSchema, example=examples.NEW_TABLE)
    @blp.response(201, TableSchema, example=examples.TABLE)
    @problems(blp, "unauthenticated", "validation_failed", "bad_table", "seed_before_commit")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a table; nobody sits yet, not even you. Then sit with your seed.

        The answer carries the deal commitment (``server_commit``): keep it, make your client
        seed, then ``POST /v1/tables/{id}/seats`` with it, like every player (a computer
        table starts then). Creation takes no ``client_seed`` (``seed_before_commit``): a seed
        sent before the commitment was seen would break the fair order of KINGDEAL-v1.
        """
        if body["sit"]:
            raise seed_before_commit()
        record = game().store.create_table(
            current_player(),
            mode=body["mode"],
            ruleset=body["ruleset"],
            hands=body["hands"],
            level=body["level"] if body["mode"] == "computer" else None,
            seat=body["seat"],
            options=body["options"],
        )
        return render.table(record)


@blp.route("/tables/<table_id>", parameters=examples.TABLE_PATH)
class TableView(MethodView):
    @blp.response(200, TableSchema, example=examples.TABLE)
    @problems(blp, "unauthenticated", "not_found")
    def get(self, table_id: str) -> dict[str, Any]:
        """One table: its seats, status and deal commitment."""
        current_account()
        record, _ = game().store.load(table_id)
        return render.table(record)


@blp.route("/tables/<table_id>/seats", parameters=examples.TABLE_PATH)
class SeatsView(MethodView):
    @blp.arguments(JoinSchema, required=False, example=examples.TAKE_SEAT)
    @blp.response(201, SeatedSchema, example=examples.SEATED)
    @problems(
        blp,
        "unauthenticated",
        "forbidden: a computer table's one human seat is its creator's",
        "not_found",
        "seat_taken",
        "table_full",
        "already_seated",
        "validation_failed",
        "bad_seed",
    )
    def post(self, body: dict[str, Any], table_id: str) -> dict[str, Any]:
        """Take a seat (a given one or any free one) with your client seed.

        Make the seed after you have read the table's ``server_commit`` (from its creation,
        ``GET /v1/tables/{id}`` or the lobby), and keep both to verify the deal at the end.
        """
        player = current_player()  # a request without a token is 401 before anything else
        record, _ = game().store.load(table_id)
        if record.mode != "live" and record.creator_id != player.player_id:
            raise Problem("forbidden", "a computer table has one human seat: its creator's")
        record, seat = game().store.join(
            table_id, player, seat=body["seat"], client_seed=body["client_seed"]
        )
        return {"seat": seat, "table": render.table(record)}


@blp.route("/tables/<table_id>/seats/me", parameters=examples.TABLE_PATH)
class MySeatView(MethodView):
    @blp.response(200, TableSchema, example=examples.LEFT_TABLE)
    @problems(blp, "unauthenticated", "not_seated", "table_started")
    def delete(self, table_id: str) -> dict[str, Any]:
        """Leave a table before its match starts (an empty table closes)."""
        return render.table(game().store.leave(table_id, current_player()))
