"""``manage.py verify_match <id>`` or ``--file match.json``: is this match what its seed and its
events say it is? Prints ``OK`` or every difference, and exits non-zero when there is one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import history, replay
from games.models import Match


class Command(BaseCommand):
    help = (
        "Re-derive every deal of a finished match from its seed, check the seed against its "
        "hash, replay the events and check the stored result (docs/match-export.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", nargs="?", type=int, help="a match in this database")
        parser.add_argument("--file", type=Path, help="an exported match (JSON) instead")

    def handle(self, *args: Any, **options: Any) -> None:
        if (options["match_id"] is None) == (options["file"] is None):
            raise CommandError("Give either a match id or --file.")
        if options["file"] is not None:
            record, name = self._from_file(Path(options["file"]))
            problems = replay.verify(record)
        else:
            match = self._ended_match(options["match_id"])
            record, problems = history.verify_stored(match)
            name = f"match {match.pk}"
        if problems:
            for problem in problems:
                self.stderr.write(f"DIFFERS: {problem}")
            raise CommandError(f"{name}: {len(problems)} difference(s).")
        self.stdout.write(
            self.style.SUCCESS(
                f"OK: {name} ({record['game']}): the seed matches its hash, "
                f"{len(record['deals'])} deal(s) re-derived from it, {len(record['events'])} "
                f"event(s) replayed, the result {record['result']} follows."
            )
        )

    def _from_file(self, path: Path) -> tuple[dict[str, Any], str]:
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from None
        if not isinstance(record, dict):
            raise CommandError(f"{path} does not hold a JSON object.")
        return record, str(path)

    def _ended_match(self, match_id: int) -> Match:
        match = Match.objects.select_related("table").filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"There is no match {match_id}.")
        if not history.is_over(match):
            raise CommandError(f"Match {match_id} is still being played: its seed stays secret.")
        return match
