"""Card codes and decks shared by every game (docs/rules/README.md § 0.1, JJ-1, CJ-1, JW-1).

A card is a two-character string: rank then suit (``"TH"``), or a joker ``"X1"``/``"X2"``.
Strings keep views JSON-ready and make the hidden-card scans in tests a plain substring check.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, MutableSequence
from typing import Any, Protocol

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


# --- Deals from a seed (docs/fairness.md § The derivation) ---------------------------------------

# A seed that starts so deals with SHA-256 in counter mode and a documented Fisher–Yates (easy
# to redo in any language, the browser's check included); any other seed (every match before
# this derivation, and the tests' seeds) with Python's Mersenne Twister, as it always did.
SHA256_SEED_PREFIX = "sha256:"
SHA256_DEAL = "sha256-fisher-yates"
MT_DEAL = "python-mt19937"


class DealRandom(Protocol):
    """What a deal asks of its generator: a uniform draw below ``n``, and a shuffle."""

    def randrange(self, n: int, /) -> int: ...

    def shuffle(self, cards: MutableSequence[Any], /) -> None: ...


class Sha256Deal:
    """The generator of docs/fairness.md § The derivation: the bytes of SHA-256(``seed:label:k``)
    for k = 0, 1, 2, … read as big-endian 32-bit numbers, a draw below n by rejection (no bias),
    and Fisher–Yates from the last card down."""

    def __init__(self, seed: str, label: int) -> None:
        self._key = f"{seed}:{label}:"
        self._block = 0
        self._bytes = b""

    def _u32(self) -> int:
        if not self._bytes:
            self._bytes = hashlib.sha256(f"{self._key}{self._block}".encode()).digest()
            self._block += 1
        word, self._bytes = self._bytes[:4], self._bytes[4:]
        return int.from_bytes(word, "big")

    def randrange(self, n: int, /) -> int:
        if not 0 < n <= 1 << 32:
            raise ValueError(f"cannot draw below {n}")
        limit = (1 << 32) - (1 << 32) % n
        while (draw := self._u32()) >= limit:
            pass
        return draw % n

    def shuffle(self, cards: MutableSequence[Any], /) -> None:
        for i in range(len(cards) - 1, 0, -1):
            j = self.randrange(i + 1)
            cards[i], cards[j] = cards[j], cards[i]


def deal_algorithm(seed: str | int) -> str:
    """Which derivation a seed deals with (the match record's ``deal_algorithm``)."""
    return SHA256_DEAL if str(seed).startswith(SHA256_SEED_PREFIX) else MT_DEAL


def deal_rng(seed: str | int, hand_number: int) -> DealRandom:
    """A generator fixed by the match seed and the hand number, so every deal can be rebuilt."""
    if deal_algorithm(seed) == SHA256_DEAL:
        return Sha256Deal(str(seed), hand_number)
    return random.Random(f"{seed}:{hand_number}")


def shuffled(deck: Iterable[str], rng: DealRandom) -> list[str]:
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
