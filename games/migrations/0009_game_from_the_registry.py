# The game columns are checked against the registry of games (games.rules), not by choices, so
# that a new game needs no migration. No change in the database.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_orjson_state_and_action"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="game",
            field=models.CharField(max_length=20),
        ),
        migrations.AlterField(
            model_name="table",
            name="game",
            field=models.CharField(max_length=20),
        ),
    ]
