"""Schemas of the probes."""

from __future__ import annotations

import marshmallow as ma


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True)


class ReadySchema(HealthSchema):
    checks = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(), required=True)
