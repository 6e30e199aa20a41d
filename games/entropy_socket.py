"""Player entropy on the table socket (docs/protocol.md § Player entropy): a seated client of an
open table commits to its value (``entropy_commit``) and reveals it when asked (``reveal`` →
``entropy_reveal``). Served through ``GAMES_TABLE_SOCKET_HANDLERS`` like social's chat, so the
table consumer stays the move path; the lobby socket serves the reveal of the waiting room."""

from __future__ import annotations

from typing import Any

from core.pool import run_db

from .hooks import TableSocket, TableSocketHandlers
from .services import entropy, reveals


def reveal_frame(event: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "reveal",
        "table": event["table"],
        "commitment": event["commitment"],
        "server_commitment": event["server_commitment"],
    }


async def _commit(socket: TableSocket, content: dict[str, Any]) -> None:
    await socket.require_session()
    await run_db(
        reveals.entropy_commit,
        table_id=socket.table_id,
        player=socket.player,
        commitment=content.get("commitment"),
    )
    await socket.send_frame({"type": "entropy_committed", "table": socket.table_id})


async def _reveal(socket: TableSocket, content: dict[str, Any]) -> None:
    await socket.require_session()
    await run_db(
        reveals.entropy_reveal,
        table_id=socket.table_id,
        player=socket.player,
        value=content.get("value"),
    )
    await socket.send_frame({"type": "entropy_revealed", "table": socket.table_id})


async def _asked(socket: TableSocket, event: dict[str, Any]) -> None:
    await socket.send_frame(reveal_frame(event))


TABLE_ENTROPY = TableSocketHandlers(
    messages={"entropy_commit": _commit, "entropy_reveal": _reveal},
    events={entropy.REVEAL: _asked},
)
