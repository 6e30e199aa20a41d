"""The embedded default's broker, made before its processes start.

On the embedded default the Celery broker is kombu's SQLAlchemy transport on a SQLite file.
Each process that first touches it creates its tables and its queue's row, checking first
and inserting after; the worker, beat and the web process start together, and two of them
can both find nothing and both insert. Kombu catches only an ``OperationalError`` there, so
the loser's ``IntegrityError`` (a unique name) ended in a traceback in a first ``make run``'s
log. Made once, by ``migrate_all``, before ``make run`` starts anything, they are only read.
"""

from __future__ import annotations

from django.conf import settings


def prepare_embedded_broker() -> list[str]:
    """Create the broker's tables and every queue the site routes to; returns their names
    (none when the broker is Redis, which needs nothing made)."""
    if not settings.CELERY_BROKER_URL.startswith("sqla+"):
        return []
    from celery import current_app as app  # the site's (config/celery.py), loaded with Django

    with app.connection_for_write() as connection:
        channel = connection.default_channel
        for queue in app.amqp.queues.values():
            queue(channel).declare()
        return sorted(app.amqp.queues)
