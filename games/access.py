"""Who may see a table and who may sit at it: the one statement of the rule, as a query (the
lobby's lists), a predicate (a page or a socket asking for one table) and an audience (whom a
friends-only table's lobby events go to).

Public and password tables are seen by everyone. A friends-only table is seen by its creator,
the creator's friends, the invited and the seated; it is joined by the creator's friends and
the invited (a password table by the invited or with its password).

A table made by, or seating, someone who keeps a player away is not available to that player
(unless they sit there themselves): hidden in the lobby, its page and its seats refused. Who
keeps whom away is another app's word (``GAMES_PLAYERS_AVOIDING`` and ``GAMES_PLAYERS_AVOIDED``,
``games.hooks``; social: a block); the rule is here.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext

from accounts.models import Friendship, Player
from core.errors import ServiceError

from . import hooks
from .models import Invitation, Seat, Table

# What a person may choose for a table. Quick play's tables (POOL) are made only by pairing:
# one made from the form would wait where nobody can find or join it.
CHOOSABLE_VISIBILITIES = (
    Table.Visibility.PUBLIC,
    Table.Visibility.FRIENDS,
    Table.Visibility.PASSWORD,
)


def visible_to(player: Player | None) -> Q:
    """The tables ``player`` may see, as a filter on ``Table``."""
    open_to_all = ~Q(visibility=Table.Visibility.FRIENDS)
    if player is None:
        return open_to_all
    # Subqueries rather than joins: a join on invitations or seats would repeat tables.
    seated = Q(pk__in=Seat.objects.filter(player=player).values("table_id"))
    return (
        open_to_all
        | Q(creator=player)
        | Q(creator_id__in=Friendship.objects.filter(friend=player).values("player_id"))
        | Q(pk__in=Invitation.objects.filter(player=player).values("table_id"))
        | seated
    ) & (seated | ~_kept_from(player))


def _kept_from(player: Player) -> Q:
    """Tables made by, or seating, someone who keeps ``player`` away (none without a hook)."""
    hidden = Q(pk__in=[])  # no table
    for avoiding in hooks.players_avoiding(player):
        hidden |= Q(creator_id__in=avoiding) | Q(
            pk__in=Seat.objects.filter(player_id__in=avoiding).values("table_id")
        )
    return hidden


def shut_out(table: Table, *, seated: set[int] | None = None) -> set[int]:
    """The players a table is not available to: kept away by its creator or by someone seated
    (those seated there themselves keep it; ``seated``: as the caller just read them)."""
    if seated is None:
        seated = set(Seat.objects.filter(table=table).values_list("player_id", flat=True))
    return hooks.players_avoided({table.creator_id, *seated}) - seated


def audience(table: Table, *, seated: set[int] | None = None) -> set[int] | None:
    """The players who may see a friends-only table (None: everyone may see it)."""
    if table.visibility != Table.Visibility.FRIENDS:
        return None
    friends = Friendship.objects.filter(player_id=table.creator_id).values_list(
        "friend_id", flat=True
    )
    invited = Invitation.objects.filter(table=table).values_list("player_id", flat=True)
    if seated is None:
        seated = set(Seat.objects.filter(table=table).values_list("player_id", flat=True))
    return {table.creator_id, *friends, *invited, *seated} - shut_out(table, seated=seated)


def may_see(player: Player | None, table: Table, *, seated: bool = False) -> bool:
    """Whether ``player`` may see ``table`` (its page, its socket, its finished matches). A
    caller that already knows the player is seated there says so (``seated``): the rule lets
    the seated see their table whoever else is there, and the query is skipped."""
    if seated and player is not None:
        return True
    return Table.objects.filter(visible_to(player), pk=table.pk).exists()


def require_available(player: Player, table: Table) -> None:
    """Joining a table of someone who blocked the player is refused in the words the lobby
    implies (it hides the table): the table is not available."""
    if Table.objects.filter(_kept_from(player), pk=table.pk).exists():
        raise ServiceError(gettext("This table is not available."), code="not_available")


def is_invited(player: Player, table: Table) -> bool:
    """An invitation opens a friends-only or a password table to its guest."""
    return Invitation.objects.filter(table=table, player=player).exists()


def is_creators_friend(player: Player, table: Table) -> bool:
    return Friendship.objects.filter(player_id=table.creator_id, friend=player).exists()
