"""A new match's seed names its deal derivation (``sha256:`` and 64 hex digits, docs/fairness.md
§ The derivation): the column holds up to 80 characters. The seeds stored stay as they are and
keep dealing as they did."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0012_pool_entry_seats")]

    operations = [
        migrations.AlterField(
            model_name="match", name="seed", field=models.CharField(max_length=80)
        ),
    ]
