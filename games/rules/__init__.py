"""The rules engines: the whole truth of play, as pure Python (rules in ``docs/rules/``).

Each game is a package, ``games/rules/<game>/``, whose ``SPEC`` (``registry.GameSpec``) is all
the site knows of it; the three built-in games are registered here, in this order, and any other
by the games app (``games.apps``). ``game_spec(id)`` gives a game's spec, ``game_specs()`` all of
them, and ``get_game(id)`` its :class:`~games.rules.contract.Game`: everything a match needs comes
from it and from its :class:`~games.rules.contract.State` objects, typed the same for every game
in ``contract.py`` (docs/architecture.md § The game registry, docs/rules/README.md § 0.3).
``auto_action(state)`` (``games.rules.automove``) is the turn-clock move of § 0.6.

What the engines share lives beside them: ``base`` (errors, phases, options, ``evolver``),
``cards``, ``tricks`` (plays, the follow/trump requirement, the joker-call grammar), ``deals``
(the explicit-deal checks), ``storage`` (the codec of stored states) and ``worlds`` (what a
computer player reads, and the tools of the worlds it imagines).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import classic_joker, japanese_joker, japanese_whist
from .base import IllegalAction, InvalidDeal, InvalidOptions, Option, Phase, RulesError
from .contract import Action, Game, State, View
from .registry import GameSpec, game_spec, game_specs, is_game, register_game

__all__ = [
    "Action",
    "Game",
    "GameSpec",
    "IllegalAction",
    "InvalidDeal",
    "InvalidOptions",
    "Option",
    "Phase",
    "RulesError",
    "State",
    "View",
    "game_spec",
    "game_specs",
    "get_game",
    "is_game",
    "register_game",
]

for _builtin in (japanese_joker.SPEC, classic_joker.SPEC, japanese_whist.SPEC):
    register_game(_builtin)


def get_game(name: str) -> Game:
    """The game object for ``name``; an unknown name is a :class:`RulesError`."""
    return game_spec(name).engine


if TYPE_CHECKING:  # mypy proves here that every engine keeps the contract
    _ENGINES: tuple[Game, ...] = (
        japanese_joker.JapaneseJoker(),
        classic_joker.ClassicJoker(),
        japanese_whist.JapaneseWhist(),
    )
