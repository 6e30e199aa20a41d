from django.apps import AppConfig
from django.db.backends.signals import connection_created


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Shared plumbing"

    def ready(self) -> None:
        from .outage import database_answered

        # The first connection after an outage is the news that the database is back.
        connection_created.connect(database_answered, dispatch_uid="core.outage")
