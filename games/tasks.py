"""Celery tasks: thin and idempotent, each one service call (STYLE.md § 11)."""

from celery import shared_task

from .services.lobby import tables_expire


@shared_task
def expire_idle_tables() -> int:
    return tables_expire()
