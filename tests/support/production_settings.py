"""The production settings (``config/settings/production.py``) for a test's served site, with
three differences that the test needs and production's behaviour does not depend on: its Celery
tasks go to a queue of the test's own (as ``tests.ladder.live_settings``), passwords are hashed
with MD5 as the test process hashes them (hundreds of logins, not hundreds of PBKDF2 runs), and
static files come from the source folders (no collectstatic manifest)."""

import os

from config.settings.production import *  # noqa: F403
from config.settings.production import STORAGES

CELERY_TASK_DEFAULT_QUEUE = os.environ.get("LADDER_TEST_QUEUE", "celery")
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
WHITENOISE_USE_FINDERS = True
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
