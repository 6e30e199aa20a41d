"""Japanese Whist's variant option is called ``variant`` (it was ``game``, the same word as the
game's name in every view and frame, which made the spel-or-pass badge read "bezi").

Renames the key in the options of every Japanese Whist table and match and in each match's
stored engine state. Reversible.
"""

from django.db import migrations

GAME = "japanese_whist"


def _renamed(options: dict, old: str, new: str) -> dict:
    if not isinstance(options, dict) or old not in options:
        return options
    return {(new if key == old else key): value for key, value in options.items()}


def _rename(apps, old: str, new: str) -> None:
    Table = apps.get_model("games", "Table")
    Match = apps.get_model("games", "Match")
    for table in Table.objects.filter(game=GAME).only("pk", "options"):
        options = _renamed(table.options, old, new)
        if options is not table.options:
            Table.objects.filter(pk=table.pk).update(options=options)
    for match in Match.objects.filter(game=GAME).only("pk", "options", "state"):
        options = _renamed(match.options, old, new)
        state = match.state
        if isinstance(state, dict) and isinstance(state.get("options"), dict):
            state = {**state, "options": _renamed(state["options"], old, new)}
        Match.objects.filter(pk=match.pk).update(options=options, state=state)


def forwards(apps, schema_editor) -> None:
    _rename(apps, "game", "variant")


def backwards(apps, schema_editor) -> None:
    _rename(apps, "variant", "game")


class Migration(migrations.Migration):
    dependencies = [("games", "0005_table_rated")]

    operations = [migrations.RunPython(forwards, backwards)]
