"""Issue 41 § 3: a virtualenv left without pip (a first `make run` interrupted while the venv
was being made) made every later `make run` and `make test` fail with "No module named pip"
until the newcomer found it and deleted it by hand. The Makefile makes it again."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The project's own Makefile over a package with nothing to install: what is tested is how the
# Makefile treats the venv, not the site's dependencies.
PROBE_PROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "venv-probe"
version = "0"

[tool.setuptools]
py-modules = []
"""


@pytest.mark.slow
def test_a_venv_that_cannot_run_pip_is_made_again(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text(PROBE_PROJECT)
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", ".venv"], cwd=tmp_path, check=True
    )
    broken = subprocess.run(
        [str(tmp_path / ".venv/bin/python"), "-m", "pip", "--version"], capture_output=True
    )
    assert broken.returncode != 0  # the state an interrupted first run leaves

    made = subprocess.run(
        ["make", ".venv/.installed-run", f"PYTHON={sys.executable}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert made.returncode == 0, made.stdout + made.stderr
    assert ".venv is broken (its python cannot run pip): making it again." in made.stdout
    pip = subprocess.run(
        [str(tmp_path / ".venv/bin/python"), "-m", "pip", "--version"], capture_output=True
    )
    assert pip.returncode == 0, pip.stderr
    assert (tmp_path / ".venv/.installed-run").exists()
    again = subprocess.run(
        ["make", "-n", ".venv/.installed-run", f"PYTHON={sys.executable}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert "broken" not in again.stdout and "is up to date" in again.stdout  # a sound one is kept
