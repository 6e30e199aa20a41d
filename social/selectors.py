"""Reads of the social rules: a table's chat for one reader, the chat of a match for its replay,
block lists, and the reputation (completion and recent forfeits) shown on profiles and badges."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from accounts.models import Player
from games.models import Match, Seat, Table

from .models import Block, ChatMessage, Forfeit
from .phrases import PHRASES, phrase_text
from .services.chat import chat_frame, match_over
from .services.cooldowns import active_cooldown, cooldown_reason

# --- Chat -----------------------------------------------------------------------------------------


def chat_history(*, table_id: int, viewer: Player | None, seat: int | None) -> list[dict[str, Any]]:
    """The latest lines a socket may read: a seat reads the players' lines (and the spectators'
    once the match is over), a spectator reads both; never a line from a player it blocked."""
    lines = ChatMessage.objects.filter(table_id=table_id)
    # Most tables have nothing said yet: every socket opening asks, so that is one query.
    if not lines.exists():
        return []
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return []
    lines = lines.select_related("sender")
    if seat is not None and not match_over(table):
        lines = lines.filter(channel=ChatMessage.Channel.PLAYERS)
    if viewer is not None:
        lines = lines.exclude(sender__in=Block.objects.filter(blocker=viewer).values("blocked"))
    latest = list(lines.order_by("-created_at", "-pk")[: settings.CHAT_HISTORY_LIMIT])
    positions = dict(Seat.objects.filter(table=table).values_list("player_id", "position"))
    return [chat_frame(line, positions.get(line.sender_id)) for line in reversed(latest)]


def localized_line(frame: dict[str, Any]) -> dict[str, Any]:
    """A chat frame for one reader: a preset phrase's text in the active language."""
    if frame.get("phrase"):
        return {**frame, "text": phrase_text(frame["phrase"])}
    return frame


@dataclass(frozen=True)
class LogLine:
    at: Any
    name: str
    channel: str
    text: str
    message_id: int


def match_chat(*, match: Match, viewer: Player | None = None) -> list[LogLine]:
    """What was said at the match's table, in order, for its replay page (include
    ``social/_match_chat.html`` with ``chat_lines``): both channels, as the match is over, less
    the lines of players the viewer blocked. A match still being played shows nothing here (its
    chat is on the table socket)."""
    if match.status == Match.Status.PLAYING:
        return []
    return table_chat(table_id=match.table_id, viewer=viewer)


def table_chat(*, table_id: int, viewer: Player | None = None) -> list[LogLine]:
    """Everything said at a table, in order, for moderators (no viewer) and the replay."""
    lines = ChatMessage.objects.filter(table_id=table_id).select_related("sender")
    if viewer is not None:
        lines = lines.exclude(sender__in=Block.objects.filter(blocker=viewer).values("blocked"))
    return [
        LogLine(
            at=line.created_at,
            name=line.sender.display_name,
            channel=line.channel,
            text=phrase_text(line.phrase) if line.phrase else line.text,
            message_id=line.pk,
        )
        for line in lines
    ]


# --- Blocks ---------------------------------------------------------------------------------------


def blocked_players(player: Player) -> list[Player]:
    """Whom the player blocked, by name (the friends page's block list)."""
    return list(Player.objects.filter(blocked_by__blocker=player).order_by("name"))


def blocked_among(player: Player | None, player_ids: Iterable[int]) -> list[Player]:
    """Of these players, the ones ``player`` blocked (a seated blocked player: a warning)."""
    if player is None:
        return []
    ids = list(player_ids)
    return list(Player.objects.filter(pk__in=ids, blocked_by__blocker=player).order_by("name"))


def players_blocking(player: Player) -> QuerySet[Block, int]:
    """The ids of the players who blocked ``player``, as a query to nest
    (``GAMES_PLAYERS_AVOIDING``: their tables are hidden from ``player``)."""
    return Block.objects.filter(blocked=player).values_list("blocker_id", flat=True)


def players_blocked_by(player_ids: set[int]) -> set[int]:
    """The ids of the players any of these blocked (``GAMES_PLAYERS_AVOIDED``)."""
    blocked = Block.objects.filter(blocker_id__in=player_ids)
    return set(blocked.values_list("blocked_id", flat=True))


def players_apart(player_ids: set[int]) -> dict[int, set[int]]:
    """Which of these players blocked, or were blocked by, which (``GAMES_PLAYERS_APART``)."""
    apart: dict[int, set[int]] = {}
    pairs = Block.objects.filter(blocker_id__in=player_ids, blocked_id__in=player_ids)
    for blocker, blocked in pairs.values_list("blocker_id", "blocked_id"):
        apart.setdefault(blocker, set()).add(blocked)
        apart.setdefault(blocked, set()).add(blocker)
    return apart


# --- Pages ----------------------------------------------------------------------------------------


def cooldown_notice(player: Player | None) -> str:
    """The lobby's word to a player cooling down: why, and until when ('' if they may sit)."""
    cooldown = active_cooldown(player)
    return cooldown_reason(cooldown) if cooldown is not None else ""


def lobby_page_context(player: Player | None) -> dict[str, Any]:
    """What the lobby page shows of the social rules (``GAMES_LOBBY_PAGE_CONTEXT``)."""
    return {"cooldown_notice": cooldown_notice(player)}


def friends_page_context(player: Player) -> dict[str, Any]:
    """The friends page's block list (``ACCOUNTS_FRIENDS_PAGE_CONTEXT``)."""
    return {"blocked": blocked_players(player)}


def table_page_context(player: Player | None, table: Table, seats: list[Seat]) -> dict[str, Any]:
    """What the table page shows of the social rules (``GAMES_TABLE_PAGE_CONTEXT``): the chat
    panel's phrases and whether its reader may write, the players at the table the reader
    blocked, the low-completion badges."""
    seated = [seat.player_id for seat in seats]
    return {
        "chat_phrases": [(key, str(text)) for key, text in PHRASES.items()],
        "chat_can_write": player is not None and not player.is_guest,
        "chat_max_length": settings.CHAT_MAX_LENGTH,
        "blocked_here": blocked_among(player, seated),
        "low_completion_ids": low_completion(seated),
        "reportable": [
            seat.player for seat in seats if player is None or seat.player_id != player.pk
        ],
    }


# --- Reputation -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reputation:
    started: int
    completed: int
    recent_forfeits: int  # left or abandoned, in the last REPUTATION_WINDOW_DAYS days

    @property
    def completion(self) -> float | None:
        return self.completed / self.started if self.started else None

    @property
    def low(self) -> bool:
        rate = self.completion
        return (
            rate is not None
            and self.started >= settings.REPUTATION_MIN_MATCHES
            and rate < settings.REPUTATION_LOW_COMPLETION
        )


def _seat_counts(player_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """Per player: matches started that are decided for them (over, or forfeited by them) and
    those finished in the seat. The site's one definition of completion (the profile, the
    badge). A forfeit the server caused (a crash, a pairing nobody heard of) counts for nobody:
    the match is neither started nor finished for that player."""
    excused = Forfeit.objects.filter(
        player_id=OuterRef("player_id"), match=OuterRef("table__match"), excused=True
    )
    rows = (
        Seat.objects.filter(player_id__in=list(player_ids), table__match__isnull=False)
        .annotate(excused=Exists(excused))
        .filter(excused=False)
        .filter(Q(forfeited=True) | Q(table__match__status=Match.Status.FINISHED))
        .values("player_id")
        .annotate(started=Count("pk"), completed=Count("pk", filter=Q(forfeited=False)))
    )
    return {row["player_id"]: (row["started"], row["completed"]) for row in rows}


def reputation(player: Player) -> Reputation:
    started, completed = _seat_counts([player.pk]).get(player.pk, (0, 0))
    since = timezone.now() - timedelta(days=settings.REPUTATION_WINDOW_DAYS)
    recent = Forfeit.objects.filter(
        player=player,
        excused=False,
        created_at__gte=since,
        reason__in=("left", "abandoned", "absent"),
    ).count()
    return Reputation(started=started, completed=completed, recent_forfeits=recent)


def low_completion(player_ids: Iterable[int]) -> set[int]:
    """Which of these players get the low-completion badge: one query for a whole lobby page."""
    counts = _seat_counts(player_ids)
    return {
        player_id
        for player_id, (started, completed) in counts.items()
        if Reputation(started=started, completed=completed, recent_forfeits=0).low
    }
