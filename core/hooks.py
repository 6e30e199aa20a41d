"""Hooks: how an app lets the apps built on it act, without importing them.

The apps depend one way (core ← accounts ← games ← social ← ladder; CONTRIBUTING.md § Hooks).
Where a lower app must let a higher one take part (a forfeit to record, a seat to refuse, a
message type to serve), it runs a hook: a setting that lists, by dotted path, what to call. The
app that owns a hook states its signature, and where and under which lock it runs, in its own
``hooks`` module. The paths are imported once per process (once per list, so a test that
changes the setting gets its own).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string


def hooks(name: str) -> tuple[Any, ...]:
    """What the setting ``name`` lists, imported, in its order."""
    return _imported(tuple(getattr(settings, name)))


@cache
def _imported(paths: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(import_string(path) for path in paths)


def run(name: str, *args: Any, **kwargs: Any) -> None:
    """Call each callable of the hook ``name`` in order; one that raises stops the rest, and its
    error reaches the caller (whose transaction it undoes)."""
    for hook in hooks(name):
        hook(*args, **kwargs)
