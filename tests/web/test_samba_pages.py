"""Samba, Bolivia and «Acaba» on the pages (issue 24): the lobby's form offers the games with a
sentence each, opens them, and the table page draws a sequence as a run with its meld index."""

import json
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
    cards = re.findall(r'class="meld-card" data-card="([^"]+)"', html[run.end() :])[:3]
    assert cards == ["5H", "6H", "7H"]  # the run low to high, as the view lists it


def top_card_joins_two_melds(game: Game) -> Game:
    """Seat 0 to draw at a Samba table whose pile (not frozen) shows 7♠, which may join alone
    either of the side's melds: the sevens (index 0) or the run 8♠ 9♠ 10♠ (index 1), not the
    kings (index 2)."""
    state = game.state
    assert state is not None
    deal = state["deal"]
    deal["melds"][0] = [["70", "7C7D7H"], ["S1", "8S9STS"], ["K2", "KSKHKD"]]
    deal["opened"] = [True, True]
    deal["pile"] = "5D9H7S"
    deal["frozen"] = False
    deal["turn"] = 0
    deal["phase"] = "draw"
    # No pair of sevens in the hand: the top card can only join a meld alone.
    deal["hands"][0] = "".join(card for card in _cards(deal["hands"][0]) if card[0] != "7")
    Game.objects.filter(pk=game.pk).update(state=state, turn_seat=0)
    return Game.objects.get(pk=game.pk)


def _cards(codes: str) -> list[str]:
    return [codes[i : i + 2] for i in range(0, len(codes), 2)]


def test_the_table_offers_the_melds_the_top_card_may_join(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = top_card_joins_two_melds(started_game(players=seated, rules={"game": "samba"}))
    html = client_of(seated[0]).get(f"/games/{game.pk}/").content.decode()
    button = re.search(r'<button type="button" data-action="take_pile"[^>]*>', html)
    assert button is not None and 'data-take-melds="0 1"' in button.group(0)
    assert "disabled" not in button.group(0)
    offered = re.findall(r'data-takes-top data-meld="[^"]*" data-team="0"[^>]*index="(\d)"', html)
    assert sorted(offered) == ["0", "1"]
    assert html.count("data-take-here") == 2
    # The partner, not to move, is offered nothing.
    other = client_of(seated[2]).get(f"/games/{game.pk}/").content.decode()
    assert "data-take-melds" not in other and "data-take-here" not in other


def test_a_classic_table_offers_no_meld_to_take_the_pile_onto(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = started_game(players=seated)
    assert game.turn_seat is not None
    html = client_of(seated[game.turn_seat]).get(f"/games/{game.pk}/").content.decode()
    assert "data-take-melds" not in html and "data-takes-top" not in html


def test_the_pile_taken_onto_the_run_is_played_and_logged(monkeypatch: pytest.MonkeyPatch) -> None:
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = top_card_joins_two_melds(started_game(players=seated, rules={"game": "samba"}))
    action = {"type": "take_pile", "cards": [], "meld": 1}
    answer = client_of(seated[0]).post(
        f"/games/{game.pk}/move/", {"version": game.version, "action": json.dumps(action)}
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    assert re.search(r'data-count="4"[^>]*data-kind="sequence"[^>]*data-meld-index="1"', html)
    assert "в последовательность пик" in html  # the log names the run the top card joined
    assert "data-take-here" not in html


def test_a_take_the_engine_refuses_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    fix_shuffles(monkeypatch)
    seated = UserFactory.create_batch(4)
    game = top_card_joins_two_melds(started_game(players=seated, rules={"game": "samba"}))
    action = {"type": "take_pile", "cards": [], "meld": 2}  # the kings: 7♠ does not fit
    answer = client_of(seated[0]).post(
        f"/games/{game.pk}/move/", {"version": game.version, "action": json.dumps(action)}
    )
    assert answer.status_code == 400
    alert = re.search(r"data-alert>([^<]+)<", answer.content.decode())
    assert alert is not None and alert.group(1).strip()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_rules_page_has_samba_and_bolivia_and_the_lobby_links_there(language: str) -> None:
    user = UserFactory.create(language=language)
    rules = client_of(user).get("/rules/").content.decode()
    for anchor in ("samba", "bolivia", "R-SAMBA-PILE", "R-SAMBA-SEQ", "R-BOL-WILD", "R-BOL-OUT"):
        assert f'id="{anchor}"' in rules and f'href="#{anchor}"' in rules
    lobby = client_of(user).get("/").content.decode()
    assert 'href="/rules/#samba"' in lobby and 'href="/rules/#bolivia"' in lobby
