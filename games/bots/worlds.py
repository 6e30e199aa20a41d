"""Determinization: whole engine states that agree with everything one seat has seen.

The strong bot never sees the real state. Each game deals, from a seat's ``view``, the cards the
seat cannot see at random among the cards it has not seen, respecting what the table has shown
(``GameSpec.resample``, with the tools of ``games.rules.worlds``): the result is a state of the
game's own engine, so a sampled world plays by the engine's own rules. A sampled world is the
bot's imagination: reading its fields in a playout reads nothing of the real match.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..rules import State, game_spec
from ..rules.worlds import shown_voids

__all__ = ["sample", "shown_voids"]


def sample(view: Mapping[str, Any], rng: random.Random) -> State:
    """One whole state, drawn at random among those ``view`` cannot tell from the real one."""
    return game_spec(view["game"]).resample(view, rng)
