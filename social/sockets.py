"""Chat and reports on the table socket (docs/protocol.md § chat, § report): games owns the
socket, social what is said on it. ``GAMES_TABLE_SOCKET_HANDLERS`` names :data:`TABLE_CHAT`;
the socket hands it the ``chat`` and ``report`` messages and the chat lines published to the
table's groups, and asks it for the history when it opens and when the match is over."""

from __future__ import annotations

from typing import Any

from core.pool import run_db
from games.hooks import TableSocket, TableSocketHandlers

from .messages import decode_chat, decode_report
from .selectors import chat_history, localized_line
from .services import chat, moderation


async def _chat(socket: TableSocket, content: dict[str, Any]) -> None:
    message = decode_chat(content)
    await socket.require_session()
    await run_db(
        chat.chat_send,
        table_id=socket.table_id,
        player=socket.player,
        phrase=message.phrase,
        text=message.text,
    )


async def _report(socket: TableSocket, content: dict[str, Any]) -> None:
    message = decode_report(content)
    report = await run_db(
        moderation.report_create,
        reporter=socket.player,
        table_id=socket.table_id,
        player_id=message.player,
        message_id=message.message,
        reason=message.reason,
    )
    await socket.send_frame({"type": "reported", "id": report.pk})


async def _line(socket: TableSocket, event: dict[str, Any]) -> None:
    """A chat line (``chat.CHAT``): a spectators' line never reaches a seat while the match is on
    (the service sends it to the spectators' group; a socket that just found its seat may still
    be there), and a line from a player this socket's player blocked never arrives."""
    if event["rail_only"] and socket.seat is not None:
        return
    if socket.player_id is not None and socket.player_id in event["hide_from"]:
        return
    await socket.send_frame(localized_line(event["frame"]))


async def _history(socket: TableSocket) -> None:
    """The lines this socket may read now: on opening, and again once the match is over (the
    spectators' lines are everyone's then)."""
    lines = await run_db(
        chat_history, table_id=socket.table_id, viewer=socket.player, seat=socket.seat
    )
    if lines:
        frames = [localized_line(line) for line in lines]
        await socket.send_frame({"type": "chat_history", "messages": frames})


TABLE_CHAT = TableSocketHandlers(
    messages={"chat": _chat, "report": _report},
    events={chat.CHAT: _line},
    opened=_history,
    match_over=_history,
)
