"""What a computer player needs of a game: the facts of its decision, and worlds to imagine.

A bot never reads the real state. Each game turns a seat's view into a :class:`Seen` (and, more
cheaply, a state of an imagined world into one), and deals the cards that seat cannot see at
random among the cards it has not seen, respecting what the table has shown (a seat that did not
follow a suit holds none of it): OpenSpiel's ``ResampleFromInfostate``. The tools every game's
sampler shares are here: :class:`Slot`, :func:`fill` and :func:`shown_voids`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from random import Random
from typing import Any

from .cards import is_joker
from .contract import Action
from .tricks import Play

# Suits a seat has shown it holds none of: seat → set of suits.
Voids = dict[int, set[str]]
TrickWinner = Callable[[Sequence[Play], str | None], int]


class Seen:
    """One seat's decision as a computer player reads it: what the seat may know, in plain fields.

    ``cards`` are the seat's own cards it can see (hand, face-up columns or layout), ``out`` the
    cards of this hand's completed tricks (and any other card known to be out of play),
    ``others_up`` the opponents' face-up cards, ``goal_low`` whether the seat wants to lose
    tricks; ``bids`` and ``deal_cards`` are a bidding game's bids and cards per seat (None
    elsewhere), and ``trick_winner`` the game's rule for who takes a trick.
    """

    __slots__ = (
        "bids",
        "cards",
        "deal_cards",
        "goal_low",
        "legal",
        "others_up",
        "out",
        "players",
        "seat",
        "trick",
        "trick_winner",
        "tricks",
        "trump",
    )  # fmt: skip

    def __init__(
        self,
        *,
        trick_winner: TrickWinner,
        seat: int,
        players: int,
        legal: list[Action],
        cards: list[str],
        trick: list[Play],
        trump: str | None,
        out: Collection[str],
        tricks: Any,
        bids: Any = None,
        deal_cards: int | None = None,
        goal_low: bool = False,
        others_up: list[str] | None = None,
    ) -> None:
        self.trick_winner = trick_winner
        self.seat = seat
        self.players = players
        self.legal = legal
        self.cards = cards
        self.trick = trick
        self.trump = trump
        self.out = out
        self.tricks = tricks
        self.bids = bids
        self.deal_cards = deal_cards
        self.goal_low = goal_low
        self.others_up = others_up or []


class Slot:
    """A place for ``count`` unseen cards, none of them of a suit in ``forbidden``."""

    __slots__ = ("cards", "count", "forbidden")

    def __init__(self, count: int, forbidden: Iterable[str] = ()) -> None:
        self.count = count
        self.forbidden = set(forbidden)
        self.cards: list[str] = []


def fill(pool: Iterable[str], slots: list[Slot], rng: Random) -> None:
    """Deal ``pool`` into ``slots`` at random, the most constrained slots first.

    A slot takes cards outside its forbidden suits while there are any; when the shown voids
    cannot all hold (in Japanese Joker a face-down card may since have joined the hand), the
    slot takes what is left rather than fail.
    """
    cards = sorted(pool)  # a fixed order first: the result depends on the rng alone
    rng.shuffle(cards)
    total = sum(slot.count for slot in slots)
    if total != len(cards):
        raise ValueError(f"{len(cards)} unseen cards for {total} places")
    for slot in sorted(slots, key=lambda s: -len(s.forbidden)):
        if not slot.forbidden:
            continue
        keep: list[str] = []
        for card in cards:
            if len(slot.cards) < slot.count and not _in(card, slot.forbidden):
                slot.cards.append(card)
            else:
                keep.append(card)
        cards = keep
    for slot in slots:
        need = slot.count - len(slot.cards)
        slot.cards.extend(cards[:need])
        cards = cards[need:]


def _in(card: str, suits: set[str]) -> bool:
    return not is_joker(card) and card[1] in suits


def shown_voids(
    tricks: Iterable[list[Mapping[str, Any]]], trump: str | None, must_trump: bool
) -> Voids:
    """The suits each seat showed it lacked, from the plays of the tricks it followed.

    ``must_trump``: a follower void in the led suit had to trump if it could (the Joker
    games), so a plain discard shows a trump void too.
    """
    voids: Voids = {}
    for plays in tricks:
        if not plays:
            continue
        lead = plays[0]
        led = lead.get("suit") if is_joker(lead["card"]) else lead["card"][1]
        if led is None:
            continue
        for play in plays[1:]:
            card = play["card"]
            if is_joker(card) or card[1] == led:
                continue
            seat_voids = voids.setdefault(play["seat"], set())
            seat_voids.add(led)
            if must_trump and trump is not None and card[1] != trump:
                seat_voids.add(trump)
    return voids


def trick_plays(view: Mapping[str, Any]) -> list[list[Mapping[str, Any]]]:
    """The plays of every trick of the hand so far, the one in progress last."""
    return [trick["plays"] for trick in view["hand_tricks"]] + [view["trick"]]


def played(view: Mapping[str, Any]) -> list[str]:
    """Every card played this hand, the trick in progress included."""
    cards = [play["card"] for trick in view["hand_tricks"] for play in trick["plays"]]
    return cards + [play["card"] for play in view["trick"]]


def out_of_play(view: Mapping[str, Any]) -> set[str]:
    """The cards of this hand's completed tricks (a card of the trick in progress still counts)."""
    return {play["card"] for trick in view["hand_tricks"] for play in trick["plays"]}
