"""What every engine shares: the error family, the phases and the table options.

The engines never import Django: they are pure functions of (options, seed, actions).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any, ClassVar, Self, TypeVar

T = TypeVar("T")

# The shape of a plain play, shown in the messages that refuse a malformed one.
PLAY_EXAMPLE = '{"type": "play", "card": "QH"}'

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# The English words a message uses for a suit and a joker; games.rules_text has every language's.
SUIT_NAMES: dict[str, str] = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
JOKER_NAMES: dict[str, str] = {"X1": "the red joker", "X2": "the black joker"}


def gettext_noop(message: str) -> str:
    """Mark ``message`` as a template for translation and return it unchanged.

    The engines may not import Django, yet what they refuse is read by players in their own
    language. Django's ``makemessages`` runs xgettext with ``gettext_noop`` among its keywords,
    so a literal wrapped in this function lands in ``locale/*/django.po``; ``games.rules_text``
    translates it when it shows the error to someone.
    """
    return message


@dataclass(frozen=True, slots=True)
class CardCode:
    """A card named in a message: in English here, in the reader's words on the Django side."""

    code: str

    def __str__(self) -> str:
        if self.code in JOKER_NAMES:
            return JOKER_NAMES[self.code]
        rank = "10" if self.code[0] == "T" else self.code[0]
        return rank + SUIT_SYMBOLS[self.code[1]]


@dataclass(frozen=True, slots=True)
class SuitCode:
    """A suit named in a message (``"H"``), rendered like :class:`CardCode`."""

    code: str

    def __str__(self) -> str:
        return SUIT_NAMES[self.code]


class RulesError(ValueError):
    """A request the rules refuse; ``str(error)`` is a sentence a player can read (in English).

    The sentence is kept as a template and its named values, so that the Django side can say it
    in the reader's language (``games.rules_text``). Only the template goes through
    ``str.format``: a value, such as a client's own input echoed back, is never a template.
    The templates of :class:`IllegalAction` and :class:`InvalidOptions`, which a player may meet,
    are marked with :func:`gettext_noop`; the others (a malformed deal or stored state, an unknown
    game or seat) only ever reach a developer and stay English.
    """

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template = template
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        # Copies and pickles are rebuilt from the template: the formatted text may hold braces.
        return (partial(type(self), self.template, **self.params), ())


class IllegalAction(RulesError):
    """The action is not legal in this state; the state is left as it was."""


class InvalidOptions(RulesError):
    """A table option the game does not know, or a value it does not offer."""


class InvalidDeal(RulesError):
    """An explicit deal (``from_deal``) that is malformed or does not use the deck exactly once."""


class Phase(StrEnum):
    TRUMP = "trump"
    BID = "bid"
    DECLARE = "declare"
    PLAY = "play"
    HAND_OVER = "hand_over"
    MATCH_OVER = "match_over"


@dataclass(frozen=True)
class Option:
    """One table option: the values a table may carry and the one it gets when none is given.

    The words are English, marked with :func:`gettext_noop` so that the site can translate them:
    ``label`` names the option (in a refusal too), ``form_label`` is what the table form and the
    lobby say when that needs more words, and ``value_labels`` name the values that are not
    shown as they are (a bool is "on" or "off").
    """

    name: str
    label: str
    choices: tuple[Any, ...]
    default: Any
    form_label: str = ""
    value_labels: tuple[tuple[Any, str], ...] = ()


def parse_options(specs: tuple[Option, ...], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and refuse anything the game does not list under "Table options"."""
    given = dict(given or {})
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InvalidOptions(
            gettext_noop("Unknown option(s) for this game: {names}."), names=", ".join(unknown)
        )
    parsed: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        # bool is an int in Python: keep True from passing as 1 and 1 as True.
        if not any(type(value) is type(choice) and value == choice for choice in spec.choices):
            allowed = ", ".join(str(choice) for choice in spec.choices)
            raise InvalidOptions(
                gettext_noop("{option} must be one of {allowed}; got {value}."),
                option=spec.label,
                allowed=allowed,
                value=repr(value),
            )
        parsed[spec.name] = value
    return parsed


def evolver(frozen: type[T], *fields: str) -> Callable[..., T]:
    """The one way a move builds the next state: a copy of a ``frozen`` with some fields changed.

    ``evolver(State)`` takes the changes by keyword (``evolve(state, phase=…)``), any fields;
    ``evolver(State, "to_act", "hands")`` takes the new values of exactly those fields, by
    position in that order, for a move's hot path. ``frozen`` is a frozen slots dataclass.

    Through the dataclass (its ``__init__`` or :func:`dataclasses.replace`) each field costs a
    call of ``object.__setattr__``, a frozen dataclass's only way in, and that made a move several
    times dearer than all of its rules. So the function is written for the class once, here, as
    a hand-written copy would be: it copies the fields into a twin (the same slots, without the
    guard) with plain attribute stores, then makes the twin a ``frozen`` by assigning its
    ``__class__`` (Python allows it: the two layouts are the same). From then on it is as frozen
    as a state built any other way; the twin never leaves the function.
    """
    slots: tuple[str, ...] = tuple(vars(frozen)["__slots__"])
    if not set(fields) <= set(slots) or len(set(fields)) != len(fields):
        raise TypeError(f"{frozen.__name__} has no distinct fields {fields!r}")
    if any(name.startswith("_") for name in slots):
        raise TypeError(f"{frozen.__name__} has a field starting with _, which evolve reserves")
    if fields:
        params = ", ".join(fields)
        stores = [f"_n.{n} = {n}" if n in fields else f"_n.{n} = _old.{n}" for n in slots]
    else:
        params = "*, " + ", ".join(f"{name}=_SAME" for name in slots)
        stores = [f"_n.{n} = _old.{n} if {n} is _SAME else {n}" for n in slots]
    source = "\n    ".join(
        [
            f"def evolve(_old, /, {params}):",
            "_n = _new(_Twin)",
            *stores,
            "_n.__class__ = _Frozen",
            "return _n",
        ]
    )
    twin = type(f"{frozen.__name__}Twin", (), {"__slots__": slots})
    namespace: dict[str, Any] = {
        "_SAME": _SAME,
        "_new": object.__new__,
        "_Twin": twin,
        "_Frozen": frozen,
    }
    # The source names only the slots of ``frozen``; no slot starts with "_", the prefix of the
    # names it uses itself.
    exec(source, namespace)
    evolve: Callable[..., T] = namespace["evolve"]
    return evolve


_SAME = object()  # an evolve argument not given: the field keeps its value


class TableOptions:
    """Base of each game's ``Options``: a frozen slots dataclass with one field per spec.

    The engines read options as attributes (``options.points``); the server stores and shows
    them as the dict :meth:`as_dict` gives, in the order of the game's "Table options".
    """

    __slots__ = ()
    SPECS: ClassVar[tuple[Option, ...]]

    @classmethod
    def parse(cls, given: Mapping[str, Any] | None) -> Self:
        """Defaults filled in; anything the game does not offer is :class:`InvalidOptions`."""
        return cls(**parse_options(cls.SPECS, given))

    def as_dict(self) -> dict[str, Any]:
        return {spec.name: getattr(self, spec.name) for spec in self.SPECS}


def require_keys(action: dict[str, Any], keys: tuple[str, ...], example: str) -> None:
    """Refuse an action whose keys are not exactly ``keys``, showing a well-formed ``example``."""
    if set(action) != set(keys):
        raise IllegalAction(
            gettext_noop("This action takes exactly the keys {keys}: {example}."),
            keys=", ".join(keys),
            example=example,
        )
