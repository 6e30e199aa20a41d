"""JSON text on the hot paths, written by orjson, with the standard library's results.

A move encodes each seat's frame and its new stored state: with ``json`` that was a fifth of
the move's time on its database thread (``make bench``, py-spy); orjson does it about ten times
faster. Whatever orjson refuses and ``json`` takes (a lone surrogate in a client's action id that
an error frame echoes, an integer past 64 bits, a key that is not a string) goes to ``json``, so
nothing that encoded before fails now. One result differs: a NaN or an infinity, which ``json``
writes as ``NaN``, not JSON (PostgreSQL refuses it), orjson writes as ``null``; no frame or state
holds one (the rules engines count in integers). Reading stays with ``json``: it is the cheaper
half, the socket's validation is written against what it accepts, and orjson would read an
integer past 64 bits as a float.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper


def dumps(value: Any) -> str:
    """Compact JSON text (non-ASCII as UTF-8, not ``\\u`` escapes)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


class JSONField(models.JSONField):
    """Django's JSONField, encoded for PostgreSQL by :func:`dumps` (a field with an encoder of
    its own keeps Django's ``json``). It is read by ``json`` still: orjson reads an integer past
    64 bits as a float, and reading is the cheaper half."""

    def get_db_prep_value(
        self, value: Any, connection: BaseDatabaseWrapper, prepared: bool = False
    ) -> Any:
        adapted = super().get_db_prep_value(value, connection, prepared)
        if connection.vendor == "postgresql" and self.encoder is None:
            from psycopg.types.json import Jsonb  # the PostgreSQL driver: there only

            if isinstance(adapted, Jsonb):
                return Jsonb(adapted.obj, dumps=dumps)
        return adapted
