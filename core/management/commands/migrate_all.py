"""``manage.py migrate_all``: migrate every database the site uses, as ``make run`` does.

The embedded default keeps its channel layer in a SQLite file of its own (the "channels"
database), which plain ``migrate`` (the default database only) would leave empty. Its Celery
broker is a SQLite file too, whose tables and queues are made here, before any process races
to make them (core/broker.py).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from core.broker import prepare_embedded_broker


class Command(BaseCommand):
    help = "Migrate every configured database."

    def handle(self, *args: Any, **options: Any) -> None:
        for alias in settings.DATABASES:
            call_command(
                "migrate", database=alias, interactive=False, verbosity=options["verbosity"]
            )
        queues = prepare_embedded_broker()
        if queues and options["verbosity"]:
            self.stdout.write(f"Broker queues ready: {', '.join(queues)}")
