"""``core.hooks``: every hook that accounts and games run is named in the settings, each path
there imports, and a list is imported once (the same objects every call), while a test that
changes the setting gets its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings

from core.hooks import hooks
from games.hooks import TableSocketHandlers

ROOT = Path(__file__).resolve().parents[1]


def _hooks_run_by(path: Path) -> set[str]:
    """The setting names a ``hooks`` module passes to ``core.hooks``."""
    return {
        node.args[0].value
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("hooks", "run")
        and isinstance(node.args[0], ast.Constant)
    }


HOOKS = sorted(
    _hooks_run_by(ROOT / "accounts" / "hooks.py")
    | _hooks_run_by(ROOT / "games" / "hooks.py")
    | _hooks_run_by(ROOT / "ladder" / "hooks.py")
)


def test_the_walk_finds_the_hooks():
    assert {"GAMES_SEAT_FORFEITED", "ACCOUNTS_PLAYER_DEACTIVATED", "MATCH_PAGE_PANELS"} <= set(
        HOOKS
    )


@pytest.mark.parametrize("name", HOOKS)
def test_every_hook_is_named_in_the_settings_and_imports(name):
    named = getattr(settings, name)
    assert isinstance(named, list) and all(isinstance(path, str) for path in named)
    found = hooks(name)
    assert len(found) == len(named)
    assert all(callable(hook) or isinstance(hook, TableSocketHandlers) for hook in found)
    assert hooks(name) is found  # imported once


def test_a_changed_setting_is_its_own_list(settings):
    settings.GAMES_MATCH_STARTED = ["tests.support.hooks.started"]
    assert [hook.__name__ for hook in hooks("GAMES_MATCH_STARTED")] == ["started"]
    settings.GAMES_MATCH_STARTED = []
    assert hooks("GAMES_MATCH_STARTED") == ()
