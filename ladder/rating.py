"""The rating math of the ladder: pure Python over openskill, no Django, no clock, no I/O.

Skill is openskill's Plackett-Luce model with its defaults (a new player has μ = 25, σ = 25/3).
A match is a free-for-all of one-player teams ranked by place (1 is best, equal places are a
tie), which covers the one-against-one games and classic Joker's four seats alike. What a person
sees is the *display rating*: openskill's ordinal μ − 3σ mapped linearly so that a new player
starts at 1500 (README § Ladder).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()

DISPLAY_START = 1500  # a new player's display rating (ordinal 0)
DISPLAY_PER_ORDINAL = 20  # display points per unit of openskill's ordinal


@dataclass(frozen=True)
class Skill:
    """One player's skill estimate in one game: openskill's μ (mean) and σ (uncertainty)."""

    mu: float
    sigma: float

    @property
    def display(self) -> int:
        """The number a person sees: the ordinal on the 1500-start scale, rounded."""
        rating = _MODEL.create_rating([self.mu, self.sigma])
        return round(rating.ordinal(alpha=DISPLAY_PER_ORDINAL, target=DISPLAY_START))


NEW_SKILL = Skill(mu=_MODEL.mu, sigma=_MODEL.sigma)


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """Everyone's skill after one match, in the same order; ``places[i]`` is player i's place.

    Each player is a team of one; equal places share the result."""
    if len(skills) != len(places) or len(skills) < 2:
        raise ValueError("A rated match needs at least two players, each with a place.")
    teams = [[_MODEL.create_rating([skill.mu, skill.sigma])] for skill in skills]
    rated = _MODEL.rate(teams, ranks=list(places))
    return [Skill(mu=team[0].mu, sigma=team[0].sigma) for team in rated]


def placements(
    *, seats: int, winners: Iterable[int], forfeited: Iterable[int], scores: Sequence[int]
) -> list[int]:
    """Each seat's place from a match result (competition places: 1, 1, 3, 4).

    The winners share first place. Everyone else is placed after them: first the seats that
    stayed, then the seats that forfeited (whatever their score), each group by score, highest
    first, equal scores sharing a place. In classic Joker this is the engine's final ranking
    (CJ-26 with forfeits last); in the two-player games it is winner first, loser second.
    """
    won = set(winners)
    gone = set(forfeited)
    if not won:
        raise ValueError("A rated match has at least one winner.")

    def key(seat: int) -> tuple[int, int, int]:
        # Sorts best first: winners, then those who stayed, then leavers; higher scores first.
        return (
            0 if seat in won else 1,
            1 if seat in gone and seat not in won else 0,
            -scores[seat],
        )

    places = [0] * seats
    for seat in range(seats):
        places[seat] = 1 + sum(1 for other in range(seats) if key(other) < key(seat))
    return places
