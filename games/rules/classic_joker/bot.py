"""What a computer player reads of a classic Joker decision, and the worlds it imagines.

A seat sees its hand, the bids and the turned card; the other hands, the cards of the deck
nobody was dealt (in every deal at two or three seats, CJ-29) and, in a 9-card deal before the
trump, the six cards each seat still gets are what a sampled world deals at random
(``worlds.fill``).
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from .. import storage
from ..cards import JOKER_DECK, sorted_cards
from ..tricks import Play
from ..worlds import Seen, Slot, fill, out_of_play, played, shown_voids, trick_plays
from .state import NAME, State, read_stored, trick_winner


def seen(view: Mapping[str, Any]) -> Seen:
    """The decision of the seat whose view this is: its hand, the bids and the deal's size."""
    out = out_of_play(view)
    if view.get("trump_card"):
        out.add(view["trump_card"])
    return Seen(
        trick_winner=trick_winner,
        seat=view["seat"],
        players=view["players"],
        legal=view["legal"],
        cards=list(view.get("hand", ())),
        trick=[Play.from_public(play) for play in view["trick"]],
        trump=view.get("trump"),
        out=out,
        tricks=view["tricks"],
        bids=view["bids"],
        deal_cards=view["cards"],
    )


def seen_in_world(state: State) -> Seen:
    """The decision of the seat to act in an imagined world (the strong bot's playouts)."""
    seat = state.to_act
    assert seat is not None  # a playout stops when nobody is to act
    out = state.played
    if state.trump_card is not None:
        out = (*out, state.trump_card)
    return Seen(
        trick_winner=trick_winner, seat=seat, players=state.options.seats,
        legal=state.legal_actions(),
        cards=list(state.hands[seat]), trick=list(state.trick), trump=state.trump, out=out,
        tricks=state.tricks, bids=state.bids, deal_cards=state.cards,
    )  # fmt: skip


def deal_points(start: State, end: State) -> tuple[int, ...]:
    """The points of the deal a playout finished, before any premia (else the scores' change)."""
    if end.previous is not None:
        return end.previous.points
    return tuple(after - before for after, before in zip(end.scores_, start.scores_, strict=True))


def resample(view: Mapping[str, Any], rng: Random) -> State:
    """A whole state, drawn at random among those ``view`` cannot tell from the real one."""
    return storage.load(NAME, _record(view, rng), read_stored)


def _record(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """The stored-state record (``State.to_dict``) of a sampled world."""
    seat = view["seat"]
    players = view["players"]
    hand = list(view["hand"])
    trump_card = view.get("trump_card")
    record: dict[str, Any] = {
        "game": NAME,
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
    seen = set(hand) | set(played(view))
    if trump_card is not None:
        seen.add(trump_card)
    pool = JOKER_DECK - seen
    if view["phase"] == "trump":  # CJ-6: three cards each seen, six each to come
        firsts = {other: Slot(3) for other in range(players) if other != seat}
        rests = [Slot(6) for _ in range(players)]
        undealt = Slot(len(pool) - 3 * (players - 1) - 6 * players)  # CJ-29: fewer seats
        fill(pool, [*firsts.values(), *rests, undealt], rng)
        record["hands"] = [hand if s == seat else firsts[s].cards for s in range(players)]
        record["pending"] = [slot.cards for slot in rests]
        record["undealt"] = undealt.cards
        return record
    voids = shown_voids(trick_plays(view), view.get("trump"), must_trump=True)
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
