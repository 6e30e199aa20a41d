"""Settings for the server and worker processes of the real-worker test: the test settings, but
a finished match's task goes to the broker (Redis) for a real Celery worker, on a queue of the
test's own."""

import os

from config.settings.test import *  # noqa: F403

CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("LADDER_TEST_QUEUE", "celery")
