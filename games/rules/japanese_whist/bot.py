"""What a computer player reads of a Japanese Whist decision, and the worlds it imagines.

A seat sees both layouts' face-up cards and, from trick 2 on, its own hand; the opponent's hand,
the face-down layout cards and a locked hand of its own (JW-4) are what a sampled world deals at
random (``worlds.fill``).
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from ..cards import FULL_DECK
from ..tricks import Play
from ..worlds import Seen, Slot, fill, out_of_play, played, shown_voids
from .game import GAME, NAME, State, trick_winner


def seen(view: Mapping[str, Any]) -> Seen:
    """The decision of the seat whose view this is: its hand, then its face-up layout cards."""
    seat = view["seat"]
    cards = list(view.get("hand", ()))
    others_up: list[str] = []
    for owner, layout in enumerate(view["layout"]):
        ups = [pos["up"] for pos in layout if pos is not None and pos["up"] is not None]
        if owner == seat:
            cards.extend(ups)
        else:
            others_up.extend(ups)
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
        goal_low=view["contract"] == "pass",
        others_up=others_up,
    )


def seen_in_world(state: State) -> Seen:
    """The decision of the seat to act in an imagined world (the strong bot's playouts)."""
    seat = state.to_act
    assert seat is not None  # a playout stops when nobody is to act
    cards = [up for up, _ in state.layouts[seat] if up is not None]
    others_up = [up for up, _ in state.layouts[1 - seat] if up is not None]
    return Seen(
        trick_winner=trick_winner, seat=seat, players=2,
        legal=state.legal_actions(), cards=cards + list(state.hands[seat]),
        trick=list(state.trick), trump=state.trump, out=state.won[0] + state.won[1],
        tricks=state.tricks, goal_low=state.contract == "pass", others_up=others_up,
    )  # fmt: skip


def resample(view: Mapping[str, Any], rng: Random) -> State:
    """A whole state, drawn at random among those ``view`` cannot tell from the real one."""
    return GAME.from_dict(_record(view, rng))


def _record(view: Mapping[str, Any], rng: Random) -> dict[str, Any]:
    """The stored-state record (``State.to_dict``) of a sampled world."""
    seat = view["seat"]
    opp = 1 - seat
    locked = view["hand_locked"]
    hand = [] if locked else list(view["hand"])
    seen = set(hand) | set(played(view))
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
        "game": NAME,
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
