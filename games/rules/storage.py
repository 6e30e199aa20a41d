"""The storage codec every engine shares: how a stored state is checked and read back.

A running match lives in the database as the JSON that ``state.to_dict()`` wrote; ``from_dict``
reads it back. Whatever is wrong with a record (another game's, a missing key, a wrong type) is a
:class:`RulesError` naming the game, never a half-built state or a bare ``KeyError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from .base import RulesError

T = TypeVar("T")


def load(game: str, data: object, read: Callable[[Mapping[str, Any]], T]) -> T:
    """``read(data)`` for a stored ``game`` state; anything malformed is a RulesError."""
    if not isinstance(data, Mapping) or data.get("game") != game:
        raise RulesError("This is not a stored {game} state.", game=game)
    try:
        return read(data)
    except RulesError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        raise RulesError(
            "A stored {game} state is malformed ({error}).", game=game, error=repr(error)
        ) from None


def pair(values: Sequence[T]) -> tuple[T, T]:
    """A two-seat list as a pair (a longer or shorter list is malformed)."""
    first, second = values
    return (first, second)


def card_tuples(lists: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """Per-seat card lists (hands, piles) as tuples."""
    return tuple(tuple(cards) for cards in lists)
