"""Inbound table-socket messages, decoded into typed records keyed by ``type``.

The consumer turns every JSON object it receives (``core.websocket.GuardedJsonConsumer`` has
already refused what is not one) into one of these, or a :class:`BadMessage`, before it does
anything else, so a handler never sees unchecked JSON. The shapes are documented in
``docs/protocol.md`` § Client → server; unknown keys are refused so a typo never passes silently.
The reasons are in the active language (the consumer's); what the client sent is quoted as is.
The types other apps serve on the socket (``GAMES_TABLE_SOCKET_HANDLERS``) are decoded by them,
with :class:`BadMessage` and the checks here.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext

MAX_ACTION_ID = 64


class BadMessage(ValueError):
    """A frame the protocol does not accept; ``code`` is ``bad_json`` or ``bad_message``."""

    def __init__(self, message: str, *, code: str = "bad_message", id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.id = id


@dataclass(frozen=True)
class Act:
    version: int
    id: str
    action: dict[str, Any]
    table: int | None = None
    type: str = "act"


@dataclass(frozen=True)
class Sync:
    type: str = "sync"


@dataclass(frozen=True)
class Ping:
    type: str = "ping"


@dataclass(frozen=True)
class Leave:
    type: str = "leave"


@dataclass(frozen=True)
class Rematch:
    accept: bool = True
    type: str = "rematch"


@dataclass(frozen=True)
class Suggest:
    """Ask for this turn's suggestion (at a table with a computer player)."""

    version: int
    type: str = "suggest"


Message = Act | Sync | Ping | Leave | Rematch | Suggest


def is_int(value: Any) -> bool:
    """An id or a version: a JSON integer, never true or false."""
    return type(value) is int  # bool is an int in Python; a version is never true/false


def check_keys(
    data: dict[str, Any], required: AbstractSet[str], optional: AbstractSet[str] = frozenset()
) -> None:
    """Refuse a message that lacks a ``required`` key or holds one it does not take."""
    missing = sorted(required - set(data))
    if missing:
        raise BadMessage(
            gettext("%(type)r needs %(keys)s.") % {"type": data["type"], "keys": ", ".join(missing)}
        )
    unknown = sorted(set(data) - required - optional - {"type"})
    if unknown:
        raise BadMessage(
            gettext("%(type)r does not take %(keys)s.")
            % {"type": data["type"], "keys": ", ".join(unknown)}
        )


def _is_action_id(value: Any) -> bool:
    """Printable ASCII only: an id is stored and compared, never shown, and a NUL or a lone
    surrogate must not reach the database."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= MAX_ACTION_ID
        and all(" " <= char <= "~" for char in value)
    )


def _act(data: dict[str, Any]) -> Act:
    raw_id = data.get("id")
    action_id = raw_id if _is_action_id(raw_id) else None
    try:
        check_keys(data, {"version", "id", "action"}, {"table"})
        if action_id is None:
            raise BadMessage(
                ngettext(
                    "'id' must be 1 to %(count)s printable ASCII character.",
                    "'id' must be 1 to %(count)s printable ASCII characters.",
                    MAX_ACTION_ID,
                )
                % {"count": MAX_ACTION_ID}
            )
        if not is_int(data["version"]) or data["version"] < 0:
            raise BadMessage(gettext("'version' must be a whole number."))
        if not isinstance(data["action"], dict) or not isinstance(data["action"].get("type"), str):
            raise BadMessage(gettext("'action' must be an object with a 'type'."))
        table = data.get("table")
        if table is not None and not is_int(table):
            raise BadMessage(gettext("'table' must be a table id."))
    except BadMessage as error:
        error.id = action_id
        raise
    return Act(version=data["version"], id=action_id, action=data["action"], table=table)


def _rematch(data: dict[str, Any]) -> Rematch:
    check_keys(data, set(), {"accept"})
    accept = data.get("accept", True)
    if not isinstance(accept, bool):
        raise BadMessage(gettext("'accept' must be true or false."))
    return Rematch(accept=accept)


def _suggest(data: dict[str, Any]) -> Suggest:
    check_keys(data, {"version"})
    if not is_int(data["version"]) or data["version"] < 0:
        raise BadMessage(gettext("'version' must be a whole number."))
    return Suggest(version=data["version"])


def _bare(cls: type) -> Any:
    def parse(data: dict[str, Any]) -> Any:
        check_keys(data, set())
        return cls()

    return parse


PARSERS = {
    "act": _act,
    "sync": _bare(Sync),
    "ping": _bare(Ping),
    "leave": _bare(Leave),
    "rematch": _rematch,
    "suggest": _suggest,
}


def decode(data: dict[str, Any], *, also: Iterable[str] = ()) -> Message:
    """One JSON object to a typed message; raises :class:`BadMessage` with the code to send.

    ``also``: the types other apps serve on the socket, named with these when a type is
    unknown."""
    kind = data.get("type")
    parser = PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise BadMessage(
            gettext("Unknown message type %(type)r; the table understands %(types)s.")
            % {"type": kind, "types": ", ".join(sorted({*PARSERS, *also}))}
        )
    return parser(data)
