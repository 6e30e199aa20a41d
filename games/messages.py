"""Inbound table-socket messages, decoded into typed records keyed by ``type``.

The consumer turns every JSON object it receives (``core.websocket.GuardedJsonConsumer`` has
already refused what is not one) into one of these, or a :class:`BadMessage`, before it does
anything else, so a handler never sees unchecked JSON. The shapes are documented in
``docs/protocol.md`` § Client → server; unknown keys are refused so a typo never passes silently.
The reasons are in the active language (the consumer's); what the client sent is quoted as is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, ngettext

from social.phrases import PHRASES

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
class Chat:
    """One chat line: a preset ``phrase`` id or free ``text`` (docs/protocol.md § chat)."""

    phrase: str = ""
    text: str = ""
    type: str = "chat"


@dataclass(frozen=True)
class Report:
    """Report a chat ``message`` (its sender) or a ``player`` at the table to the moderators."""

    player: int | None = None
    message: int | None = None
    reason: str = ""
    type: str = "report"


@dataclass(frozen=True)
class Suggest:
    """Ask for this turn's suggestion (at a table with a computer player)."""

    version: int
    type: str = "suggest"


Message = Act | Sync | Ping | Leave | Rematch | Chat | Report | Suggest

MAX_REPORT_REASON = 500


def _is_int(value: Any) -> bool:
    return type(value) is int  # bool is an int in Python; a version is never true/false


def _check_keys(
    data: dict[str, Any], required: AbstractSet[str], optional: AbstractSet[str] = frozenset()
) -> None:
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
        _check_keys(data, {"version", "id", "action"}, {"table"})
        if action_id is None:
            raise BadMessage(
                ngettext(
                    "'id' must be 1 to %(count)s printable ASCII character.",
                    "'id' must be 1 to %(count)s printable ASCII characters.",
                    MAX_ACTION_ID,
                )
                % {"count": MAX_ACTION_ID}
            )
        if not _is_int(data["version"]) or data["version"] < 0:
            raise BadMessage(gettext("'version' must be a whole number."))
        if not isinstance(data["action"], dict) or not isinstance(data["action"].get("type"), str):
            raise BadMessage(gettext("'action' must be an object with a 'type'."))
        table = data.get("table")
        if table is not None and not _is_int(table):
            raise BadMessage(gettext("'table' must be a table id."))
    except BadMessage as error:
        error.id = action_id
        raise
    return Act(version=data["version"], id=action_id, action=data["action"], table=table)


def _rematch(data: dict[str, Any]) -> Rematch:
    _check_keys(data, set(), {"accept"})
    accept = data.get("accept", True)
    if not isinstance(accept, bool):
        raise BadMessage(gettext("'accept' must be true or false."))
    return Rematch(accept=accept)


def _clean_text(value: Any, limit: int, name: str) -> str:
    """Text a person wrote: a string of at most ``limit`` characters, without control characters
    or lone surrogates (which no database stores), trimmed."""
    if not isinstance(value, str):
        raise BadMessage(gettext("%(name)r must be text.") % {"name": name})
    text = value.strip()
    if len(text) > limit:
        raise BadMessage(
            gettext("%(name)r may be at most %(count)s characters.")
            % {"name": name, "count": limit}
        )
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in text):
        raise BadMessage(gettext("%(name)r may not hold control characters.") % {"name": name})
    return text


def _chat(data: dict[str, Any]) -> Chat:
    _check_keys(data, set(), {"phrase", "text"})
    if ("phrase" in data) == ("text" in data):
        raise BadMessage(gettext("'chat' takes a 'phrase' or a 'text', one of them."))
    if "phrase" in data:
        if not isinstance(data["phrase"], str) or data["phrase"] not in PHRASES:
            raise BadMessage(
                gettext("'phrase' must be one of %(phrases)s.") % {"phrases": ", ".join(PHRASES)}
            )
        return Chat(phrase=data["phrase"])
    text = _clean_text(data["text"], settings.CHAT_MAX_LENGTH, "text")
    if not text:
        raise BadMessage(gettext("'text' is empty."))
    return Chat(text=text)


def _report(data: dict[str, Any]) -> Report:
    _check_keys(data, set(), {"player", "message", "reason"})
    if ("player" in data) == ("message" in data):
        raise BadMessage(gettext("'report' names a 'player' or a 'message', one of them."))
    about: Any = data.get("player", data.get("message"))
    if not _is_int(about) or not 0 < about < 2**63:
        raise BadMessage(gettext("'player' and 'message' are ids."))
    reason = _clean_text(data.get("reason", ""), MAX_REPORT_REASON, "reason")
    if "player" in data:
        return Report(player=about, reason=reason)
    return Report(message=about, reason=reason)


def _suggest(data: dict[str, Any]) -> Suggest:
    _check_keys(data, {"version"})
    if not _is_int(data["version"]) or data["version"] < 0:
        raise BadMessage(gettext("'version' must be a whole number."))
    return Suggest(version=data["version"])


def _bare(cls: type) -> Any:
    def parse(data: dict[str, Any]) -> Any:
        _check_keys(data, set())
        return cls()

    return parse


PARSERS = {
    "act": _act,
    "sync": _bare(Sync),
    "ping": _bare(Ping),
    "leave": _bare(Leave),
    "rematch": _rematch,
    "chat": _chat,
    "report": _report,
    "suggest": _suggest,
}


def decode(data: dict[str, Any]) -> Message:
    """One JSON object to a typed message; raises :class:`BadMessage` with the code to send."""
    kind = data.get("type")
    parser = PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise BadMessage(
            gettext("Unknown message type %(type)r; the table understands %(types)s.")
            % {"type": kind, "types": ", ".join(sorted(PARSERS))}
        )
    return parser(data)
