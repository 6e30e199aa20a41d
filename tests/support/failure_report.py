"""What a failing test leaves for whoever reads the run: the last lines its servers logged
while it ran, and for a browser test each open page's screenshot and console.

Servers and pages register here as they start (``watch_log``, ``watch_page``); the root
conftest's report hook calls ``sections`` when a test's setup or body fails. A log is shown only
when it grew during the test, so a session's server appears under the test that failed on it
and not under every other.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TAIL_LINES = 40


@dataclass
class _Log:
    name: str
    read: Callable[[], str]
    size: Callable[[], int]
    alive: Callable[[], bool]
    seen: int = 0  # its size when the test began


@dataclass
class _Page:
    name: str
    page: Any  # playwright.sync_api.Page
    console: list[str]


_logs: list[_Log] = []
_pages: list[_Page] = []


def _file(path: Path) -> tuple[Callable[[], str], Callable[[], int]]:
    """A log file's reader and its size in bytes (a session's log is long: not read per test)."""

    def read() -> str:
        try:
            with open(path, "rb") as log:
                log.seek(0, 2)
                log.seek(max(0, log.tell() - 64_000))
                return log.read().decode(errors="replace")
        except OSError:
            return ""

    def size() -> int:
        try:
            return path.stat().st_size
        except OSError:
            return 0

    return read, size


def watch_log(name: str, log: Path | Callable[[], str], alive: Callable[[], bool]) -> None:
    """A server's log (a file, or a function that returns what it printed so far), shown while
    ``alive()`` holds or in the test it stopped in."""
    if isinstance(log, Path):
        read, size = _file(log)
        _logs.append(_Log(name, read, size, alive))
    else:
        _logs.append(_Log(name, log, lambda: len(log()), alive))


def watch_page(name: str, page: Any, console: list[str]) -> None:
    """A browser page and the console lines its owner collects."""
    _pages.append(_Page(name, page, console))


def begin() -> None:
    """A test starts: forget stopped servers and closed pages, note how far each log is."""
    _logs[:] = [log for log in _logs if log.alive()]
    _pages[:] = [page for page in _pages if not page.page.is_closed()]
    for log in _logs:
        log.seen = log.size()


def _safe(name: str) -> str:
    return re.sub(r"[^\w-]+", "_", name)


def sections(test_name: str, artifacts: Path) -> list[tuple[str, str]]:
    """Report sections for a failed test: each log's tail, each page's files (and makes them)."""
    found: list[tuple[str, str]] = []
    for log in _logs:
        if log.size() > log.seen:
            lines = log.read().splitlines()[-TAIL_LINES:]
            found.append((f"{log.name}: its last {len(lines)} lines", "\n".join(lines)))
    if _pages:
        artifacts.mkdir(parents=True, exist_ok=True)
        stem = _safe(test_name)[-120:]
        saved = []
        for index, entry in enumerate(_pages):
            base = f"failed-{stem}-{index}-{_safe(entry.name)}"
            screenshot, console = artifacts / f"{base}.png", artifacts / f"{base}.console.log"
            try:
                if not entry.page.is_closed():
                    entry.page.screenshot(path=str(screenshot), timeout=5_000)
                    saved.append(str(screenshot))
            except Exception as error:  # a crashed page still gets its console written
                saved.append(f"(no screenshot of {entry.name}: {error})")
            url = "" if entry.page.is_closed() else entry.page.url
            console.write_text(f"url: {url}\n" + "\n".join(entry.console) + "\n")
            saved.append(str(console))
        found.append(("browser pages: screenshots and console logs", "\n".join(saved)))
    return found
