"""Making tournaments: by an admin (any public event), by a registered player (a private one,
friends-only or with a password, within limits), or by a schedule's occurrence (beat).

Every field is checked here, whoever asks (the admin's form, a player's form, a schedule's
template), and a refusal is a ``ServiceError`` a person can read.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import Player
from accounts.selectors import wallet_balance
from core.errors import ServiceError
from games.catalog import GAME_TITLES
from games.models import Table
from games.rules import RulesError, get_game
from games.rules_text import rules_message

from .. import scoring
from ..models import Schedule, Tournament

MIN_PASSWORD_LENGTH = 4


def _refuse(message: str, code: str) -> ServiceError:
    return ServiceError(message, code=code)


class TermsRefused(ServiceError):
    """Every problem with a new event's terms at once, each with the form field it is about
    (None: the event as a whole), so the organise form says them all beside their fields; the
    first one is the error's message and code."""

    def __init__(self, problems: list[tuple[str | None, str, str]]) -> None:
        _field, message, code = problems[0]
        super().__init__(message, code=code)
        self.problems = problems


class _Problems:
    def __init__(self) -> None:
        self.found: list[tuple[str | None, str, str]] = []

    def add(self, field: str | None, message: str, code: str) -> None:
        self.found.append((field, message, code))

    def raise_any(self) -> None:
        if self.found:
            raise TermsRefused(self.found)


def _check_shape(
    *,
    game: str,
    speed: str,
    format: str,
    duration_minutes: int | None,
    rounds: int | None,
    entry_fee: int,
    prize_shares: list[int],
    options: dict[str, Any],
    problems: _Problems | None = None,
) -> dict[str, Any]:
    """The event's own fields; returns the matches' options as the game parsed them. Each
    problem is added to ``problems`` (raised at once without one)."""
    found = problems or _Problems()
    if game not in GAME_TITLES:
        raise _refuse(gettext("Choose a game."), "unknown_game")
    if speed not in Table.Speed.values:
        found.add("speed", gettext("Choose Fast, Normal or Relaxed."), "bad_speed")
    if format == Tournament.Format.ARENA:
        low, high = settings.TOURNAMENT_ARENA_MINUTES
        if not isinstance(duration_minutes, int) or not low <= duration_minutes <= high:
            found.add(
                "duration_minutes",
                gettext("An arena lasts %(low)s to %(high)s minutes.") % {"low": low, "high": high},
                "bad_duration",
            )
    elif format == Tournament.Format.SWISS:
        most = settings.TOURNAMENT_SWISS_MAX_ROUNDS
        if not isinstance(rounds, int) or not 1 <= rounds <= most:
            found.add(
                "rounds",
                gettext("A Swiss event has 1 to %(most)s rounds.") % {"most": most},
                "bad_rounds",
            )
    else:
        found.add("format", gettext("Choose Arena or Swiss."), "bad_format")
    if not isinstance(entry_fee, int) or not 0 <= entry_fee <= settings.TOURNAMENT_MAX_ENTRY_FEE:
        found.add(
            "entry_fee",
            gettext("The entry fee is 0 to %(most)s coins.")
            % {"most": settings.TOURNAMENT_MAX_ENTRY_FEE},
            "bad_fee",
        )
    if (
        not prize_shares
        or len(prize_shares) > 10
        or any(not isinstance(share, int) or share <= 0 for share in prize_shares)
        or any(better < worse for better, worse in pairwise(prize_shares))
    ):
        found.add(
            "prize_shares",
            gettext(
                "Prize shares are up to ten whole numbers above zero, best place first, "
                "none above the one before it."
            ),
            "bad_shares",
        )
    parsed: dict[str, Any] = {}
    try:
        parsed = get_game(game).parse_options(options)
    except RulesError as error:
        found.add(None, rules_message(error), "bad_options")
    if problems is None:
        found.raise_any()
    return parsed


def tournament_create(
    *,
    name: str,
    game: str,
    starts_at: datetime,
    speed: str = Table.Speed.FAST,
    format: str = Tournament.Format.ARENA,
    rated: bool = True,
    duration_minutes: int | None = None,
    rounds: int | None = None,
    entry_fee: int = 0,
    prize_shares: list[int] | None = None,
    options: dict[str, Any] | None = None,
    access: str = Tournament.Access.PUBLIC,
    password: str = "",
    creator: Player | None = None,
    max_players: int | None = None,
    now: datetime | None = None,
) -> Tournament:
    """A new upcoming event. ``creator`` None is the site (an admin); a player's own event is
    private (friends-only or with a password) and limited (``TOURNAMENT_PLAYER_*``)."""
    now = now or timezone.now()
    name = (name or "").strip()
    problems = _Problems()
    if not 1 <= len(name) <= 80:
        problems.add(
            "name", gettext("Give the tournament a name of 1 to 80 characters."), "bad_name"
        )
    shares = list(prize_shares or scoring.DEFAULT_PRIZE_SHARES)
    parsed = _check_shape(
        game=game,
        speed=speed,
        format=format,
        duration_minutes=duration_minutes,
        rounds=rounds,
        entry_fee=entry_fee,
        prize_shares=shares,
        options=options or {},
        problems=problems,
    )
    if access not in Tournament.Access.values:
        problems.add("access", gettext("Choose Public, Friends or Password."), "bad_access")
    if access == Tournament.Access.FRIENDS and creator is None:
        problems.add(
            "access",
            gettext("A friends-only tournament is for its organiser's friends: it needs one."),
            "friends_without_creator",
        )
    if access == Tournament.Access.PASSWORD and len(password or "") < MIN_PASSWORD_LENGTH:
        problems.add(
            "password",
            gettext("A password tournament needs a password of at least 4 characters."),
            "short_password",
        )
    most = settings.TOURNAMENT_MAX_PLAYERS
    if creator is not None:
        _check_players_own(creator, access, entry_fee, starts_at, now, problems)
        most = settings.TOURNAMENT_PLAYER_MAX_PLAYERS
    if max_players is None:
        max_players = most
    if not isinstance(max_players, int) or not 2 <= max_players <= most:
        problems.add(
            "max_players",
            gettext("A tournament takes 2 to %(most)s players.") % {"most": most},
            "bad_size",
        )
    problems.raise_any()
    password_hash = make_password(password) if access == Tournament.Access.PASSWORD else ""
    return Tournament.objects.create(
        name=name,
        game=game,
        speed=speed,
        format=format,
        rated=rated,
        options=parsed,
        starts_at=starts_at,
        duration_minutes=duration_minutes if format == Tournament.Format.ARENA else None,
        rounds=rounds if format == Tournament.Format.SWISS else None,
        entry_fee=entry_fee,
        prize_shares=shares,
        access=access,
        password_hash=password_hash,
        creator=creator,
        max_players=max_players,
    )


def tournament_organise(
    *,
    organiser: Player | None,
    staff: bool,
    starts_in_minutes: int,
    now: datetime | None = None,
    **terms: Any,
) -> Tournament:
    """An event made on the site's page: staff make the site's events (no creator, the site's
    limits), except a friends-only one, which is its organiser's friends'; a player makes their
    own, within a player's limits."""
    now = now or timezone.now()
    friends_only = terms.get("access") == Tournament.Access.FRIENDS
    return tournament_create(
        **terms,
        starts_at=now + timedelta(minutes=starts_in_minutes),
        creator=organiser if not staff or friends_only else None,
        now=now,
    )


def _check_players_own(
    creator: Player,
    access: str,
    entry_fee: int,
    starts_at: datetime,
    now: datetime,
    problems: _Problems,
) -> None:
    if creator.is_guest:
        raise _refuse(gettext("Sign up to organise a tournament."), "guest_tournament")
    if access == Tournament.Access.PUBLIC:
        problems.add(
            "access",
            gettext("Your own tournaments are for your friends or by password."),
            "bad_access",
        )
    if starts_at < now or (starts_at - now).days >= settings.TOURNAMENT_PLAYER_AHEAD_DAYS:
        problems.add(
            "starts_in",
            gettext("Start it within the next %(days)s days.")
            % {"days": settings.TOURNAMENT_PLAYER_AHEAD_DAYS},
            "bad_start",
        )
    if isinstance(entry_fee, int) and entry_fee > (balance := wallet_balance(creator)):
        problems.add(
            "entry_fee",
            ngettext(
                "The entry fee is more than your %(balance)s coin: you could not enter "
                "your own tournament.",
                "The entry fee is more than your %(balance)s coins: you could not enter "
                "your own tournament.",
                balance,
            )
            % {"balance": balance},
            "fee_over_balance",
        )
    pending = Tournament.objects.filter(
        creator=creator,
        status__in=[Tournament.Status.SCHEDULED, Tournament.Status.RUNNING],
    ).count()
    if pending >= settings.TOURNAMENT_PLAYER_PENDING:
        problems.add(
            None,
            gettext("You have %(count)s tournaments to come already; wait for one to end.")
            % {"count": pending},
            "too_many",
        )


TEMPLATE_KEYS = frozenset(
    {
        "name",
        "game",
        "speed",
        "format",
        "rated",
        "duration_minutes",
        "rounds",
        "entry_fee",
        "prize_shares",
        "options",
        "max_players",
    }
)


def schedule_template_check(template: Any) -> None:
    """What a schedule's events will be, checked when the admin saves it (a public event; the
    start time is each slot's)."""
    if not isinstance(template, dict) or not template.get("game"):
        raise _refuse(gettext("The template names at least the game."), "bad_template")
    unknown = sorted(set(template) - TEMPLATE_KEYS)
    if unknown:
        raise _refuse(
            gettext("The template does not take: %(keys)s.") % {"keys": ", ".join(unknown)},
            "bad_template",
        )
    _check_shape(
        game=template["game"],
        speed=template.get("speed", Table.Speed.FAST),
        format=template.get("format", Tournament.Format.ARENA),
        duration_minutes=template.get("duration_minutes"),
        rounds=template.get("rounds"),
        entry_fee=template.get("entry_fee", 0),
        prize_shares=template.get("prize_shares") or list(scoring.DEFAULT_PRIZE_SHARES),
        options=template.get("options") or {},
    )


def schedule_occurrence(schedule: Schedule, occurrence: datetime) -> Tournament | None:
    """The schedule's event for one slot, once: a slot already filled (another beat, or a run
    twice) is left alone. None then, or when the template no longer makes a valid event (the
    schedule is switched off so the admin sees it)."""
    template = {key: value for key, value in schedule.template.items() if key in TEMPLATE_KEYS}
    try:
        with transaction.atomic():
            tournament = tournament_create(
                name=template.pop("name", schedule.name),
                starts_at=occurrence,
                **template,
            )
            tournament.schedule = schedule
            tournament.occurrence = occurrence
            tournament.save(update_fields=["schedule", "occurrence"])
            return tournament
    except IntegrityError:
        return None
    except ServiceError:
        Schedule.objects.filter(pk=schedule.pk).update(active=False)
        return None
