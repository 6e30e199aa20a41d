"""Card codes and decks shared by every game (docs/rules/README.md § 0.1, JJ-1, CJ-1, JW-1).

A card is a two-character string: rank then suit (``"TH"``), or a joker ``"X1"``/``"X2"``.
Strings keep views JSON-ready and make the hidden-card scans in tests a plain substring check.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RANKS: str = "23456789TJQKA"
JOKERS: tuple[str, ...] = ("X1", "X2")

RANK_VALUE: dict[str, int] = {rank: index for index, rank in enumerate(RANKS, start=2)}
SUIT_ORDER: dict[str, int] = {suit: index for index, suit in enumerate(SUITS)}


def is_joker(card: str) -> bool:
    return card[0] == "X"


def suit_of(card: str) -> str | None:
    """The card's suit; jokers have none (docs/rules/README.md § 0.2)."""
    return None if card[0] == "X" else card[1]


def rank_of(card: str) -> int:
    """Rank value, 2 … 14 (ace high). Jokers have no rank and raise."""
    return RANK_VALUE[card[0]]


def joker_deck() -> list[str]:
    """The 36-card deck: 6–A in ♥ ♦, 7–A in ♠ ♣, and the two jokers in place of 6♠ and 6♣."""
    deck = [rank + suit for suit in SUITS for rank in RANKS[4:]]
    deck.remove("6S")
    deck.remove("6C")
    return deck + list(JOKERS)


def full_deck() -> list[str]:
    """The standard 52-card deck (Japanese Whist)."""
    return [rank + suit for suit in SUITS for rank in RANKS]


JOKER_DECK: frozenset[str] = frozenset(joker_deck())
FULL_DECK: frozenset[str] = frozenset(full_deck())


def deal_rng(seed: str | int, hand_number: int) -> random.Random:
    """A generator fixed by the match seed and the hand number, so every deal can be rebuilt."""
    return random.Random(f"{seed}:{hand_number}")


def shuffled(deck: Iterable[str], rng: random.Random) -> list[str]:
    cards = list(deck)
    rng.shuffle(cards)
    return cards


def sort_key(card: str) -> tuple[int, int]:
    """Sort by suit (♠ ♥ ♦ ♣) then rank, jokers first: how a hand is shown to its owner."""
    if is_joker(card):
        return (-1, int(card[1]))
    return (SUIT_ORDER[card[1]], -RANK_VALUE[card[0]])


def sorted_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=sort_key)
