from celery import shared_task
from django.contrib.sessions.models import Session
from django.utils import timezone

from core.outage import ends_when_database_unavailable


@shared_task
@ends_when_database_unavailable
def clear_expired_sessions() -> int:
    """Nightly: drop expired sessions (a guest's player stays; only the session goes). Expired
    sessions let no one in, so a night the database missed waits for the next."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted
