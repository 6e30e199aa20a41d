"""Put a running match into a chosen situation without playing up to it through the pages.

The browser tests open a table the usual way (the pages create, join and start it), then move
the match on in the engine (random legal moves until a condition holds) and store the result as
``Match.state`` with the version bumped, as a move would. The pages learn of it by opening the
table again (a fresh snapshot, docs/protocol.md). The match keeps its seed, so later deals are
dealt as usual. Needs the database the server uses (PostgreSQL in the browser tests).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.db import transaction

from games.models import Match, Seat
from games.rules import get_game


def store(table_id: int, make: Callable[[Any, Match], Any]) -> int:
    """Replace the match's state with ``make(engine state, match)``; returns the new version."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(table_id=table_id)
        game = get_game(match.game)
        state = make(game.from_dict(match.state), match)
        data = state.to_dict()
        data["seed"] = match.state["seed"]
        match.state = data
        match.version += 1
        match.save(update_fields=["state", "version"])
        return match.version


def to_act(table_id: int) -> int | None:
    """The seat whose turn it is in the match as stored (None when nobody is to act)."""
    match = Match.objects.get(table_id=table_id)
    return get_game(match.game).from_dict(match.state).to_act


def legal(state: Any) -> list[dict[str, Any]]:
    return state.view(state.to_act)["legal"] if state.to_act is not None else []


def play_until(
    table_id: int,
    done: Callable[[Any], bool],
    *,
    seed: int = 0,
    limit: int = 400,
    avoid: Callable[[dict[str, Any]], bool] = lambda action: False,
) -> int:
    """Random legal moves (those ``avoid`` refuses only when there is another) until
    ``done(state)``; the match must not end on the way. The seats moved themselves, so each
    one that acted ends its run of automatic moves, as a move through the service does (else a
    seat timed out before the walk is one timeout nearer forfeit after it, by chance of seat)."""
    acted: set[int] = set()

    def walk(state: Any, _match: Match) -> Any:
        rng = random.Random(seed)
        for _ in range(limit):
            if done(state):
                return state
            actions = legal(state)
            assert actions, f"no legal move on the way (phase {state.view(None)['phase']})"
            preferred = [a for a in actions if not avoid(a)] or actions
            acted.add(state.to_act)
            state = state.apply(rng.choice(preferred))
        raise AssertionError(f"no such situation within {limit} moves")

    version = store(table_id, walk)
    Seat.objects.filter(table_id=table_id, active=True, position__in=acted).update(
        timeouts_in_row=0
    )
    return version


def joker_lead(state: Any) -> bool:
    """The seat to act leads and may lead a joker, with a suit to call (the eight-button panel)."""
    view = state.view(state.to_act) if state.to_act is not None else None
    return bool(
        view
        and view["phase"] == "play"
        and not view["trick"]
        and any(
            a.get("card", "")[:1] == "X" and a.get("call") in ("want", "take")
            for a in view["legal"]
        )
    )


def trick_half_played(state: Any) -> bool:
    """Play is on and the trick has at least one card in it, and a trick was won before."""
    view = state.view(None)
    return view["phase"] == "play" and bool(view["trick"]) and view["last_trick"] is not None
