"""Classic Joker's table options and the schedule of deals they choose (CJ-2, CJ-3, CJ-4, CJ-11,
CJ-20, CJ-22, CJ-24, CJ-27, CJ-28)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..base import Option, TableOptions, gettext_noop

NUM_PLAYERS = 4  # the most seats (CJ-2); the option ``seats`` chooses 2, 3 or 4
SEAT_COUNTS = (4, 3, 2)

OPTION_SPECS: tuple[Option, ...] = (
    Option("seats", gettext_noop("Players"), SEAT_COUNTS, NUM_PLAYERS),
    Option(
        "pulkas",
        gettext_noop("Pulkas"),
        ("standard", "nines", "short"),
        "standard",
        value_labels=(
            ("standard", gettext_noop("Standard (24 deals)")),
            ("nines", gettext_noop("Nines only (16 deals)")),
            ("short", gettext_noop("Short (2 pulkas of 4 nines)")),
        ),
    ),
    Option(
        "khishti",
        gettext_noop("Khishti"),
        (-200, -500, -900, 0),
        -200,
        value_labels=((0, gettext_noop("None")),),
    ),
    Option("premia", gettext_noop("Premia"), (True, False), True),
    Option(
        "moshla",
        "Moshla",
        (True, False),
        True,
        form_label=gettext_noop("Moshla (premia cancels the others’ best deal)"),
    ),
    Option(
        "strict_joker",
        "Strict joker",
        (False, True),
        False,
        form_label=gettext_noop("Strict joker (lead a joker only when nothing else is left)"),
    ),
)

# CJ-3: 1..8, four nines, 8..1, four nines; CJ-4: four pulkas of four nines.
# Each deal is (cards per seat, pulka index).
STANDARD: tuple[tuple[int, int], ...] = (
    tuple((n, 0) for n in range(1, 9))
    + ((9, 1),) * 4
    + tuple((n, 2) for n in range(8, 0, -1))
    + ((9, 3),) * 4
)
NINES: tuple[tuple[int, int], ...] = tuple((9, p) for p in range(4) for _ in range(4))
# CJ-27: two pulkas of four nines (the commercial "Short" game).
SHORT: tuple[tuple[int, int], ...] = tuple((9, p) for p in range(2) for _ in range(4))
SCHEDULES = {"standard": STANDARD, "nines": NINES, "short": SHORT}


@dataclass(frozen=True, slots=True)
class Options(TableOptions):
    """The table options that change play (stake and visibility belong to the site)."""

    SPECS: ClassVar[tuple[Option, ...]] = OPTION_SPECS
    seats: int = NUM_PLAYERS
    pulkas: str = "standard"
    khishti: int = -200
    premia: bool = True
    moshla: bool = True
    strict_joker: bool = False

    @property
    def schedule(self) -> tuple[tuple[int, int], ...]:
        return SCHEDULES[self.pulkas]


def as_options(options: Options | Mapping[str, Any] | None) -> Options:
    """Accept the parsed object or a (partial) dict, so the pure functions are easy to call."""
    if isinstance(options, Options):
        return options
    return Options.parse(options)


def schedule(options: Options | Mapping[str, Any] | None = None) -> list[tuple[int, int]]:
    """(cards per deal, pulka index) for every deal of the match, in order (CJ-3, CJ-4)."""
    return list(as_options(options).schedule)
