from django.apps import AppConfig, apps


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games, tables and matches"

    def ready(self) -> None:
        # Services enqueue tasks by name (games.services.jobs) from any process, a web server
        # included: the tasks must be registered there, not only in workers.
        from . import tasks  # noqa: F401
        from .rules import GameSpec, register_game

        # A game beyond the built-in ones is an installed app whose package has a GameSpec
        # ``SPEC``; its help page and renderer are its own templates and static files.
        for app in apps.get_app_configs():
            spec = getattr(app.module, "SPEC", None)
            if isinstance(spec, GameSpec):
                register_game(spec)
