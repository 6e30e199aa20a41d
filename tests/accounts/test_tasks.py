from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.tasks import clear_expired_sessions

pytestmark = pytest.mark.django_db


def test_clearing_sessions_drops_only_expired_ones_and_can_run_twice():
    live, old = SessionStore(), SessionStore()
    live.create()
    old.create()
    Session.objects.filter(session_key=old.session_key).update(
        expire_date=timezone.now() - timedelta(days=1)
    )
    assert clear_expired_sessions.delay().get() == 1
    assert clear_expired_sessions.delay().get() == 0
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]
