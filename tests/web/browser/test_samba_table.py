"""In the browser (issue 24): a Samba table with a samba (a run of seven), a shorter run and
groups at 390 and 1440 px: the runs drawn low to high with their marks, no sideways scroll,
nothing serious for axe. Screenshots in var/test-artifacts/look/."""

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.factories import UserFactory, started_game
from tests.games.playing import fix_shuffles
from tests.web.browser.conftest import Players, horizontal_overflow, serious_violations, shoot
from tests.web.browser.test_around_the_table import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_samba_table_draws_runs_on_a_phone_and_a_desktop(
    players: Players, monkeypatch: pytest.MonkeyPatch
) -> None:
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = started_game(players=seated, rules={"game": "samba"})
    state = game.state
    assert state is not None
    deal = state["deal"]
    deal["melds"][0] = [
        ["H0", "4H5H6H7H8H9HTH"],
        ["K1", "KSKHKD2C"],
        ["S2", "9STSJS"],
    ]
    deal["melds"][1] = [["Q0", "QSQHQDQCQSQHJK"]]
    deal["opened"] = [True, True]
    Game.objects.filter(pk=game.pk).update(state=state)
    for width, height in ((390, 844), (1440, 900)):
        page = players.new_page(width=width, height=height)
        log_in(page, seated[0])
        page.goto(f"/games/{game.pk}/")
        expect(page.locator('[data-kind="sequence"]')).to_have_count(2)
        expect(page.locator('[data-canasta="samba"]')).to_have_count(1)
        assert horizontal_overflow(page) == 0
        assert serious_violations(page) == []
        shoot(page, f"table-samba-{width}")
