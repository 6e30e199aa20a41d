"""Toy Tricks, the suite's own game: the proof that a game is its package and nothing else.

This folder is the whole game: the engine (``engine``, rules in ``RULES.md``), what a computer
player reads and imagines (below), the help page (``templates/help/en/toy_trick.html``), the
table's renderer (``static/toy_game/renderer.js``) and its words in Georgian and Russian
(``locale/``). It is an installed app of the test settings
(``config/settings/test.py``, the one line outside this folder), and the games app registers its
``SPEC``; then it has a lobby row, a create form, a table that plays over the socket, computer
players, a replay and a help page, like the built-in games.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random
from typing import Any

from games.rules.base import gettext_noop
from games.rules.registry import GameSpec
from games.rules.tricks import Play
from games.rules.worlds import Seen, Slot, fill, out_of_play, played, shown_voids, trick_plays

from .engine import DECK, GAME, NAME, State, trick_winner


def seen(view: Mapping[str, Any]) -> Seen:
    """The decision of the seat whose view this is."""
    return Seen(
        trick_winner=trick_winner,
        seat=view["seat"],
        players=view["players"],
        legal=view["legal"],
        cards=list(view["hand"]),
        trick=[Play.from_public(play) for play in view["trick"]],
        trump=None,
        out=out_of_play(view),
        tricks=view["tricks"],
    )


def seen_in_world(state: State) -> Seen:
    """The decision of the seat to act in an imagined world."""
    seat = state.to_act
    assert seat is not None  # a playout stops when nobody is to act
    return Seen(
        trick_winner=trick_winner,
        seat=seat,
        players=2,
        legal=state.legal_actions(),
        cards=list(state.hands[seat]),
        trick=list(state.trick),
        trump=None,
        out=state.played,
        tricks=state.tricks,
    )


def resample(view: Mapping[str, Any], rng: Random) -> State:
    """The opponent's hand and the six unseen cards, dealt again from what this seat has not
    seen this hand; a suit the opponent did not follow stays out of its hand (TT-4)."""
    seat = view["seat"]
    opp = 1 - seat
    hand = list(view["hand"])
    voids = shown_voids(trick_plays(view), None, must_trump=False)
    theirs = Slot(view["hand_counts"][opp], voids.get(opp, ()))
    pool = set(DECK) - set(hand) - set(played(view))
    rest = Slot(len(pool) - theirs.count)
    fill(pool, [theirs, rest], rng)
    record = {
        "game": NAME,
        "options": {"points": view["target"]},
        "seed": None,  # the world ends with its hand
        "hand_number": view["hand_number"],
        "first": view["leader"],  # only the next deal would read it
        "leader": view["leader"],
        "phase": view["phase"],
        "hands": [hand, theirs.cards] if seat == 0 else [theirs.cards, hand],
        "undealt": rest.cards,
        "trick": list(view["trick"]),
        "tricks": list(view["tricks"]),
        "played": [c for t in view["hand_tricks"] for c in (p["card"] for p in t["plays"])],
        "scores": list(view["scores"]),
        "last_trick": view["last_trick"],
        "previous_hand": None,
        "hand_tricks": list(view["hand_tricks"]),
        "result": None,
        "forfeited": [],
    }
    return GAME.from_dict(record)


SPEC = GameSpec(
    id=NAME,
    title=gettext_noop("Toy Tricks"),
    summary=gettext_noop("2 players, 12 cards, three each: the test suite's own game."),
    engine=GAME,
    help_slug=NAME,
    renderer="toy_game/renderer.js",
    seen=seen,
    seen_in_world=seen_in_world,
    resample=resample,
    deal_keys=("undealt",),
)
