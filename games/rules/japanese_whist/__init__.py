"""Japanese Whist: its rules engine (``game``, which names every JW rule and where it is
enforced), what a computer player reads and imagines (``bot``), and its ``SPEC``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import gettext_noop
from ..registry import GameSpec
from . import bot
from .game import (
    GAME,
    NAME,
    NUM_PLAYERS,
    OPTION_SPECS,
    JapaneseWhist,
    JapaneseWhistView,
    Options,
    State,
    hand_points,
    trick_winner,
)

__all__ = [
    "GAME",
    "NAME",
    "NUM_PLAYERS",
    "OPTION_SPECS",
    "SPEC",
    "JapaneseWhist",
    "JapaneseWhistView",
    "Options",
    "State",
    "hand_points",
    "trick_winner",
]


def open_cards(stored: Mapping[str, Any]) -> dict[str, Any]:
    """Every layout position with the card still face down under it."""
    return {
        "layout": [[{"up": up, "down": down} for up, down in layout] for layout in stored["layout"]]
    }


SPEC = GameSpec(
    id=NAME,
    title=gettext_noop("Japanese Whist"),
    summary=gettext_noop("2 players, 52 cards, ten face-up cards each; trumps or spel and pass."),
    engine=GAME,
    help_slug=NAME,
    renderer="js/table/games/japanese_whist.js",
    deal_check="js/verify/games/japanese_whist.js",
    seen=bot.seen,
    seen_in_world=bot.seen_in_world,
    resample=bot.resample,
    open_cards=open_cards,
    deal_keys=("layout",),
)
