"""Presence per player and per server process, the absence bank, a turn clock that never pauses.

Connection rows are ephemeral (open sockets): they are dropped and the table is made anew, keyed
by the server process whose heartbeat keeps them alive."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_player_last_seen"),
        ("games", "0003_table_notice_in_reader_language"),
    ]

    operations = [
        migrations.DeleteModel(name="TableConnection"),
        migrations.CreateModel(
            name="LiveServer",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=100, unique=True)),
                ("started_at", models.DateTimeField(auto_now_add=True)),
                ("last_seen_at", models.DateTimeField(db_index=True)),
            ],
        ),
        migrations.CreateModel(
            name="TableConnection",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("channel_name", models.CharField(max_length=200, unique=True)),
                ("connected_at", models.DateTimeField(auto_now_add=True)),
                ("server", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="connections", to="games.liveserver")),
                ("table", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="connections", to="games.table")),
                ("player", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="accounts.player")),
            ],
            options={"indexes": [models.Index(fields=["table", "player"], name="games_table_table_i_3e1822_idx")]},
        ),
        migrations.AddField(
            model_name="seat",
            name="absence_used_ms",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RemoveField(model_name="match", name="turn_remaining_ms"),
        migrations.AddField(
            model_name="match",
            name="watched",
            field=models.BooleanField(default=False),
        ),
    ]
