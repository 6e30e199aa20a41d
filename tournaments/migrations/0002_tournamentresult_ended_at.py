"""``TournamentResult.ended_at``: a player's arena results are scored in the order their matches
ended (issue 40). Existing rows take their match's end (a bye, or a match without one, its
count's time). Nullable: the previous release's processes still insert rows without it while
the migration runs."""

from django.db import migrations, models
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce


def fill_ended_at(apps, schema_editor):
    Result = apps.get_model("tournaments", "TournamentResult")
    Match = apps.get_model("games", "Match")
    ended = Match.objects.filter(table__tournament_link=OuterRef("tournament_table_id")).values(
        "ended_at"
    )[:1]
    Result.objects.filter(ended_at__isnull=True).update(
        ended_at=Coalesce(Subquery(ended), F("recorded_at"))
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="tournamentresult",
            name="ended_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(fill_ended_at, migrations.RunPython.noop, elidable=True),
    ]
