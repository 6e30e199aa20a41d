"""One machine: `make run` uses this module.

`make run` is also how people host the site for friends (``HOST=0.0.0.0 make run``), so DEBUG
is off unless a developer asks for it (``DEBUG=1 make run``): a missing page shows the site's own
404, never Django's debug page with every URL pattern. Static files are served by whitenoise
straight from the source folders either way: no collectstatic step.
"""

from .base import *  # noqa: F403
from .base import STORAGES, env_bool

DEBUG = env_bool("DEBUG", False)
WHITENOISE_USE_FINDERS = True
# Files edited while the site runs are served fresh only to a developer (DEBUG=1).
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
