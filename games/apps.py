from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games, tables and matches"

    def ready(self) -> None:
        # Services enqueue tasks by name (games.services.jobs) from any process, a web server
        # included: the tasks must be registered there, not only in workers.
        from . import tasks  # noqa: F401
