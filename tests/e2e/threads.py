"""The services called from a browser test: on a thread of their own, as the sweep or a socket
calls them (they publish through async_to_sync, which Playwright's loop in the test's thread
forbids)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def on_a_thread(work: Callable[[], object], timeout: float = 120) -> None:
    """Run ``work`` and wait for it; what it raised is raised here."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:  # raised again below, in the test's thread
            failed.append(error)
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(timeout=timeout)
    assert not worker.is_alive(), f"{work} still running after {timeout} s"
    if failed:
        raise failed[0]
