"""Who may see a tournament (its page, its socket): a public or password event everyone (the
password guards entering, not watching); a friends-only event its organiser, the organiser's
friends and its entrants."""

from __future__ import annotations

from accounts.models import Friendship, Player

from .models import Tournament


def may_see(tournament: Tournament, player: Player | None) -> bool:
    if tournament.access != Tournament.Access.FRIENDS:
        return True
    if player is None:
        return False
    return (
        player.pk == tournament.creator_id
        or tournament.entrants.filter(player=player).exists()
        or Friendship.objects.filter(player_id=tournament.creator_id or 0, friend=player).exists()
    )
