from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_match_presence_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="told",
            field=models.BooleanField(db_default=True, default=True),
        ),
    ]
