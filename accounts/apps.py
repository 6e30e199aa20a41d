from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players and accounts"

    def ready(self) -> None:
        from . import sockets  # noqa: F401 (connects the receivers that end a player's sockets)
