"""The test suite: the same settings, faster hashing, and the services given by the environment."""

import os
import re

# Under pytest-xdist each worker has its own test database (pytest-django adds a suffix); give it
# its own Redis database too, so channel groups, cache keys and Celery queues of one worker's
# tables never meet another's. The servers and workers a test starts inherit the changed URL.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
_redis = re.fullmatch(r"(redis://[^/]+)(?:/(\d+))?", os.environ.get("REDIS_URL", ""))
if _worker.startswith("gw") and _redis and not os.environ.get("TEST_REDIS_PER_WORKER"):
    os.environ["REDIS_URL"] = f"{_redis[1]}/{int(_redis[2] or 0) + int(_worker[2:])}"
    os.environ["TEST_REDIS_PER_WORKER"] = "1"

from .base import *  # noqa: E402, F403
from .base import STORAGES  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# The suite's own game (tests/toy_game): an installed app whose package has a GameSpec is a game.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.toy_game"]  # noqa: F405
# Tasks queued from on_commit run in the test process; tests that exercise a worker start one.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# Computer players move at once: no pause for a person to follow the trick.
BOT_MOVE_DELAY_SECONDS = 0.0
# Serve static files from the source folders, as in development: tests never run collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# Threads and async consumers in tests open their own connections; close them after each use so
# the test database can be dropped at the end.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
# No pool in the test process: its connections close after each use, as above, and a pool's idle
# ones would keep the test database from being dropped. The servers a test starts in production
# mode have theirs (tests/reliability/test_connection_bound.py).
DATABASES["default"].get("OPTIONS", {}).pop("pool", None)  # noqa: F405
DATABASES["default"]["CONN_HEALTH_CHECKS"] = False  # noqa: F405
# SQLite's in-memory test database is shared between connections with table locks that do not
# wait (no busy timeout), so there the sockets' database work runs on Django's one shared thread,
# as the tests' own; PostgreSQL (CI) runs the real pool.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    LIVE_DB_THREADS = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # The ledger refuses TRUNCATE (accounts migration 0005) unless the session says otherwise;
    # the suite's own connections do, since Django empties the database between transactional
    # tests with TRUNCATE. A connection opened as the site opens one is refused.
    _options = DATABASES["default"].setdefault("OPTIONS", {})  # noqa: F405
    _options["options"] = f"{_options.get('options', '')} -c joker.ledger_truncate=allowed".strip()
# One process is guaranteed here (the test runner; a test that starts servers sets its own
# layer), so the embedded default's cross-process layer gives way to the in-memory one.
if not REDIS_URL:  # noqa: F405
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
