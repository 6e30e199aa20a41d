"""Migration 0002: the result rows written before ``TournamentResult.ended_at`` take their
match's end (issue 40), a bye its count's time; the standings then read them in play order."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tournaments.models import Tournament, TournamentResult
from tournaments.services.running import table_count

from .test_counting_order import WIN, played, running_arena

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0001_initial")]
AFTER = [("tournaments", "0002_tournamentresult_ended_at")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.fixture(autouse=True)
def _back_to_the_latest_schema():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_rows_written_before_the_column_take_their_matchs_end(alice, bob):
    tournament = running_arena([alice, bob])
    ended = timezone.now() - timedelta(minutes=5)
    link = played(tournament, alice, bob, WIN, ended)
    assert table_count(link_id=link.pk)
    swiss = Tournament.objects.create(
        name="Swiss", game="japanese_joker", format="swiss", starts_at=ended, rounds=3
    )
    bye = TournamentResult.objects.create(tournament=swiss, player=alice, round_number=1)

    apps = migrate(BEFORE)
    apps = migrate(AFTER)
    Result = apps.get_model("tournaments", "TournamentResult")
    assert {r.ended_at for r in Result.objects.filter(tournament_table_id=link.pk)} == {ended}
    stored_bye = Result.objects.get(pk=bye.pk)
    assert stored_bye.ended_at == stored_bye.recorded_at
