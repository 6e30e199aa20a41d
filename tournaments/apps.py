from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and seasons"

    def ready(self) -> None:
        # Enqueued by name from any process (a web server ending a match): registered there too.
        from . import tasks  # noqa: F401
