"""Development on one machine: `make run` uses this module."""

from .base import *  # noqa: F403
from .base import STORAGES

DEBUG = True
# Serve static files straight from the source folders: no collectstatic step in development.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
