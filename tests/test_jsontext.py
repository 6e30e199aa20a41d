"""The hot paths' JSON (core.jsontext): orjson's speed with the standard library's results."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from core import jsontext
from games.models import Match, MatchEvent
from tests.support.live import start_table

SAMPLES = [
    {"type": "state", "version": 3, "view": {"hand": ["AS", "X1"], "trick": []}},
    {"type": "chat", "text": "გამარჯობა, привет", "score": -1.5, "flag": None, "ok": True},
    [1, [2, [3, {"deep": ()}]]],
]


@pytest.mark.parametrize("value", SAMPLES)
def test_the_text_is_compact_json_that_reads_back_as_json_would_write_it(value):
    text = jsontext.dumps(value)
    assert text == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert json.loads(text) == json.loads(json.dumps(value))


@pytest.mark.parametrize(
    "value",
    [
        {"type": "error", "id": "\ud800"},  # a client's lone surrogate, echoed by an error frame
        {"big": 2**70},
        {1: "a key that is not a string"},
    ],
)
def test_what_orjson_refuses_is_written_by_json_instead(value):
    text = jsontext.dumps(value)
    assert text == json.dumps(value, separators=(",", ":"))
    text.encode("utf-8")  # a lone surrogate is escaped: the socket can send the text


def test_a_nan_or_an_infinity_is_written_as_null_not_as_the_nan_json_writes():
    assert (
        jsontext.dumps({"score": float("nan"), "top": float("inf")}) == '{"score":null,"top":null}'
    )


@pytest.mark.django_db
def test_a_stored_state_and_action_read_back_unchanged(alice, bob):
    table = start_table("japanese_joker", [alice, bob])
    match = Match.objects.get(table=table)
    state = {**match.state, "note": "ალისა", "huge": 2**70, "ratio": 0.1}
    match.state = state
    match.save(update_fields=["state"])
    assert Match.objects.get(pk=match.pk).state == state
    if connection.vendor == "postgresql":  # the move's write goes through the fast encoder
        adapted = Match._meta.get_field("state").get_db_prep_save(state, connection)
        assert adapted.dumps is jsontext.dumps
    event = MatchEvent.objects.create(match=match, version=99, action={"card": "X1", "n": [1]})
    assert MatchEvent.objects.get(pk=event.pk).action == {"card": "X1", "n": [1]}
