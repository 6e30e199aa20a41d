"""The Celery app: tasks are thin wrappers around services (docs/architecture.md § Tasks)."""

from typing import Any

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger

from config.mode import use_default_settings

use_default_settings()

app = Celery("joker")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@after_setup_logger.connect
@after_setup_task_logger.connect
def one_line_per_outage(logger: Any, **kwargs: Any) -> None:
    """Celery replaces the site's logging with its own: give its handlers the site's filter, so
    an outage of the database or of Redis is one line per episode here too (core/outage.py)."""
    from core.outage import OutageLogFilter

    for handler in logger.handlers:
        handler.addFilter(OutageLogFilter())
