"""The README's first pictures: a Japanese Joker table in the middle of a trick, on a phone
(390×844) and on a desktop (1280×800), each seat's own page.

They go to tests/e2e/artifacts/ on every run; with UPDATE_README_PICTURES=1 also to
docs/images/table-phone.png and docs/images/table-desktop.png (committed, each under ~300 KB).
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.support import match_states

from .conftest import ROOT
from .people import DESKTOP, Person
from .phone import PHONES, phone_people, reopen, table_id  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PICTURES = {"table-phone": PHONES[2], "table-desktop": DESKTOP}


def test_the_readme_pictures(people, browser, e2e_server, artifacts):
    (desk,) = people(1)
    # One and a half device pixels a CSS pixel: sharp, and a file of a README's size.
    phone = Person(
        browser,
        e2e_server,
        "phone",
        viewport=PHONES[2],
        device={"device_scale_factor": 1.5, "is_mobile": True, "has_touch": True},
    )
    try:
        phone.become_guest()
        url = desk.open_table("japanese_joker", {"points": "21"})
        phone.join(url)
        desk.wait_version(0)
        version = match_states.play_until(table_id(url), match_states.trick_half_played, seed=5)
        by_seat = reopen([desk, phone], url, version)
        for person in by_seat.values():
            person.page.locator("#match-area .mine .card").first.wait_for()
        for name, person in (("table-phone", phone), ("table-desktop", desk)):
            person.resize(PICTURES[name])
            path = artifacts / f"{name}.png"
            person.page.screenshot(path=str(path))
            assert path.stat().st_size < 320_000, (name, path.stat().st_size)
            if os.environ.get("UPDATE_README_PICTURES") == "1":
                (ROOT / "docs" / "images").mkdir(exist_ok=True)
                shutil.copyfile(path, ROOT / "docs" / "images" / f"{name}.png")
    finally:
        errors = list(phone.errors)
        phone.context.close()
    assert not errors, errors
