"""Quick play's pools are one per number of seats (classic Joker at 4, 3 or 2): a pool entry
says its seats. Every entry waiting before this waited for the game's default table, so it gets
that game's default seats, read from the registry (an entry of a game no longer offered is
dropped: no pool could seat it). The pool's unique constraint and index take the seats in."""

from django.db import migrations, models


def default_seats(apps, schema_editor) -> None:
    from games.rules import game_spec, is_game

    PoolEntry = apps.get_model("games", "PoolEntry")
    for game in PoolEntry.objects.values_list("game", flat=True).distinct():
        entries = PoolEntry.objects.filter(game=game)
        if is_game(game):
            entries.update(seats=game_spec(game).seat_count(None))
        else:
            entries.delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0011_pools")]

    operations = [
        migrations.AddField(
            model_name="poolentry",
            name="seats",
            field=models.PositiveSmallIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.RunPython(default_seats, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="poolentry", name="pool_entry_once"),
        migrations.AddConstraint(
            model_name="poolentry",
            constraint=models.UniqueConstraint(
                fields=("ticket", "game", "speed", "stake", "rated", "seats"),
                name="pool_entry_once_per_seats",
            ),
        ),
        migrations.RemoveIndex(model_name="poolentry", name="games_poole_game_2f2af6_idx"),
        migrations.AddIndex(
            model_name="poolentry",
            index=models.Index(
                fields=["game", "speed", "stake", "rated", "seats"], name="pool_entry_pool"
            ),
        ),
    ]
