"""Every word on the lobby and table pages is translated into Georgian and Russian (issue 7).

The page is read as a person sees it (``innerText`` after the scripts have drawn the table), and
any word in Latin letters is a string that escaped the catalogues, except names and the words
below that stay the same in every language.
"""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# Player names are data, "Domino Coin" is a name, and the language menu names English itself.
SAME_IN_EVERY_LANGUAGE = {"Guest", "Domino", "Coin", "English"}
# The seed's commitment on the table page is data, and SHA-256 a name (issue 16).
HEX_DIGEST = re.compile(r"(?:sha256:)?\b[0-9a-f]{64}\b|SHA-256")


def untranslated(text: str) -> set[str]:
    text = HEX_DIGEST.sub(" ", text)
    return {word for word in LATIN_WORD.findall(text) if word not in SAME_IN_EVERY_LANGUAGE}


def speak(person, language: str) -> None:
    """What the language menu does: the language cookie, for the whole site."""
    origin = re.match(r"https?://[^/]+", person.page.url).group(0)
    person.context.add_cookies(
        [{"name": "django_language", "value": language, "url": f"{origin}/"}]
    )


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_lobby_and_table_pages_have_no_untranslated_string(people, language):
    host, guest = people(2)
    url = host.open_table("japanese_joker")

    speak(guest, language)
    guest.page.goto("/")
    guest.page.wait_for_selector(f'#tables [data-table-id] a[href="{url[url.index("/tables") :]}"]')
    guest.page.locator('#tables[data-live="yes"]').wait_for(state="attached")  # the snapshot
    lobby_text = guest.page.inner_text("body")
    assert untranslated(lobby_text) == set(), lobby_text

    # The host speaks the language before the match starts: the waiting room reloads itself
    # into the table when the last seat fills, so no page needs to be opened again (a second
    # navigation of ours would race the page's own).
    speak(host, language)
    guest.page.goto(url)
    guest.page.locator('form[action$="/join/"] button').click()  # "Take a seat", translated
    for person in (host, guest):
        person.page.wait_for_function(
            "() => window.jokerTable && window.jokerTable.client.state"
            " && window.jokerTable.client.state.status === 'playing'"
        )
        person.page.locator("#match-area[data-version]").wait_for(state="attached")  # drawn
        assert person.page.evaluate("document.documentElement.lang") == language
        table_text = person.page.inner_text("body")
        assert untranslated(table_text) == set(), table_text
