"""The hooks of ``accounts``: what the apps built on it (games, social) add to requests between
players, to an account's deactivation and to the friends page, each named in a setting by
dotted path so that accounts imports none of them (``core.hooks``; CONTRIBUTING.md § Hooks).
"""

from __future__ import annotations

from typing import Any

from core.hooks import hooks, run

from .models import Player


def request_checks(*, sender: Player, target: Player) -> None:
    """``ACCOUNTS_REQUEST_CHECKS``, each ``check(sender=…, target=…)``: before a request from
    one player reaches another (a friend request; a table invitation, in games, under the table
    lock); a check refuses with a ``ServiceError`` (social: a block, either way)."""
    run("ACCOUNTS_REQUEST_CHECKS", sender=sender, target=target)


def player_deactivated(player: Player) -> None:
    """``ACCOUNTS_PLAYER_DEACTIVATED``, each ``deactivated(player)``: in the deactivation's
    transaction, after the user row is written (games: the seat given up or forfeited, under
    the table's or the match's lock, docs/concurrency.md). Its sockets close after the commit."""
    run("ACCOUNTS_PLAYER_DEACTIVATED", player)


def friends_page_context(player: Player) -> dict[str, Any]:
    """``ACCOUNTS_FRIENDS_PAGE_CONTEXT``, each ``context(player)``: what the friends page adds to
    its template's context (social: ``blocked``, the block list)."""
    merged: dict[str, Any] = {}
    for context in hooks("ACCOUNTS_FRIENDS_PAGE_CONTEXT"):
        merged.update(context(player))
    return merged
