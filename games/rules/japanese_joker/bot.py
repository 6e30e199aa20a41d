"""What a computer player reads of a Japanese Joker decision, and the worlds it imagines.

A seat sees its hand and every face-up column card; the opponent's hand (less the cards JJ-10
moved there face up), the face-down column cards and, before the trump, the thirty cards still
to come are what a sampled world deals at random (``worlds.fill``).
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ..cards import JOKER_DECK
from ..tricks import Play
from ..worlds import Seen, Slot, fill, out_of_play, played, shown_voids, trick_plays
from .game import COLUMNS, FIRST_CARDS, GAME, NAME, State, trick_winner


def seen(view: Mapping[str, Any]) -> Seen:
    """The decision of the seat whose view this is: its hand and its own face-up columns."""
    seat = view["seat"]
    cards = list(view.get("hand", ()))
    cards.extend(column["up"] for column in view["columns"][seat] if column is not None)
    return Seen(
        trick_winner=trick_winner,
        seat=seat,
        players=view["players"],
        legal=view["legal"],
        cards=cards,
        trick=[Play.from_public(play) for play in view["trick"]],
        trump=view.get("trump"),
        out=out_of_play(view),
        tricks=view["tricks"],
    )


def seen_in_world(state: State) -> Seen:
    """The decision of the seat to act in an imagined world (the strong bot's playouts)."""
    seat = state.to_act
    assert seat is not None  # a playout stops when nobody is to act
    ups = [column[0] for column in state.columns[seat] if column is not None]
    return Seen(
        trick_winner=trick_winner, seat=seat, players=2,
        legal=state.legal_actions(), cards=[*state.hands[seat], *ups], trick=list(state.trick),
        trump=state.trump, out=state.played, tricks=state.tricks,
    )  # fmt: skip


def resample(view: Mapping[str, Any], rng: Random) -> State:
    """A whole state, drawn at random among those ``view`` cannot tell from the real one."""
    return GAME.from_dict(_record(view, rng))


def _record(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """The stored-state record (``State.to_dict``) of a sampled world."""
    seat = view["seat"]
    opp = 1 - seat
    hand = list(view["hand"])
    record: dict[str, Any] = {
        "game": NAME,
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
        first, undealt = Slot(FIRST_CARDS), Slot(len(JOKER_DECK) - 2 * FIRST_CARDS)
        fill(JOKER_DECK - set(hand), [first, undealt], rng)
        record.update(
            hands=[hand, first.cards] if seat == 0 else [first.cards, hand],
            columns=[[None] * COLUMNS, [None] * COLUMNS],
            undealt=undealt.cards,
            played=[],
        )
        return record
    seen = set(hand) | set(played(view)) | set(view["known_in_hand"][opp])
    downs: list[list[Slot | None]] = []
    for columns in view["columns"]:
        seen.update(column["up"] for column in columns if column is not None)
        downs.append([None if column is None else Slot(1) for column in columns])
    voids = shown_voids(trick_plays(view), view.get("trump"), must_trump=True)
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
