from __future__ import annotations

import marshmallow as ma


class RulesSchema(ma.Schema):
    class Meta:
        unknown = ma.INCLUDE

    cards = ma.fields.List(
        ma.fields.String(), metadata={"description": "the 52 card codes, id order"}
    )
    suits = ma.fields.List(ma.fields.String())
    contracts = ma.fields.List(ma.fields.Dict())
    rulesets = ma.fields.List(ma.fields.Dict())
    clocks = ma.fields.Dict()
    modes = ma.fields.List(ma.fields.Dict())
    bot_levels = ma.fields.List(ma.fields.String())
    fairness = ma.fields.Dict()
