"""The end of a match for coins, in the browser (issue 12 § 2): two people who signed up play
Japanese Joker for 25 Domino Coin; each makes a move, then one leaves; each end-of-match screen
says how many coins that player won or lost, as the wallets were settled; a rematch for coins is
only asked for once the stake is confirmed ("Not now" sends nothing), and then both are taken to
the new table.
"""

from __future__ import annotations

import random

import pytest

from accounts.models import CoinAccount

from .people import DESKTOP, PHONE, Person
from .test_ladder_pages import begin

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Count the rematch requests the page sends, so a test can tell that none went out.
COUNT_REMATCHES_JS = """() => {
  const client = window.jokerTable.client;
  const send = client.rematch.bind(client);
  window.rematchesSent = 0;
  client.rematch = accept => { window.rematchesSent += 1; return send(accept); };
}"""


@pytest.fixture
def pair(browser, e2e_server, people):
    made = [Person(browser, e2e_server, name).sign_up(name) for name in ("cora", "cato")]
    yield made
    errors = [f"{p.name}: {e}" for p in made for e in p.errors]
    for person in made:
        person.context.close()
    assert not errors, errors


def balance(name: str) -> int:
    return CoinAccount.objects.get(player__name=name).balance


def test_the_result_says_the_coins_won_or_lost_and_a_rematch_confirms_the_stake(pair, artifacts):
    cora, cato = pair
    url = cora.open_table("japanese_joker", {"stake": "25"})
    cato.join(url)
    for person in pair:
        state = person.wait_version(0)
        assert state["status"] == "playing" and state["stake"] == 25
    assert balance("cora") == balance("cato") == 975  # the stakes are in the pot

    begin(pair, random.Random(12))  # before that, leaving would abort the match (§ 0.6)
    cato.page.locator("#tool-leave").click()
    cato.page.locator("#dialog-leave").get_by_role("button", name="Leave and forfeit").click()
    for person, text, sign in (
        (cora, "You won 25 Domino Coin.", "plus"),
        (cato, "You lost 25 Domino Coin.", "minus"),
    ):
        line = person.page.locator("#dialog-result #coins-result")
        line.wait_for()
        assert line.inner_text() == text
        assert sign in line.get_attribute("class")
    assert (balance("cora"), balance("cato")) == (1025, 975)  # what the screens said
    cato.snap(artifacts, "coins-result", PHONE)
    cora.snap(artifacts, "coins-result", DESKTOP)

    # The rematch asks first: "Not now" sends nothing, the stake button sends it once.
    for person in pair:
        person.page.evaluate(COUNT_REMATCHES_JS)
    dialog = cora.page.locator("#dialog-result")
    dialog.locator("#rematch-button").click()
    confirm = dialog.locator("#rematch-confirm")
    confirm.wait_for()
    assert "25 Domino Coin per seat" in confirm.inner_text()
    assert dialog.locator("#rematch-button").is_hidden()
    cora.snap(artifacts, "coins-rematch-confirm", PHONE)
    confirm.get_by_role("button", name="Not now").click()
    assert confirm.is_hidden() and dialog.locator("#rematch-button").is_visible()
    assert cora.page.evaluate("window.rematchesSent") == 0
    dialog.locator("#rematch-button").click()
    confirm.get_by_role("button", name="Stake 25 coins").click()
    assert cora.page.evaluate("window.rematchesSent") == 1
    cato.page.locator("#dialog-result #rematch-status").get_by_text("cora accepted").wait_for()

    old = cora.page.url
    cato.page.locator("#rematch-button").click()
    cato.page.locator("#rematch-confirm-button").click()
    for person in pair:
        person.page.wait_for_url(lambda u, old=old: u != old and "/tables/" in u)
        assert person.wait_version(0)["stake"] == 25
    assert balance("cora") == 1000 and balance("cato") == 950  # the new stakes
