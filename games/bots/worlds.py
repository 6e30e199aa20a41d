"""Determinization: whole engine states that agree with everything one seat has seen.

The strong bot never sees the real state. From a seat's ``view`` it deals the cards the seat
cannot see (other hands, face-down column and layout cards, undealt cards) at random among the
cards the seat has not seen, respecting what the table has shown: a seat that did not follow a
suit (or did not trump when it had to) holds none of it. The result is a stored-state record
(the engine's ``to_dict`` shape) read back with ``from_dict``, so a sampled world plays by the
engine's own rules. A sampled world is the bot's imagination: reading its fields in a playout
reads nothing of the real match.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from ..rules import State, get_game
from ..rules.cards import FULL_DECK, JOKER_DECK, is_joker, sorted_cards

# Suits a seat has shown it holds none of: seat → set of suits.
Voids = dict[int, set[str]]


class Slot:
    """A place for ``count`` unseen cards, none of them of a suit in ``forbidden``."""

    __slots__ = ("cards", "count", "forbidden")

    def __init__(self, count: int, forbidden: Iterable[str] = ()) -> None:
        self.count = count
        self.forbidden = set(forbidden)
        self.cards: list[str] = []


def fill(pool: Iterable[str], slots: list[Slot], rng: random.Random) -> None:
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


def _trick_plays(view: Mapping[str, Any]) -> list[list[Mapping[str, Any]]]:
    return [trick["plays"] for trick in view["hand_tricks"]] + [view["trick"]]


def _played(view: Mapping[str, Any]) -> list[str]:
    cards = [play["card"] for trick in view["hand_tricks"] for play in trick["plays"]]
    return cards + [play["card"] for play in view["trick"]]


# --- Japanese Joker ----------------------------------------------------------------------------


def japanese_joker(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    seat = view["seat"]
    opp = 1 - seat
    hand = list(view["hand"])
    record: dict[str, Any] = {
        "game": "japanese_joker",
        "options": {"points": view["target"]},
        "seed": None,
        "hand_number": view["hand_number"],
        "declarer": view["declarer"],
        "phase": view["phase"],
        "to_act": view["to_act"],
        "trump": view.get("trump"),
        "trump_known": "trump" in view,
        "trick": list(view["trick"]),
        "leader": view["leader"],
        "tricks": list(view["tricks"]),
        "scores": list(view["scores"]),
        "result": None,
        "last_trick": view["last_trick"],
        "previous_hand": None,
        "known_in_hand": [list(cards) for cards in view["known_in_hand"]],
        "revealed": [0, 0],
        "forfeited": None,
        "hand_tricks": list(view["hand_tricks"]),
        "played": [c for t in view["hand_tricks"] for c in (p["card"] for p in t["plays"])],
    }
    if view["phase"] == "trump":  # JJ-5: three cards each, the other thirty to come
        first, undealt = Slot(3), Slot(30)
        fill(JOKER_DECK - set(hand), [first, undealt], rng)
        record.update(
            hands=[hand, first.cards] if seat == 0 else [first.cards, hand],
            columns=[[None] * 5, [None] * 5],
            undealt=undealt.cards,
            played=[],
        )
        return record
    seen = set(hand) | set(_played(view)) | set(view["known_in_hand"][opp])
    downs: list[list[Slot | None]] = []
    for columns in view["columns"]:
        seen.update(column["up"] for column in columns if column is not None)
        downs.append([None if column is None else Slot(1) for column in columns])
    voids = shown_voids(_trick_plays(view), view.get("trump"), must_trump=True)
    known = list(view["known_in_hand"][opp])
    hidden = Slot(view["hand_counts"][opp] - len(known), voids.get(opp, ()))
    slots = [hidden] + [slot for seat_downs in downs for slot in seat_downs if slot is not None]
    fill(JOKER_DECK - seen, slots, rng)
    hands: list[list[str]] = [[], []]
    hands[seat] = hand
    hands[opp] = known + hidden.cards
    record["hands"] = hands
    record["columns"] = [
        [
            None if slot is None else [column["up"], slot.cards[0]]
            for column, slot in zip(columns, seat_downs, strict=True)
        ]
        for columns, seat_downs in zip(view["columns"], downs, strict=True)
    ]
    record["undealt"] = []
    return record


# --- classic Joker -----------------------------------------------------------------------------


def classic_joker(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    seat = view["seat"]
    players = view["players"]
    hand = list(view["hand"])
    trump_card = view.get("trump_card")
    record: dict[str, Any] = {
        "game": "classic_joker",
        "options": dict(view["options"]),
        "seed": None,
        "first_dealer": 0,  # only breaks ties of the final ranking; a playout ends with its deal
        "deal_number": view["deal_number"],
        "dealer": view["dealer"],
        "phase": view["phase"],
        "to_act": view["to_act"],
        "trump_card": trump_card,
        "trump_known": "trump" in view,
        "trump": view.get("trump"),
        "bids": list(view["bids"]),
        "tricks": list(view["tricks"]),
        "leader": view["leader"],
        "trick": list(view["trick"]),
        "played": [c for t in view["hand_tricks"] for c in (p["card"] for p in t["plays"])],
        "last_trick": view["last_trick"],
        "scores": list(view["scores"]),
        "history": [],
        "previous": None,
        "forfeited": list(view["forfeited"]),
        "result": None,
        "hand_tricks": list(view["hand_tricks"]),
    }
    seen = set(hand) | set(_played(view))
    if trump_card is not None:
        seen.add(trump_card)
    pool = JOKER_DECK - seen
    if view["phase"] == "trump":  # CJ-6: three cards each seen, six each to come
        firsts = {other: Slot(3) for other in range(players) if other != seat}
        rests = [Slot(6) for _ in range(players)]
        fill(pool, [*firsts.values(), *rests], rng)
        record["hands"] = [hand if s == seat else firsts[s].cards for s in range(players)]
        record["pending"] = [slot.cards for slot in rests]
        record["undealt"] = []
        return record
    voids = shown_voids(_trick_plays(view), view.get("trump"), must_trump=True)
    others = {
        other: Slot(view["hand_counts"][other], voids.get(other, ()))
        for other in range(players)
        if other != seat
    }
    undealt = Slot(len(pool) - sum(slot.count for slot in others.values()))
    fill(pool, [*others.values(), undealt], rng)
    record["hands"] = [hand if s == seat else sorted_cards(others[s].cards) for s in range(players)]
    record["pending"] = None
    record["undealt"] = undealt.cards
    return record


# --- Japanese Whist ----------------------------------------------------------------------------


def japanese_whist(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    seat = view["seat"]
    opp = 1 - seat
    locked = view["hand_locked"]
    hand = [] if locked else list(view["hand"])
    seen = set(hand) | set(_played(view))
    downs: list[list[Slot | None]] = []
    for layout in view["layout"]:
        seen.update(pos["up"] for pos in layout if pos is not None and pos["up"] is not None)
        downs.append([Slot(1) if pos is not None and pos["down"] else None for pos in layout])
    # JW-9: a follower's hand counts from trick 2 on, and a hand only ever shrinks, so a void
    # shown after trick 1 holds for the whole hand.
    later = [trick["plays"] for trick in view["hand_tricks"][1:]]
    if view["hand_tricks"]:
        later.append(view["trick"])
    voids = shown_voids(later, view.get("trump"), must_trump=False)
    opp_hand = Slot(view["hand_counts"][opp], voids.get(opp, ()))
    own = Slot(view["hand_counts"][seat] if locked else 0)
    slots = [opp_hand, own] + [slot for row in downs for slot in row if slot is not None]
    fill(FULL_DECK - seen, slots, rng)
    hands: list[list[str]] = [[], []]
    hands[seat] = hand if not locked else own.cards
    hands[opp] = opp_hand.cards
    won: list[list[str]] = [[], []]
    for trick in view["hand_tricks"]:
        won[trick["winner"]].extend(play["card"] for play in trick["plays"])
    return {
        "game": "japanese_whist",
        "options": {"variant": view["variant"], "points": view["target"]},
        "seed": None,
        "hand_number": view["hand_number"],
        "dealer": view["dealer"],
        "phase": view["phase"],
        "trump": view.get("trump"),
        "contract": view["contract"],
        "layout": [
            [
                [None, None]
                if pos is None
                else [pos["up"], None if slot is None else slot.cards[0]]
                for pos, slot in zip(layout, row, strict=True)
            ]
            for layout, row in zip(view["layout"], downs, strict=True)
        ],
        "hands": hands,
        "trick": list(view["trick"]),
        "leader": view["leader"],
        "won": won,
        "scores": list(view["scores"]),
        "last_trick": view["last_trick"],
        "previous_hand": None,
        "result": None,
        "forfeited": None,
        "hand_tricks": list(view["hand_tricks"]),
    }


SAMPLERS = {
    "japanese_joker": japanese_joker,
    "classic_joker": classic_joker,
    "japanese_whist": japanese_whist,
}


def sample(view: Mapping[str, Any], rng: random.Random) -> State:
    """One whole state, drawn at random among those ``view`` cannot tell from the real one."""
    name = view["game"]
    return get_game(name).from_dict(SAMPLERS[name](view, rng))
