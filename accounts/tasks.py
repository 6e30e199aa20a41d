from celery import shared_task
from django.contrib.sessions.models import Session
from django.utils import timezone


@shared_task
def clear_expired_sessions() -> int:
    """Nightly: drop expired sessions (a guest's player stays; only the session goes)."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted
