"""A table is rated or casual (the ladder, issue 14). Tables opened before the ladder existed
stay casual: their players never chose to be rated."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_presence_per_player_absence_bank"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="rated",
            field=models.BooleanField(default=False),
        ),
    ]
