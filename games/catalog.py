"""The games the site offers, in the reader's words, the stakes a table may carry, and quick
play's pools (a game at a speed, a stake, rated or casual).

What a game is called and what its options are come from the registry (``games.rules``): each
game's spec carries English words marked for translation, and they are translated here, when
they are shown. Nothing here knows one game from another.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.errors import ServiceError

from .rules import Option, game_spec, game_specs, is_game
from .services.clock import SPEED_SETTINGS

# Domino Coin per seat; 0 is a free table (the only kind guests may join).
STAKES: tuple[int, ...] = (0, 25, 50, 100, 250)


class GameTitles(Mapping[str, Promise]):
    """Every registered game's id and title (translated when shown), in the registry's order.

    A mapping that reads the registry each time, so it holds the games registered after this
    module was imported (by the games app, for the installed apps that offer one).
    """

    def __getitem__(self, game: str) -> Promise:
        if not is_game(game):
            raise KeyError(game)
        return gettext_lazy(game_spec(game).title)

    def __iter__(self) -> Iterator[str]:
        return (spec.id for spec in game_specs())

    def __len__(self) -> int:
        return len(game_specs())


GAME_TITLES = GameTitles()


def game_choices() -> list[tuple[str, Promise]]:
    """(id, title) of every game, for a select."""
    return list(GAME_TITLES.items())


def validate_game(value: object) -> None:
    """A game column holds the id of a registered game (the registry, not ``choices``, so that
    a new game needs no migration)."""
    if not is_game(value):
        raise ValidationError(_("%(value)r is not a game of this site."), params={"value": value})


def option_label(option: Option) -> str:
    return _(option.form_label or option.label)


def value_label(option: Option, value: Any) -> str:
    if isinstance(value, bool):
        return _("on") if value else _("off")
    words = dict(option.value_labels).get(value)
    return str(value) if words is None else _(words)


def describe_options(game: str, options: Mapping[str, Any]) -> list[str]:
    """Options as short phrases for the lobby ("Points to play to: 21")."""
    return [
        f"{option_label(option)}: {value_label(option, options.get(option.name, option.default))}"
        for option in game_spec(game).options
    ]


# --- Quick play's pools ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    """One pool; its ``id`` is what clients name it by: ``game/speed/stake/rated``, and
    ``/seats`` after it for a table smaller than the game's default (classic Joker at 3 or 2:
    the ids of the pools that were there before seat counts stay as they were)."""

    game: str
    speed: str
    stake: int
    rated: bool
    seats: int

    @property
    def id(self) -> str:
        kind = "rated" if self.rated else "casual"
        base = f"{self.game}/{self.speed}/{self.stake}/{kind}"
        if not is_game(self.game) or self.seats == game_spec(self.game).seat_count(None):
            return base  # (a game no longer offered: its finished matches' pools, as they were)
        return f"{base}/{self.seats}"

    def table_options(self) -> dict[str, Any]:
        """The options a table of this pool is made with: the ones that choose its seats."""
        return dict(game_spec(self.game).seat_choices[self.seats])


def pools() -> list[Pool]:
    """Every pool, in the order the lobby shows them."""
    return [
        Pool(spec.id, speed, stake, rated, seats)
        for spec in game_specs()
        for seats in spec.seat_choices
        for speed in SPEED_SETTINGS
        for stake in settings.POOL_STAKES
        for rated in (False, True)
    ]


def pool_variants() -> list[tuple[str, str, int, str]]:
    """Quick play's games as the lobby offers them: (key, game, seats, title), one for each
    number of seats a game may have; the key is the game's id for its default seats and
    ``game:seats`` for the others (what static/js/play_now.js builds pool ids from)."""
    return [
        (
            spec.id if not options else f"{spec.id}:{seats}",
            spec.id,
            seats,
            seated_title(spec.id, seats),
        )
        for spec in game_specs()
        for seats, options in spec.seat_choices.items()
    ]


def seated_title(game: str, seats: int) -> str:
    """The game's title, with the number of players for a game whose tables may have several
    ("Classic Joker, 3 players")."""
    if not is_game(game):
        return game
    title = _(game_spec(game).title)
    if len(game_spec(game).seat_choices) == 1:
        return title
    return ngettext("%(game)s, %(count)s player", "%(game)s, %(count)s players", seats) % {
        "game": title,
        "count": seats,
    }


@lru_cache(maxsize=8)
def _pools_by_id(stakes: tuple[int, ...], games: tuple[Any, ...]) -> dict[str, Pool]:
    """Every pool by its id, for the stakes and games offered (made anew when either changes).
    Built on every name a client sent, it was ~4 ms a pool named, twice in each join (make
    bench's quick play, cProfile)."""
    return {pool.id: pool for pool in pools()}


def pool_named(pool_id: Any) -> Pool:
    """The pool a client named, or a readable refusal."""
    found = None
    if isinstance(pool_id, str):
        games = tuple((spec.id, tuple(spec.seat_choices)) for spec in game_specs())
        found = _pools_by_id(tuple(settings.POOL_STAKES), games).get(pool_id)
    if found is None:
        raise ServiceError(
            _("There is no pool %(pool)s.") % {"pool": str(pool_id)[:60]}, code="bad_pool"
        )
    return found
