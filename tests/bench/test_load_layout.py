"""The shape of the load bench's package (``bench/load/``, issue 27 § 4): modules a reader can
hold in mind, imports that point one way (the same AST walk as tests/test_architecture.py), and
a package that imports nothing heavy until the bench runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.test_architecture import ROOT, _cycles, _imports, _module_name

PACKAGE = ROOT / "bench" / "load"
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE.glob("*.py"))}


def test_no_module_of_the_load_bench_is_over_400_lines():
    long = {
        name: lines
        for name, path in _modules().items()
        if (lines := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not long, long


def test_the_load_bench_modules_import_each_other_without_a_circle():
    modules = _modules()
    known = set(modules)
    graph = {name: _imports(name, path, known) - {"bench.load"} for name, path in modules.items()}
    assert graph["bench.load.report"] >= {"bench.load.paced", "bench.load.server"}
    assert _cycles(graph) == []


def test_importing_the_load_bench_imports_neither_django_nor_a_client_library():
    """``python -m bench.load --help`` and the tests that build its clients need no settings:
    Django, websockets, psycopg and redis are imported inside the functions that use them."""
    probe = (
        "import sys, bench.load.__main__; "
        "print(sorted({m.split('.')[0] for m in sys.modules} "
        "& {'django', 'websockets', 'psycopg', 'redis'}))"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "[]"
