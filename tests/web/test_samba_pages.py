"""Samba, Bolivia and «Acaba» on the pages (issue 24): the lobby's form offers the games with a
sentence each, opens them, and the table page draws a sequence as a run with its meld index."""

import re

import pytest

from accounts.models import User
from games.engine import Rules
from games.models import Game
from tests.factories import UserFactory, started_game
from tests.games.playing import fix_shuffles
from tests.web.test_table_sizes import client_of, form

pytestmark = pytest.mark.django_db


def test_the_lobby_form_offers_the_games_and_acaba_in_both_languages() -> None:
    user = UserFactory.create()
    russian = client_of(user).get("/").content.decode()
    for value in ("classic", "samba", "bolivia"):
        assert f'name="game" value="{value}"' in russian
    assert 'name="acaba"' in russian and "Самба: три колоды" in russian
    User.objects.filter(pk=user.pk).update(language="en")
    english = client_of(user).get("/").content.decode()
    assert "Samba: three packs" in english and "Bolivia: like Samba" in english


@pytest.mark.parametrize("game", ["samba", "bolivia"])
def test_the_form_opens_a_samba_or_bolivia_table(game: str) -> None:
    creator = UserFactory.create()
    answer = client_of(creator).post("/tables/new/", form(game=game))
    assert answer.status_code == 302
    rules = Rules.from_options(Game.objects.get().rules)
    assert rules.game == game and rules.target == Rules(game=game).target


def test_the_form_opens_a_classic_table_with_acaba() -> None:
    creator = UserFactory.create()
    assert client_of(creator).post("/tables/new/", form(acaba="on")).status_code == 302
    assert Game.objects.get().rules["acaba"] is True


def test_the_table_page_draws_a_sequence_as_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = started_game(players=seated, rules={"game": "samba"})
    state = game.state
    assert state is not None
    deal = state["deal"]
    team = 0
    deal["melds"][team] = [["H0", "7H5H6H"], ["K1", "KSKHKD"]]
    deal["opened"][team] = True
    Game.objects.filter(pk=game.pk).update(state=state)
    html = client_of(seated[0]).get(f"/games/{game.pk}/").content.decode()
    run = re.search(r'<[^>]*data-kind="sequence"[^>]*>', html)
    assert run is not None and 'data-suit="H"' in run.group(0)
    assert 'data-meld-index="0"' in run.group(0)
    assert re.search(r'data-meld="K"[^>]*data-kind="group"[^>]*data-meld-index="1"', html)
    faces = re.findall(r'<span aria-hidden="true">([^<]+)</span>', html[run.end() :])[:3]
    faces = [face.removesuffix("\ufe0e") for face in faces]  # the text face, never an emoji
    assert faces == ["5♥", "6♥", "7♥"]  # the run low to high, as the view lists it
