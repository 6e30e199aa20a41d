"""The checks every explicit deal goes through (docs/rules/README.md § 0.7).

``from_deal`` builds a hand from a deal a test or a replay names instead of a seed. Each game's
rules file gives its format; what they share is checked here: the deal is an object with known
fields, the per-seat lists have the right length, the cards are cards of the game's deck and
none is dealt twice, and the match totals it starts from are whole numbers below the target.
A malformed deal is an :class:`InvalidDeal` that says what is wrong.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from .base import InvalidDeal


def deal_object(deal: object, fields: str) -> Mapping[str, Any]:
    """The deal, if it is a JSON object; ``fields`` names what it holds, for the message."""
    if not isinstance(deal, dict):
        raise InvalidDeal("A deal must be an object with {fields}.", fields=fields)
    return deal


def deal_list(value: object, length: int, what: str) -> list[Any]:
    """A list of exactly ``length`` entries (per seat, per column, …), named ``what``."""
    if not isinstance(value, list | tuple):
        raise InvalidDeal("{what} must be a list.", what=what)
    if len(value) != length:
        raise InvalidDeal(
            "{what} must have {length} entries, not {count}.",
            what=what,
            length=length,
            count=len(value),
        )
    return list(value)


def is_whole_number(value: object) -> bool:
    """An int that is not a bool (JSON's true is not 1)."""
    return type(value) is int


def deal_scores(
    value: object, seats: int, *, target: int | None = None, negative: bool = False
) -> tuple[int, ...]:
    """The match totals before this hand: whole numbers (0 or more unless ``negative``).

    A two-player game plays to a ``target``: a deal that starts at or above it is refused.
    """
    scores = deal_list(value, seats, "scores")
    if not all(is_whole_number(s) and (negative or s >= 0) for s in scores):
        if negative:
            raise InvalidDeal("scores must be {seats} whole numbers.", seats=seats)
        raise InvalidDeal("scores must be {seats} whole numbers, 0 or more.", seats=seats)
    if target is not None and max(scores) >= target:
        raise InvalidDeal(
            "The scores must be below the target of {points} points: these already reach the "
            "target.",
            points=target,
        )
    return tuple(scores)


def check_cards(cards: Iterable[object], deck: Collection[str], deck_name: str) -> set[str]:
    """Every card a card of ``deck`` and dealt once; returns the set of cards dealt."""
    seen: set[str] = set()
    for card in cards:
        if type(card) is not str or card not in deck:
            raise InvalidDeal(
                "{card} is not a card of the {deck} deck.", card=repr(card), deck=deck_name
            )
        if card in seen:
            raise InvalidDeal(
                "{card} appears more than once in the deal: no card is dealt twice.", card=card
            )
        seen.add(card)
    return seen
