"""Reads for the tournament pages (docs/tournaments.md § Pages): the list, one event's page and a
player's tournaments on their profile. The standings come from ``selectors`` (recomputed from
the result rows); this module gathers what a page shows beside them, in a few queries, and
decides nothing a service decides (who may enter is the entry service's word)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q

from accounts.models import Friendship, Player
from accounts.selectors import wallet_balance
from accounts.services import pool_balance
from games.models import Seat, Table

from . import scoring, selectors
from .models import Entrant, Tournament, TournamentTable
from .services.entries import pool_key

FINISHED_SHOWN = 20  # the list's latest finished (or cancelled) events
PROFILE_SHOWN = 20  # a profile's latest tournaments, and latest trophies
LEADERS_SHOWN = 3  # players sharing first place named in the list

Score = int | Fraction  # arena points, or Swiss points (halves)


def visible_to(player: Player | None) -> Q:
    """The tournaments ``player`` may see, as a filter on ``Tournament``: the rule of
    ``tournaments.access.may_see`` as one query for the lists (a friends-only event for its
    organiser, the organiser's friends and its entrants; every other event for everyone)."""
    open_to_all = ~Q(access=Tournament.Access.FRIENDS)
    if player is None:
        return open_to_all
    return (
        open_to_all
        | Q(creator=player)
        | Q(creator_id__in=Friendship.objects.filter(friend=player).values("player_id"))
        | Q(pk__in=Entrant.objects.filter(player=player).values("tournament_id"))
    )


def shown_score(tournament: Tournament, score: int) -> Score:
    """An ``Entrant.score`` as the page writes it: Swiss scores are kept in half-points."""
    return Fraction(score, 2) if tournament.format == Tournament.Format.SWISS else score


# --- The list -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Listed:
    """One event in the list: how many are in, whether the viewer is, who leads or won."""

    tournament: Tournament
    players: int
    entered: bool
    leaders: list[Player]
    leader_score: Score | None
    offer_join: bool = False  # a Join button in the list (no password to type, not a refusal)


@dataclass(frozen=True)
class Listing:
    upcoming: list[Listed]
    running: list[Listed]
    finished: list[Listed]  # the latest FINISHED_SHOWN, cancelled ones among them


def _leaders(tournament: Tournament) -> tuple[list[int], Score | None]:
    """Who is first in a running event's standings, and with what; nobody before a result."""
    if not tournament.results.exists():
        return [], None
    table = selectors.standings(tournament)
    first = [row.player for row in table if row.rank == 1]
    top = table[0]
    score = top.record.total if isinstance(top, scoring.ArenaStanding) else top.points
    return first[:LEADERS_SHOWN], score


def _offer_join(tournament: Tournament, player: Player | None, entered: bool, balance: int) -> bool:
    """Whether the list offers a Join button: to a player not in yet, for an event that asks no
    password, whose fee they can pay, and that a guest may enter if they are one. Otherwise the
    event's page explains."""
    if player is None or entered or tournament.access == Tournament.Access.PASSWORD:
        return False
    if player.is_guest:
        return not tournament.rated and not tournament.entry_fee
    return balance >= tournament.entry_fee


def tournament_list(player: Player | None, *, game: str | None = None) -> Listing:
    """The events ``player`` may see, upcoming (soonest first), running, and the latest ended."""
    shown = Tournament.objects.filter(visible_to(player)).annotate(players=Count("entrants"))
    if game is not None:
        shown = shown.filter(game=game)
    status = Tournament.Status
    upcoming = list(shown.filter(status=status.SCHEDULED).order_by("starts_at", "pk"))
    running = list(shown.filter(status=status.RUNNING).order_by("started_at", "pk"))
    over = shown.filter(status__in=[status.FINISHED, status.CANCELLED])
    ended = list(over.order_by("-ended_at", "-pk")[:FINISHED_SHOWN])
    entered: set[int] = set()
    balance = wallet_balance(player) if player is not None else 0
    if player is not None:
        entered = set(
            Entrant.objects.filter(
                player=player, withdrawn=False, tournament__in=[*upcoming, *running]
            ).values_list("tournament_id", flat=True)
        )
    leading = {t.pk: _leaders(t) for t in running}
    winners: dict[int, list[Entrant]] = defaultdict(list)
    for entrant in Entrant.objects.filter(tournament__in=ended, rank=1).select_related("player"):
        winners[entrant.tournament_id].append(entrant)
    names = Player.objects.in_bulk([pid for ids, _score in leading.values() for pid in ids])

    def listed(t: Tournament, leaders: list[Player], score: Score | None) -> Listed:
        return Listed(t, t.players, t.pk in entered, leaders, score)  # type: ignore[attr-defined]

    return Listing(
        upcoming=[
            replace(
                listed(t, [], None), offer_join=_offer_join(t, player, t.pk in entered, balance)
            )
            for t in upcoming
        ],
        running=[
            listed(t, [names[pid] for pid in leading[t.pk][0]], leading[t.pk][1]) for t in running
        ],
        finished=[
            listed(
                t,
                [e.player for e in winners[t.pk][:LEADERS_SHOWN]],
                shown_score(t, winners[t.pk][0].score) if winners[t.pk] else None,
            )
            for t in ended
        ],
    )


# --- One event's page -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """One match in a player's line of results. ``kind``: ``points`` (an arena match, doubled
    on fire), ``win``, ``draw``, ``loss`` (Swiss, two seats), ``place`` (Swiss, more seats;
    ``tied`` when shared), ``bye``, ``playing`` (the round's match goes on), ``out`` (sat the
    round out)."""

    kind: str
    points: int = 0
    doubled: bool = False
    place: int = 0
    tied: bool = False


@dataclass(frozen=True)
class Row:
    """One line of the standings, with the tiebreaks in the order the page's columns name."""

    rank: int
    player: Player
    score: Score
    marks: list[Mark]
    tiebreaks: list[Score | None]
    entrant: Entrant
    on_fire: bool = False  # arena: two wins in a row, the next match scores double


@dataclass(frozen=True)
class LiveTable:
    """A tournament table still being played, to watch."""

    table_id: int
    round_number: int
    players: list[Player]


@dataclass(frozen=True)
class Choices:
    """The buttons the viewer is offered; the service still decides (a click is only a
    request)."""

    join: bool = False
    password: bool = False  # the join form asks for the event's password
    balance: int | None = None  # set when the viewer cannot pay the fee: what they have
    leave: bool = False
    pause: bool = False
    resume: bool = False


@dataclass(frozen=True)
class Page:
    tournament: Tournament
    rows: list[Row]
    podium: list[Row]  # after the end: the top three places
    paid: list[Row]  # after the end: each prize paid
    tables: list[LiveTable]
    pool: int
    shares: list[int]  # the prize table, percent by place
    prizes: list[tuple[int, int]]  # place, coins: the pool paid out now with the players in
    place_points: list[tuple[int, Score]]
    bye_points: Fraction | None
    entrant: Entrant | None  # the viewer's entry
    choices: Choices
    guests_welcome: bool  # a guest may enter (free and casual)


def _swiss_marks(tournament: Tournament, seats: int) -> dict[int, dict[int, Mark]]:
    """Each player's Swiss result in each round played."""
    marks: dict[int, dict[int, Mark]] = defaultdict(dict)
    for result in tournament.results.all():
        if result.place is None:
            mark = Mark("bye")
        elif seats == 2:
            kind = "draw" if result.tied > 1 else "win" if result.place == 1 else "loss"
            mark = Mark(kind, place=result.place)
        else:
            mark = Mark("place", place=result.place, tied=result.tied > 1)
        marks[result.player_id][result.round_number] = mark
    return marks


def _live_tables(tournament: Tournament) -> list[LiveTable]:
    links = list(
        TournamentTable.objects.filter(
            tournament=tournament, counted=False, table__status=Table.Status.PLAYING
        ).order_by("pk")
    )
    seated: dict[int, list[Player]] = defaultdict(list)
    seats = Seat.objects.filter(table_id__in=[link.table_id for link in links])
    for seat in seats.select_related("player").order_by("position"):
        seated[seat.table_id].append(seat.player)
    return [LiveTable(link.table_id, link.round_number, seated[link.table_id]) for link in links]


def _rows(
    tournament: Tournament, entrants: dict[int, Entrant], seats: int, tables: list[LiveTable]
) -> list[Row]:
    """The standings' lines, from the entrants the page read: one read for the table and the
    lines (a second read in the selectors found players who entered in between: issue 40)."""
    rows = []
    if tournament.format == Tournament.Format.ARENA:
        for arena in selectors.arena_table(tournament, list(entrants.values())):
            entrant, record = entrants[arena.player], arena.record
            marks = [Mark("points", m.points, m.doubled) for m in record.matches]
            row = Row(arena.rank, entrant.player, record.total, marks, [arena.performance], entrant)
            rows.append(replace(row, on_fire=record.on_fire))
        return rows
    by_round = _swiss_marks(tournament, seats)
    playing = {(t.round_number, p.pk) for t in tables for p in t.players}
    for swiss in selectors.swiss_table(tournament, list(entrants.values())):
        entrant, mine = entrants[swiss.player], by_round[swiss.player]
        marks = [
            mine.get(n) or Mark("playing" if (n, swiss.player) in playing else "out")
            for n in range(1, tournament.round_number + 1)
        ]
        tiebreaks: list[Score | None] = [
            swiss.buchholz,
            swiss.buchholz_cut1,
            swiss.sonneborn_berger,
            swiss.wins,
        ]
        rows.append(Row(swiss.rank, entrant.player, swiss.points, marks, tiebreaks, entrant))
    return rows


def _shares(tournament: Tournament) -> list[int]:
    return list(tournament.prize_shares or scoring.DEFAULT_PRIZE_SHARES)


def _prizes(tournament: Tournament, pool: int, players: int) -> list[tuple[int, int]]:
    """The pool paid by place were the event to end now with everyone in it placed apart
    (scoring.prize_payouts: the shares normalised over the places filled)."""
    shares = _shares(tournament)
    places = min(len(shares), players)
    if pool <= 0 or places == 0:
        return []
    paid = scoring.prize_payouts(pool, [[place] for place in range(1, places + 1)], shares)
    return sorted(paid.items())


def _choices(tournament: Tournament, player: Player | None, entrant: Entrant | None) -> Choices:
    status, arena = Tournament.Status, tournament.format == Tournament.Format.ARENA
    if tournament.status not in (status.SCHEDULED, status.RUNNING):
        return Choices()
    if entrant is None or entrant.withdrawn:
        may_come = tournament.status == status.SCHEDULED or arena
        password = tournament.access == Tournament.Access.PASSWORD and (
            player is None or player.pk != tournament.creator_id
        )
        balance = wallet_balance(player) if player is not None and not player.is_guest else None
        short = balance is not None and balance < tournament.entry_fee
        return Choices(
            join=may_come, password=may_come and password, balance=balance if short else None
        )
    running_arena = arena and tournament.status == status.RUNNING
    return Choices(
        leave=True,
        pause=running_arena and not entrant.paused,
        resume=running_arena and entrant.paused,
    )


def _place_points(seats: int, arena: bool) -> list[tuple[int, Score]]:
    if arena:
        return list(enumerate(scoring.arena_place_points(seats), start=1))
    return [
        (place, scoring.swiss_points(scoring.Outcome(place=place, seats=seats)))
        for place in range(1, seats + 1)
    ]


def tournament_page(tournament: Tournament, viewer: Player | None) -> Page:
    """Everything an event's page shows: standings with each line of results and tiebreaks, the
    tables being played, the prize pool, the points table, and what the viewer may press."""
    seats = selectors.seats_of(tournament)
    arena = tournament.format == Tournament.Format.ARENA
    entrants = {e.player_id: e for e in tournament.entrants.select_related("player")}
    tables = _live_tables(tournament)
    rows = _rows(tournament, entrants, seats, tables)
    finished = tournament.status == Tournament.Status.FINISHED
    pool = pool_balance(pool_key(tournament))
    entrant = entrants.get(viewer.pk) if viewer is not None else None
    return Page(
        tournament=tournament,
        rows=rows,
        podium=[row for row in rows if row.rank <= 3] if finished else [],
        paid=[row for row in rows if row.entrant.prize] if finished else [],
        tables=tables,
        pool=pool,
        shares=_shares(tournament),
        prizes=_prizes(tournament, pool, len(entrants)),
        place_points=_place_points(seats, arena),
        bye_points=None if arena else scoring.swiss_bye_points(seats),
        entrant=entrant,
        choices=_choices(tournament, viewer, entrant),
        guests_welcome=not tournament.rated and not tournament.entry_fee,
    )


# --- A player's profile ---------------------------------------------------------------------------


@dataclass(frozen=True)
class History:
    """A player's tournaments on their profile: each entry with its tournament, rank and prize."""

    played: list[Entrant]  # the latest PROFILE_SHOWN, latest first
    trophies: list[Entrant]  # top-three finishes, the latest PROFILE_SHOWN
    medals: list[tuple[int, int]]  # place, how many times, for places 1 to 3


def profile_page_context(shown: Player, viewer: Player | None) -> dict[str, Any]:
    """``LADDER_PROFILE_PAGE_CONTEXT``: the tournaments ``shown`` entered that ``viewer`` may see
    (cancelled ones left out), with rank and prize, and their top-three finishes."""
    entries = (
        Entrant.objects.filter(
            player=shown, tournament__in=Tournament.objects.filter(visible_to(viewer))
        )
        .exclude(tournament__status=Tournament.Status.CANCELLED)
        .select_related("tournament")
    )
    latest = entries.order_by("-tournament__starts_at", "-tournament_id")[:PROFILE_SHOWN]
    podium = entries.filter(tournament__status=Tournament.Status.FINISHED, rank__lte=3)
    counts = dict(podium.order_by().values("rank").annotate(n=Count("pk")).values_list("rank", "n"))
    trophies = podium.order_by("-tournament__ended_at", "-tournament_id")[:PROFILE_SHOWN]
    history = History(
        played=list(latest),
        trophies=list(trophies),
        medals=[(place, counts[place]) for place in (1, 2, 3) if counts.get(place)],
    )
    return {"tournament_history": history}
