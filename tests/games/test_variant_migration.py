"""Migration 0006: Japanese Whist's ``game`` option becomes ``variant`` in stored tables, matches
and engine states, and a match stored before it plays on after it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.rules import get_game

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0005_table_rated")]
AFTER = [("games", "0006_japanese_whist_variant_option")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.fixture(autouse=True)
def _back_to_the_latest_schema():
    """Whatever the test left, the database ends at every app's latest migration (later ones
    than 0006 too), as the rest of the suite expects."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.slow
def test_stored_whist_options_are_renamed_and_the_match_still_plays(alice):
    apps = migrate(BEFORE)
    Table = apps.get_model("games", "Table")
    Match = apps.get_model("games", "Match")
    whist = get_game("japanese_whist")
    state = whist.new_match({"variant": "spel_pass", "points": 7}, "old seed").to_dict()
    state["options"] = {"game": "spel_pass", "points": 7}  # as 0005 stored it
    table = Table.objects.create(
        game="japanese_whist",
        options={"game": "spel_pass", "points": 7},
        creator_id=alice.pk,
        seats_total=2,
        status="playing",
    )
    Match.objects.create(
        table=table,
        game="japanese_whist",
        options={"game": "spel_pass", "points": 7},
        seed="old seed",
        seed_hash="x",
        state=state,
    )
    joker = Table.objects.create(
        game="japanese_joker", options={"points": 21}, creator_id=alice.pk, seats_total=2
    )

    apps = migrate(AFTER)
    Table = apps.get_model("games", "Table")
    Match = apps.get_model("games", "Match")
    assert Table.objects.get(pk=table.pk).options == {"variant": "spel_pass", "points": 7}
    match = Match.objects.get(table_id=table.pk)
    assert match.options == {"variant": "spel_pass", "points": 7}
    assert match.state["options"] == {"variant": "spel_pass", "points": 7}
    assert Table.objects.get(pk=joker.pk).options == {"points": 21}  # other games untouched
    restored = whist.from_dict(match.state)
    assert restored.view(0)["variant"] == "spel_pass"
    assert restored.view(0)["phase"] == "declare"

    apps = migrate(BEFORE)  # and back
    assert apps.get_model("games", "Table").objects.get(pk=table.pk).options == {
        "game": "spel_pass",
        "points": 7,
    }
    migrate(AFTER)
