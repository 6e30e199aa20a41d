"""Making tournaments (issue 29 § 2): the checks every maker passes through (admin, player,
schedule), a player's own events private and limited, a schedule's events made once per slot at
its local time, and the admin's form and cancel."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from django.utils import timezone

from accounts.selectors import coin_audit
from core.errors import ServiceError
from tournaments.models import Schedule, Tournament
from tournaments.services.creation import schedule_template_check, tournament_create
from tournaments.services.entries import tournament_join
from tournaments.services.ticks import schedule_slots, schedules_fill

pytestmark = pytest.mark.django_db

SOON = timezone.now() + timedelta(hours=2)


def make(**fields):
    given = {
        "name": "Cup",
        "game": "japanese_joker",
        "starts_at": SOON,
        "duration_minutes": 30,
        **fields,
    }
    return tournament_create(**given)


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"name": "  "}, "bad_name"),
        ({"game": "poker"}, "unknown_game"),
        ({"speed": "blitz"}, "bad_speed"),
        ({"duration_minutes": 1}, "bad_duration"),
        ({"format": "swiss", "rounds": 0}, "bad_rounds"),
        ({"format": "knockout"}, "bad_format"),
        ({"entry_fee": -5}, "bad_fee"),
        ({"prize_shares": [20, 50]}, "bad_shares"),
        ({"prize_shares": [50, 0]}, "bad_shares"),
        ({"options": {"points": 7}}, "bad_options"),
        ({"access": "password", "password": "ab"}, "short_password"),
        ({"max_players": 1}, "bad_size"),
    ],
)
def test_every_field_is_checked_with_a_reason_a_person_can_read(fields, code):
    with pytest.raises(ServiceError) as refused:
        make(**fields)
    assert refused.value.code == code and str(refused.value)
    assert not Tournament.objects.exists()


def test_a_players_own_tournament_is_private_soon_and_limited(alice, bob, settings):
    with pytest.raises(ServiceError, match="friends or by password"):
        make(creator=alice)
    friends = make(creator=alice, access="friends")
    assert friends.max_players == settings.TOURNAMENT_PLAYER_MAX_PLAYERS
    with pytest.raises(ServiceError) as refused:
        make(creator=alice, access="friends", starts_at=timezone.now() + timedelta(days=30))
    assert refused.value.code == "bad_start"
    make(creator=alice, access="password", password="secret")
    with pytest.raises(ServiceError) as refused:
        make(creator=alice, access="friends")
    assert refused.value.code == "too_many"
    # Only the organiser's friends enter a friends-only event.
    with pytest.raises(ServiceError) as refused:
        tournament_join(player=bob, tournament_id=friends.pk)
    assert refused.value.code == "friends_only"


def test_a_password_event_takes_those_who_know_the_password(alice, bob):
    event = make(creator=alice, access="password", password="secret")
    with pytest.raises(ServiceError) as refused:
        tournament_join(player=bob, tournament_id=event.pk, password="guess")
    assert refused.value.code == "wrong_password"
    assert tournament_join(player=bob, tournament_id=event.pk, password="secret")


def test_a_tournament_password_cannot_be_guessed_without_end(alice, bob):
    event = make(creator=alice, access="password", password="secret")
    for guess in range(5):
        with pytest.raises(ServiceError) as refused:
            tournament_join(player=bob, tournament_id=event.pk, password=f"guess{guess}")
        assert refused.value.code == "wrong_password"
    with pytest.raises(ServiceError) as refused:  # even the right one, for a while
        tournament_join(player=bob, tournament_id=event.pk, password="secret")
    assert refused.value.code == "password_pause"


def test_a_guest_enters_free_casual_events_only(guest):
    rated = make()
    casual = make(rated=False)
    with pytest.raises(ServiceError) as refused:
        tournament_join(player=guest, tournament_id=rated.pk)
    assert refused.value.code == "guest_tournament"
    assert tournament_join(player=guest, tournament_id=casual.pk)


def test_a_daily_schedule_makes_its_event_at_the_local_time_once_per_slot():
    schedule = Schedule.objects.create(
        name="Evening arena",
        time_of_day=time(20, 0),
        time_zone="Asia/Tbilisi",  # UTC+4 all year
        template={"game": "japanese_joker", "speed": "fast", "duration_minutes": 60},
    )
    now = datetime(2026, 12, 4, 10, 0, tzinfo=UTC)
    assert schedule_slots(schedule, now, timedelta(hours=24)) == [
        datetime(2026, 12, 4, 16, 0, tzinfo=UTC)
    ]
    assert schedules_fill(now=now) == 1
    assert schedules_fill(now=now) == 0  # the next tick, or a second beat
    event = Tournament.objects.get()
    assert (event.name, event.starts_at, event.schedule) == (
        "Evening arena",
        datetime(2026, 12, 4, 16, 0, tzinfo=UTC),
        schedule,
    )


def test_a_weekly_schedule_skips_the_other_days():
    schedule = Schedule.objects.create(
        name="Sunday Swiss",
        every="week",
        weekday=6,
        time_of_day=time(18, 0),
        time_zone="UTC",
        template={"game": "classic_joker", "format": "swiss", "rounds": 3},
    )
    now = datetime(2026, 12, 4, 10, 0, tzinfo=UTC)  # a Friday
    assert schedule_slots(schedule, now, timedelta(days=7)) == [
        datetime(2026, 12, 6, 18, 0, tzinfo=UTC)
    ]


@pytest.mark.parametrize(
    "template",
    [None, {}, {"game": "japanese_joker", "colour": "red"}, {"game": "japanese_joker"}],
)
def test_a_schedule_template_that_would_not_make_an_event_is_refused(template):
    with pytest.raises(ServiceError):
        schedule_template_check(template)  # the last: an arena with no duration


def test_the_admin_makes_events_through_the_same_checks_and_cancels_with_refunds(
    admin_client, alice
):
    page = admin_client.post(
        "/admin/tournaments/tournament/add/",
        {
            "name": "Admin cup",
            "game": "japanese_joker",
            "speed": "fast",
            "format": "arena",
            "rated": "on",
            "starts_at_0": "2030-01-01",
            "starts_at_1": "20:00:00",
            "duration_minutes": "2",
            "entry_fee": "0",
            "prize_shares": "[50, 30, 20]",
            "options": "{}",
            "access": "public",
            "max_players": "100",
        },
    )
    assert page.status_code == 200 and "An arena lasts" in page.content.decode()
    assert not Tournament.objects.exists()
    admin_client.post(
        "/admin/tournaments/tournament/add/",
        {
            "name": "Admin cup",
            "game": "japanese_joker",
            "speed": "fast",
            "format": "arena",
            "rated": "on",
            "starts_at_0": "2030-01-01",
            "starts_at_1": "20:00:00",
            "duration_minutes": "60",
            "entry_fee": "100",
            "prize_shares": "[50, 30, 20]",
            "options": "{}",
            "access": "public",
            "max_players": "100",
        },
    )
    event = Tournament.objects.get()
    tournament_join(player=alice, tournament_id=event.pk)
    admin_client.post(
        "/admin/tournaments/tournament/",
        {"action": "cancel", "_selected_action": [event.pk]},
    )
    event.refresh_from_db()
    assert event.status == Tournament.Status.CANCELLED
    assert alice.wallet.balance == 1000 and coin_audit().ok
