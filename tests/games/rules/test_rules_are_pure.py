"""The rules engines are pure Python (docs/architecture.md § The shape).

Nothing under ``games/rules/`` may import Django, read a clock or the environment, or draw
randomness other than from a seeded ``random.Random`` instance (every deal comes from the seed).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "games" / "rules"
MODULE_FILES = sorted(RULES.rglob("*.py"))
FORBIDDEN_MODULES = ("django", "time", "datetime", "os", "secrets")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def impurities(path: Path) -> list[str]:
    """Each forbidden import or module-level ``random`` function used in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
            if node.module == "random":
                found += [
                    f"line {node.lineno}: from random import {alias.name}"
                    for alias in node.names
                    if alias.name != "Random"
                ]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            found.append(f"line {node.lineno}: random.{node.attr} (use a seeded random.Random)")
            continue
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name | ast.Attribute)
            and getattr(node.func, "id", getattr(node.func, "attr", ""))
            in ("__import__", "import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        else:
            continue
        for name in names:
            if name.split(".")[0] in FORBIDDEN_MODULES:
                found.append(f"line {node.lineno}: imports {name}")
    return found


def test_the_rules_package_has_modules() -> None:
    assert RULES / "__init__.py" in MODULE_FILES
    assert RULES / "japanese_joker" / "game.py" in MODULE_FILES


@pytest.mark.parametrize("path", MODULE_FILES, ids=lambda p: p.name)
def test_no_django_clock_environment_or_unseeded_randomness(path: Path) -> None:
    """No django/time/datetime/os/secrets import and no module-level random function."""
    assert impurities(path) == []


def test_the_scan_itself_catches_what_it_should(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import os\nfrom django.db import models\nimport random\nrandom.shuffle([])\n"
        "from datetime import date\nr = random.Random(1)\n"
        "importlib.import_module('django.conf')\n",
        encoding="utf-8",
    )
    assert len(impurities(bad)) == 5


def test_importing_every_rules_module_loads_no_django() -> None:
    """Import each module in a fresh interpreter: nothing named django* may be loaded."""
    modules = [module_name(path) for path in MODULE_FILES]
    script = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'django')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
