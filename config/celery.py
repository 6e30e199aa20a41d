"""The Celery app: tasks are thin wrappers around services (STYLE.md § 11)."""

from celery import Celery

from config.mode import use_default_settings

use_default_settings()

app = Celery("joker")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
