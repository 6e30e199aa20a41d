"""Which settings module a process loads when DJANGO_SETTINGS_MODULE is not set."""

import os


def use_default_settings() -> None:
    mode = os.environ.get("DJANGO_ENV", "local").strip().lower()
    module = "config.settings.production" if mode == "production" else "config.settings.local"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", module)
