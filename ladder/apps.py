from django.apps import AppConfig


class LadderConfig(AppConfig):
    name = "ladder"
    verbose_name = "Rating ladder"

    def ready(self) -> None:
        # The games app enqueues ``ladder.tasks.rate_match`` by name from any process (a web
        # server finishing a match): the task must be registered there, not only in workers.
        from . import tasks  # noqa: F401
