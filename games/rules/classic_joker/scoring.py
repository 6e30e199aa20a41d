"""Classic Joker's scoring: one deal (CJ-17 … CJ-21), a pulka's premia and moshla (CJ-22 …
CJ-25), the final ranking (CJ-26) and the score sheet that shows them.

Rules 17–25 are also the pure functions docs/rules/classic_joker.md names (``score_deal``,
``pulka_scores``), so a test or the help pages can check a score without playing a deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from .options import Options, as_options

# One finished deal on the sheet: (deal_number, cards, bids, tricks taken), seats in order.
HistoryRow = tuple[int, int, tuple[int, ...], tuple[int, ...]]


def score_deal(
    cards: int, bid: int, taken: int, options: Options | Mapping[str, Any] | None = None
) -> int:
    """Points of one seat for one deal of ``cards`` cards (CJ-17 … CJ-21)."""
    if not (0 <= bid <= cards and 0 <= taken <= cards):
        raise ValueError(f"Bid {bid} and tricks {taken} must lie in 0…{cards}.")
    if bid == taken:
        if bid == cards:
            return 100 * cards  # CJ-17: bid and took every trick
        if bid == 0:
            return 50  # CJ-18: a pass made
        return 50 * bid + 50  # CJ-19
    if taken == 0:
        return as_options(options).khishti  # CJ-20: khishti (0 with the option "none", CJ-28)
    return 10 * taken  # CJ-21


def _seat_best(points: Sequence[Sequence[int]], seat: int) -> int:
    """Index of the seat's highest deal score; the earliest deal on ties (CJ-23)."""
    best = 0
    for index in range(1, len(points)):
        if points[index][seat] > points[best][seat]:
            best = index
    return best


def premia_seats(rows: Sequence[Sequence[Sequence[int]]]) -> list[int]:
    """Seats that made their bid exactly in every deal of the pulka, passes included (CJ-22)."""
    if not rows:
        return []
    return [s for s in range(len(rows[0])) if all(row[s][1] == row[s][2] for row in rows)]


def pulka_marks(
    rows: Sequence[Sequence[Sequence[int]]], options: Options | Mapping[str, Any] | None = None
) -> list[list[str | None]]:
    """Per deal and seat: ``"doubled"`` (premia, CJ-23), ``"cancelled"`` (moshla, CJ-24) or None.

    ``rows`` is the pulka: one list per deal of a ``(cards, bid, taken)`` a seat. The marks are
    what the score sheet shows and what :func:`pulka_scores` adds up (CJ-25: raw scores of the
    pulka).
    """
    opts = as_options(options)
    seats = len(rows[0]) if rows else 0
    marks: list[list[str | None]] = [[None] * seats for _ in rows]
    if not opts.premia or not rows:
        return marks
    points = [[score_deal(n, b, t, opts) for n, b, t in row] for row in rows]
    winners = premia_seats(rows)
    for seat in winners:
        marks[_seat_best(points, seat)][seat] = "doubled"
    if opts.moshla and len(winners) == 1:  # CJ-24, at every number of seats (CJ-30)
        for seat in range(seats):
            if seat in winners:
                continue
            best = _seat_best(points, seat)
            if points[best][seat] > 0:  # cancelling never raises a score
                marks[best][seat] = "cancelled"
    return marks


def pulka_scores(
    rows: Sequence[Sequence[Sequence[int]]], options: Options | Mapping[str, Any] | None = None
) -> list[int]:
    """Each seat's pulka total after premia and moshla (CJ-17 … CJ-25)."""
    opts = as_options(options)
    marks = pulka_marks(rows, opts)
    totals = [0] * (len(rows[0]) if rows else 0)
    for row, row_marks in zip(rows, marks, strict=True):
        for seat, (n, bid, taken) in enumerate(row):
            points = score_deal(n, bid, taken, opts)
            mark = row_marks[seat]
            if mark == "doubled":
                points *= 2
            elif mark == "cancelled":
                points = 0
            totals[seat] += points
    return totals


def final_ranking(
    scores: Sequence[int], forfeited: Iterable[int] = (), first_dealer: int = 0
) -> tuple[list[int], list[int]]:
    """(winners, places) at the end of the match (CJ-26, docs/rules/README.md § 0.6).

    Places are competition places (1, 1, 3, 4); seats that forfeited come after every seat that
    stayed. Winners are listed from the first dealer's left, the order in which an indivisible
    pot remainder is given. If every seat forfeited, all are ranked by score alone.
    """
    gone = set(forfeited)
    seats = len(scores)
    stayed = [s for s in range(seats) if s not in gone] or list(range(seats))
    left = [s for s in range(seats) if s not in stayed]
    places = [0] * seats
    for group, offset in ((stayed, 0), (left, len(stayed))):
        for seat in group:
            places[seat] = offset + 1 + sum(1 for other in group if scores[other] > scores[seat])
    order = [(first_dealer + 1 + k) % seats for k in range(seats)]
    winners = [s for s in order if s in stayed and places[s] == 1]
    return winners, places


@lru_cache(maxsize=512)
def sheet_numbers(
    history: tuple[HistoryRow, ...], options: Options
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The sheet's numbers, cached: every view of every seat shows the same sheet."""
    sched = options.schedule
    seats = options.seats
    rows: list[tuple[Any, ...]] = []
    pulkas: list[tuple[Any, ...]] = []
    by_pulka: dict[int, list[HistoryRow]] = {}
    for row in history:
        by_pulka.setdefault(sched[row[0] - 1][1], []).append(row)
    for pulka, deals in by_pulka.items():
        cells = [[(d[1], d[2][s], d[3][s]) for s in range(seats)] for d in deals]
        last_of_pulka = max(i for i, (_, p) in enumerate(sched) if p == pulka) + 1
        complete = deals[-1][0] == last_of_pulka
        marks: list[list[str | None]] = (
            pulka_marks(cells, options) if complete else [[None] * seats] * len(deals)
        )
        totals = [0] * seats
        for deal, row_cells, row_marks in zip(deals, cells, marks, strict=True):
            points = tuple(score_deal(n, b, t, options) for n, b, t in row_cells)
            shown: list[str | None] = []
            for seat in range(seats):
                mark = row_marks[seat]
                value = points[seat]
                if mark == "doubled":
                    value *= 2
                elif mark == "cancelled":
                    value = 0
                elif options.khishti and row_cells[seat][1] >= 1 and row_cells[seat][2] == 0:
                    mark = "khishti"  # not with the option "none" (CJ-28): nothing to mark
                totals[seat] += value
                shown.append(mark)
            rows.append((deal[0], deal[1], pulka, deal[2], deal[3], points, tuple(shown)))
        premia = premia_seats(cells) if complete and options.premia else []
        pulkas.append((pulka, complete, tuple(premia), tuple(totals)))
    return tuple(rows), tuple(pulkas)


def sheet(history: tuple[HistoryRow, ...], options: Options) -> dict[str, Any]:
    """The public score sheet: one row per finished deal and the pulka totals (CJ-25)."""
    rows, pulkas = sheet_numbers(history, options)
    return {
        "rows": [
            {
                "deal": deal,
                "cards": cards,
                "pulka": pulka,
                "bids": list(bids),
                "taken": list(taken),
                "points": list(points),
                "marks": list(marks),
            }
            for deal, cards, pulka, bids, taken, points, marks in rows
        ],
        "pulkas": [
            {
                "pulka": pulka,
                "complete": complete,
                "premia": list(premia),
                "totals": list(totals),
            }
            for pulka, complete, premia, totals in pulkas
        ],
    }
