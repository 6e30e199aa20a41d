"""What every engine shares: the error family, the phases and the option parser.

The engines never import Django: they are pure functions of (options, seed, actions).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class RulesError(ValueError):
    """A request the rules refuse; ``str(error)`` is a sentence a player can read."""


class IllegalAction(RulesError):
    """The action is not legal in this state; the state is left as it was."""


class InvalidOptions(RulesError):
    """A table option the game does not know, or a value it does not offer."""


class InvalidDeal(RulesError):
    """An explicit deal (``from_deal``) that is malformed or does not use the deck exactly once."""


class Phase(StrEnum):
    TRUMP = "trump"
    BID = "bid"
    DECLARE = "declare"
    PLAY = "play"
    HAND_OVER = "hand_over"
    MATCH_OVER = "match_over"


@dataclass(frozen=True)
class Option:
    """One table option: the values a table may carry and the one it gets when none is given."""

    name: str
    label: str
    choices: tuple[Any, ...]
    default: Any


def parse_options(specs: tuple[Option, ...], given: dict[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and refuse anything the game does not list under "Table options"."""
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InvalidOptions(f"Unknown option(s) for this game: {', '.join(unknown)}.")
    parsed: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        # bool is an int in Python: keep True from passing as 1 and 1 as True.
        if not any(type(value) is type(choice) and value == choice for choice in spec.choices):
            allowed = ", ".join(str(choice) for choice in spec.choices)
            raise InvalidOptions(f"{spec.label} must be one of {allowed}; got {value!r}.")
        parsed[spec.name] = value
    return parsed
