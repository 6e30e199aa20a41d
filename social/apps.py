from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Chat, moderation, blocking and cool-downs"

    def ready(self) -> None:
        from . import signals  # noqa: F401 (a deactivated account gives up its seat)
