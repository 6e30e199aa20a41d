"""The table socket's ``chat`` and ``report`` messages (docs/protocol.md § chat, § report), decoded
into typed records before anything else is done, the way ``games.messages`` decodes the
table's own: with its :class:`~games.messages.BadMessage` and its checks, so a refusal reads the
same whichever app serves the type."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext

from games.messages import BadMessage, check_keys, is_int

from .phrases import PHRASES
from .services.moderation import MAX_REASON


@dataclass(frozen=True)
class Chat:
    """One chat line: a preset ``phrase`` id or free ``text`` (docs/protocol.md § chat)."""

    phrase: str = ""
    text: str = ""


@dataclass(frozen=True)
class Report:
    """Report a chat ``message`` (its sender) or a ``player`` at the table to the moderators."""

    player: int | None = None
    message: int | None = None
    reason: str = ""


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


def decode_chat(data: dict[str, Any]) -> Chat:
    check_keys(data, set(), {"phrase", "text"})
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


def decode_report(data: dict[str, Any]) -> Report:
    check_keys(data, set(), {"player", "message", "reason"})
    if ("player" in data) == ("message" in data):
        raise BadMessage(gettext("'report' names a 'player' or a 'message', one of them."))
    about: Any = data.get("player", data.get("message"))
    if not is_int(about) or not 0 < about < 2**63:
        raise BadMessage(gettext("'player' and 'message' are ids."))
    reason = _clean_text(data.get("reason", ""), MAX_REASON, "reason")
    if "player" in data:
        return Report(player=about, reason=reason)
    return Report(message=about, reason=reason)
