"""Japanese Joker, the headline game: its rules engine (``game``, which names every JJ rule and
where it is enforced), what a computer player reads and imagines (``bot``), and its ``SPEC``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import gettext_noop
from ..cards import sorted_cards
from ..registry import GameSpec
from . import bot
from .game import (
    CARDS_PER_SEAT,
    DECK,
    GAME,
    NAME,
    NUM_PLAYERS,
    OPTION_SPECS,
    JapaneseJoker,
    JapaneseJokerView,
    Options,
    State,
    hand_points,
    trick_winner,
)

__all__ = [
    "DECK",
    "GAME",
    "NAME",
    "NUM_PLAYERS",
    "OPTION_SPECS",
    "SPEC",
    "JapaneseJoker",
    "JapaneseJokerView",
    "Options",
    "State",
    "hand_points",
    "trick_winner",
]


def open_cards(stored: Mapping[str, Any]) -> dict[str, Any]:
    """The face-down column cards, and before the trump each seat's fifteen cards to come."""
    shown: dict[str, Any] = {
        "columns": [
            [None if c is None else {"up": c[0], "down": c[1]} for c in columns]
            for columns in stored["columns"]
        ]
    }
    undealt = stored["undealt"]
    if undealt:
        shown["pending"] = [
            sorted_cards(undealt[CARDS_PER_SEAT * s : CARDS_PER_SEAT * (s + 1)])
            for s in range(NUM_PLAYERS)
        ]
    return shown


SPEC = GameSpec(
    id=NAME,
    title=gettext_noop("Japanese Joker"),
    summary=gettext_noop("2 players, 36 cards, five columns on the table each."),
    engine=GAME,
    help_slug=NAME,
    renderer="js/table/games/japanese_joker.js",
    deal_check="js/verify/games/japanese_joker.js",
    seen=bot.seen,
    seen_in_world=bot.seen_in_world,
    resample=bot.resample,
    open_cards=open_cards,
    deal_keys=("columns", "undealt"),
)
