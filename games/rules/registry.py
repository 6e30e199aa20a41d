"""The games the site offers: one :class:`GameSpec` each, the only place that knows a game.

Each game is a package (``games/rules/<game>/``, or a Django app of its own) whose ``SPEC`` says
everything the rest of the site needs: its title, seats and table options, its engine, its help
page, its table-page renderer, how a computer player reads a decision and imagines the cards it
cannot see, and what a finished match's replay shows face up. ``games.rules`` registers the three
built-in games on import; the games app registers the ``SPEC`` of every other installed app that
has one. Nothing outside a game's own package asks which game it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from random import Random
from typing import Any, TypeGuard

from .base import Option, RulesError
from .contract import Game, State
from .worlds import Seen

GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,19}")  # stored in the game columns (20 characters)


def no_more_cards(stored: Mapping[str, Any]) -> dict[str, Any]:
    """A game whose every card is in a hand, on the table or played: nothing more to open."""
    return {}


def score_gain(before: State, after: State) -> list[int]:
    """Each seat's points between two states: the scores' difference."""
    return [now - then for now, then in zip(after.scores, before.scores, strict=True)]


@dataclass(frozen=True)
class GameSpec:
    """One game, as the site sees it.

    ``title`` and ``summary`` (a line for the help index) are English, marked with
    ``base.gettext_noop``: the site translates them when it shows them. ``help_slug`` names the
    help page, ``templates/help/<lang>/<slug>.html`` (English when a language has none);
    ``renderer`` is the static path of the table page's ES module, whose default export is the
    ``GameRenderer`` of ``static/js/table/games/shared.js``.

    For the computer players: ``seen(view)`` is the decision of the seat whose view it is,
    ``seen_in_world(state)`` that of the seat to act in an imagined world (the strong bot's
    playouts: cheap), ``resample(view, rng)`` a whole state the view cannot tell from the real
    one, and ``playout_points(start, end)`` each seat's points for the hand played between.

    For the replay of a finished match: ``open_cards(stored)`` gives the view keys that show
    every card the spectator's view leaves face down (beside ``hands``), from the stored state
    (``to_dict``), and ``deal_keys`` the keys of the stored state, beside ``hands``, that say
    where a deal put its cards (the export's ``deals``).

    For the browser's check of a finished match (``/fairness/``): ``deal_check`` is the static
    path of an ES module whose ``dealCards(seed, options, hand)`` gives a deal's ``cards`` as the
    export writes them, by docs/fairness.md § The derivation ("": the page checks the seed's
    commitment only).

    For the review of a player's decisions (``games.review``): ``mistake_points`` is the loss,
    in ``playout_points`` of the hand, that makes a decision a mistake: half a trick where a
    trick swings the difference by two points (the default), a bid's worth where tricks score
    by the bid.
    """

    id: str
    title: str
    summary: str
    engine: Game
    help_slug: str
    renderer: str
    seen: Callable[[Mapping[str, Any]], Seen]
    seen_in_world: Callable[[Any], Seen]  # the game's own state class
    resample: Callable[[Mapping[str, Any], Random], State]
    playout_points: Callable[[Any, Any], Sequence[int]] = score_gain  # (start, end) states
    open_cards: Callable[[Mapping[str, Any]], dict[str, Any]] = no_more_cards
    deal_keys: tuple[str, ...] = ()
    deal_check: str = ""
    mistake_points: float = 1.0

    @property
    def seats(self) -> int:
        """The most seats a table of the game has (classic Joker's option may choose fewer)."""
        return self.engine.num_players

    def seat_count(self, options: Mapping[str, Any] | None) -> int:
        """The seats of a table with these options."""
        return self.engine.seat_count(options)

    @cached_property
    def seat_choices(self) -> dict[int, dict[str, Any]]:
        """Each number of seats a table of the game may have, with the options that choose it
        (none for the default's, first): found by asking the engine, so that quick play can
        offer a pool per seat count without knowing which option it is."""
        choices: dict[int, dict[str, Any]] = {self.seat_count(None): {}}
        for option in self.options:
            for value in option.choices:
                choices.setdefault(self.seat_count({option.name: value}), {option.name: value})
        return choices

    @property
    def options(self) -> tuple[Option, ...]:
        """The table options, with their values, defaults and words."""
        return self.engine.option_specs


_SPECS: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> None:
    """Offer a game; registering the same spec again changes nothing, another with its id fails."""
    if not GAME_ID.fullmatch(spec.id) or spec.engine.name != spec.id:
        raise ValueError(f"{spec.id!r} is not a game id (a-z, 0-9, _; the engine's name)")
    known = _SPECS.setdefault(spec.id, spec)
    if known is not spec:
        raise ValueError(f"another game is registered as {spec.id!r}")


def game_spec(game_id: str) -> GameSpec:
    """The spec of ``game_id``; an unknown id is a :class:`RulesError`."""
    try:
        return _SPECS[game_id]
    except (KeyError, TypeError):
        raise RulesError("Unknown game {name}.", name=repr(game_id)) from None


def game_specs() -> tuple[GameSpec, ...]:
    """Every registered game, in the order they were registered (the built-in games first)."""
    return tuple(_SPECS.values())


def is_game(game_id: object) -> TypeGuard[str]:
    """Whether ``game_id`` is the id of a registered game."""
    return isinstance(game_id, str) and game_id in _SPECS
