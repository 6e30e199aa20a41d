"""The pairing rule of quick play, as a pure function (docs/protocol.md § Quick play).

Players wait in a pool in the order they joined. The oldest is seated first, with the waiting
players nearest in rating; a group is allowed when every member's rating range contains every
other member's rating (lichess's pools). A range starts narrow and widens with waiting time,
so a rare rating still finds a game, later. Two players one of whom keeps the other away (a
block) are never seated together. In a casual pool a player who asked for it gets computers in
the seats nobody filled once their fill time has passed; rated pools wait for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Waiting:
    """A ticket waiting in one pool."""

    ticket: int
    player: int
    rating: float
    joined_at: datetime
    fill_after_seconds: float | None = None  # casual pools only; None: wait for people
    avoids: frozenset[int] = field(default_factory=frozenset)  # both ways: blocked or blocking


@dataclass(frozen=True)
class Gap:
    """How far apart in rating a group may be: ``start`` at once, ``per_second`` more for each
    second waited, never more than ``most``."""

    start: float
    per_second: float
    most: float

    def allowed(self, waiting: Waiting, now: datetime) -> float:
        waited = max(0.0, (now - waiting.joined_at).total_seconds())
        return min(self.most, self.start + self.per_second * waited)


@dataclass(frozen=True)
class Group:
    """Players to seat at one table; ``computers`` more seats go to computer players."""

    tickets: tuple[int, ...]
    computers: int = 0


def _fits(group: Sequence[Waiting], candidate: Waiting, gap: Gap, now: datetime) -> bool:
    for member in group:
        if candidate.player in member.avoids or member.player in candidate.avoids:
            return False
        distance = abs(member.rating - candidate.rating)
        if distance > gap.allowed(member, now) or distance > gap.allowed(candidate, now):
            return False
    return True


def _grow(
    first: Waiting, others: Sequence[Waiting], seats: int, gap: Gap, now: datetime
) -> list[Waiting]:
    """The group around ``first``: repeatedly the fitting player nearest the group's mean
    rating (the older on a tie), until the table is full or nobody fits."""
    group = [first]
    left = list(others)
    while len(group) < seats:
        mean = sum(member.rating for member in group) / len(group)
        fitting = [w for w in left if _fits(group, w, gap, now)]
        if not fitting:
            break
        chosen = min(fitting, key=lambda w: (abs(w.rating - mean), w.joined_at, w.ticket))
        group.append(chosen)
        left.remove(chosen)
    return group


def pair(
    waiting: Sequence[Waiting], *, seats: int, gap: Gap, now: datetime, casual: bool
) -> list[Group]:
    """The tables to seat now from one pool's waiting tickets (each ticket at most once)."""
    queue = sorted(waiting, key=lambda w: (w.joined_at, w.ticket))
    groups: list[Group] = []
    taken: set[int] = set()
    for first in queue:
        if first.ticket in taken:
            continue
        others = [w for w in queue if w.ticket not in taken and w.ticket != first.ticket]
        group = _grow(first, others, seats, gap, now)
        if len(group) < seats:
            if not (casual and _fill_due(first, now)):
                continue
            # Computers for the rest: only with players who asked for them too.
            fillers = [w for w in others if w.fill_after_seconds is not None]
            group = _grow(first, fillers, seats, gap, now)
        taken.update(member.ticket for member in group)
        groups.append(Group(tickets=tuple(m.ticket for m in group), computers=seats - len(group)))
    return groups


def _fill_due(first: Waiting, now: datetime) -> bool:
    """The oldest player asked for computers and has waited their fill time."""
    if first.fill_after_seconds is None:
        return False
    return (now - first.joined_at).total_seconds() >= first.fill_after_seconds
