"""Computer players: they choose from exactly what their seat may see (docs/architecture.md
§ The apps).

A bot is ``choose(view, rng) -> action``, where ``view`` is the engine's ``state.view(seat)``
for the seat to act (it carries the hand, the legal actions and the hand's tricks so far); no
bot ever reads the full state. Three kinds: ``random`` (a legal action at random: the benchmark's
baseline), ``easy`` (a beginner's rules, :mod:`.easy`) and ``strong`` (Monte Carlo over sampled
worlds, :mod:`.strong`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ..rules.contract import Action
from . import easy, strong

Bot = Callable[[Mapping[str, Any], random.Random], Action]
STRENGTHS: tuple[str, ...] = ("easy", "strong")


def random_choice(view: Mapping[str, Any], rng: random.Random) -> Action:
    """A legal action drawn at random."""
    return rng.choice(view["legal"])


BOTS: dict[str, Bot] = {
    "random": random_choice,
    "easy": easy.choose,
    "strong": strong.choose,
}


def choose(kind: str, view: Mapping[str, Any], rng: random.Random) -> Action:
    """The action the bot of ``kind`` plays for the seat whose ``view`` this is."""
    return BOTS[kind](view, rng)
