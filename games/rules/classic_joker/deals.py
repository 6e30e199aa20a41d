"""Classic Joker's deals: from the match seed (CJ-2, CJ-5, CJ-6, CJ-29) or given explicitly.

Both give a :class:`Deal`, the cards just after dealing; ``state.start`` makes the state of it.
The explicit format is the one of ``docs/rules/classic_joker.md`` § "Explicit deal".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ..base import InvalidDeal
from ..cards import JOKER_DECK, deal_rng, joker_deck, shuffled, sorted_cards
from ..deals import check_cards, deal_object, deal_scores
from .options import Options
from .scoring import HistoryRow

Hands = tuple[tuple[str, ...], ...]


class Deal(NamedTuple):
    """One deal's cards where the dealing put them.

    A deal of fewer than 9 cards turns up ``trump_card`` and leaves ``undealt`` out of play
    (CJ-5). A 9-card deal gives each seat 3 ``hands`` cards before the trump choice and keeps
    the other 6 each ``pending`` (CJ-6); with fewer than four seats the rest of the deck is
    ``undealt`` there too (CJ-29).
    """

    number: int
    dealer: int
    hands: Hands
    pending: Hands | None
    undealt: tuple[str, ...]
    trump_card: str | None


class ExplicitDeal(NamedTuple):
    """A deal given by a test or a replay, with the match it is a moment of."""

    deal: Deal
    first_dealer: int
    scores: tuple[int, ...]
    history: tuple[HistoryRow, ...]


def dealer_of(first_dealer: int, number: int, seats: int) -> int:
    """CJ-2: the deal passes left (seat + 1) after every deal."""
    return (first_dealer + number - 1) % seats


def deal_from_seed(options: Options, seed: str | int, first_dealer: int, number: int) -> Deal:
    """Deal ``number`` from the seed, a card at a time from the dealer's left (CJ-2, 5, 6, 29)."""
    n = options.schedule[number - 1][0]
    seats = options.seats
    dealer = dealer_of(first_dealer, number, seats)
    deck = shuffled(joker_deck(), deal_rng(seed, number))
    dealt: list[list[str]] = [[] for _ in range(seats)]
    for k in range(seats * n):
        dealt[(dealer + 1 + k) % seats].append(deck[k])
    if n < 9:
        return Deal(
            number,
            dealer,
            tuple(tuple(sorted_cards(cards)) for cards in dealt),
            None,
            tuple(deck[seats * n + 1 :]),
            deck[seats * n],
        )
    return Deal(
        number,
        dealer,
        tuple(tuple(cards[:3]) for cards in dealt),
        tuple(tuple(cards[3:]) for cards in dealt),
        tuple(deck[seats * n :]),
        None,
    )


def _deal_int(value: Any, name: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise InvalidDeal(
            "{name} must be a whole number from {low} to {high}; got {value}.",
            name=name,
            low=low,
            high=high,
            value=repr(value),
        )
    return value


def _deal_pulka(value: Any, options: Options, deal_number: int) -> tuple[HistoryRow, ...]:
    """The optional ``pulka`` key: earlier deals of the same pulka, [cards, bid, taken] a seat."""
    sched = options.schedule
    pulka = sched[deal_number - 1][1]
    before = sum(1 for d in range(deal_number - 1) if sched[d][1] == pulka)
    if not isinstance(value, list) or len(value) > before:
        raise InvalidDeal(
            "pulka must list at most the {before} earlier deal(s) of this pulka; got {value}.",
            before=before,
            value=repr(value),
        )
    rows = []
    first = deal_number - len(value)
    for offset, row in enumerate(value):
        number = first + offset
        n = sched[number - 1][0]
        if not isinstance(row, list | tuple) or len(row) != options.seats:
            raise InvalidDeal(
                "pulka deal {number} must list {seats} [cards, bid, taken], one a seat.",
                number=number,
                seats=options.seats,
            )
        bids, taken = [], []
        for cell in row:
            if not isinstance(cell, list | tuple) or len(cell) != 3:
                raise InvalidDeal(
                    "pulka deal {number}: each seat is [cards, bid, taken].", number=number
                )
            if cell[0] != n or type(cell[0]) is not int:
                raise InvalidDeal(
                    "pulka deal {number} has {n} cards; got {got}.",
                    number=number,
                    n=n,
                    got=repr(cell[0]),
                )
            bids.append(_deal_int(cell[1], f"pulka deal {number} bid", 0, n))
            taken.append(_deal_int(cell[2], f"pulka deal {number} tricks", 0, n))
        if sum(taken) != n:
            raise InvalidDeal(
                "pulka deal {number}: the tricks taken must add up to {n}.", number=number, n=n
            )
        if sum(bids) == n:
            raise InvalidDeal(
                "pulka deal {number}: the bids may not add up to {n} (CJ-8).", number=number, n=n
            )
        rows.append((number, n, tuple(bids), tuple(taken)))
    return tuple(rows)


def read_explicit_deal(given: object, options: Options) -> ExplicitDeal:
    """The explicit deal of docs/rules/classic_joker.md; anything malformed is InvalidDeal."""
    deal: Mapping[str, Any] = deal_object(given, "dealer, deal and hands")
    extra = sorted(
        map(str, set(deal) - {"dealer", "deal", "hands", "trump_card", "scores", "pulka"})
    )
    if extra:
        raise InvalidDeal("Unknown key(s) in the deal: {keys}.", keys=", ".join(extra))
    missing = [key for key in ("dealer", "deal", "hands") if key not in deal]
    if missing:
        raise InvalidDeal("The deal is missing: {keys}.", keys=", ".join(missing))
    sched = options.schedule
    seats = options.seats
    dealer = _deal_int(deal["dealer"], "dealer", 0, seats - 1)
    number = _deal_int(deal["deal"], "deal", 1, len(sched))
    n = sched[number - 1][0]
    hands = deal["hands"]
    if not isinstance(hands, list) or len(hands) != seats:
        raise InvalidDeal("hands must be a list of {seats} hands, one a seat.", seats=seats)
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != n:
            raise InvalidDeal(
                "Deal {number} gives {n} cards to each seat; seat {seat} is wrong.",
                number=number,
                n=n,
                seat=seat,
            )
    seen = check_cards([card for hand in hands for card in hand], JOKER_DECK, "joker")
    trump_card = deal.get("trump_card")
    if n < 9:
        if not isinstance(trump_card, str) or trump_card not in JOKER_DECK:
            raise InvalidDeal(
                "A {n}-card deal needs the turned trump_card; got {card}.",
                n=n,
                card=repr(trump_card),
            )
        if trump_card in seen:
            raise InvalidDeal("{card} is both turned and in a hand.", card=trump_card)
    elif trump_card is not None:
        raise InvalidDeal("A 9-card deal has no turned card: the chooser announces the trump.")
    scores = deal_scores(deal.get("scores", [0] * seats), seats, negative=True)
    history = _deal_pulka(deal["pulka"], options, number) if "pulka" in deal else ()
    nine = n == 9
    out = seen if nine else seen | {str(trump_card)}
    return ExplicitDeal(
        Deal(
            number,
            dealer,
            tuple(tuple(hand[:3]) if nine else tuple(sorted_cards(hand)) for hand in hands),
            tuple(tuple(hand[3:]) for hand in hands) if nine else None,
            tuple(sorted_cards(JOKER_DECK - out)),
            trump_card,
        ),
        (dealer - number + 1) % seats,
        scores,
        history,
    )
