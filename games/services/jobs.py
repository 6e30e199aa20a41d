"""Enqueueing Celery tasks after commit, by name, in one place.

Services never import ``games.tasks`` (the tasks import the services), and ``games`` never
imports ``ladder``: a task is named by its string. A broker hiccup must not undo a change that
already committed, so a failed enqueue is logged and left to the sweeps.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_on_commit(task_name: str, *args: Any, countdown: float = 0) -> None:
    """Run ``task_name(*args)`` on a worker once the current transaction commits."""

    def enqueue() -> None:
        try:
            task = current_app.tasks[task_name]
            task.apply_async(args, countdown=countdown or None)
        except Exception:
            logger.exception("Could not enqueue %s%r; the sweep will catch it.", task_name, args)

    transaction.on_commit(enqueue)
