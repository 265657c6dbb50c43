"""The table's words for a player (#19, points 2, 7, 8) through Django's test client: each
disabled button's reason from the engine, the opening progress with the way on, a selection
judged per button, card faces without emoji, the confirm-before-discard setting."""

import json
import re

import pytest

from games.models import Game
from tests.engine.decks import build_deck
from tests.factories import UserFactory, stack_deal, started_game
from tests.web.test_pages import client_of

pytestmark = pytest.mark.django_db

# Seat 0 moves first (dealer 3): three kings, three fives, a wild; draws a jack.
DECK = build_deck(
    dealer=3,
    hands={0: ["KS", "KH", "KD", "5S", "5H", "5D", "2C", "9H", "8D", "7C", "6S"]},
    upcards=["4C"],
    stock=["JH"],
)


def reasons(html: str) -> dict[str, str]:
    """Each disabled button's reason (its `title`), by its action."""
    found = {}
    for tag in re.findall(r"<button [^>]*data-action=[^>]*>", html):
        action = re.search(r'data-action="(\w+)"', tag)
        why = re.search(r' title="([^"]*)"', tag) if " disabled" in tag else None
        if action and why:
            found[action.group(1)] = why.group(1)
    return found


def play(client, game: Game, action: dict) -> str:
    game.refresh_from_db()
    answer = client.post(
        f"/games/{game.pk}/move/", {"version": game.version, "action": json.dumps(action)}
    )
    assert answer.status_code == 200, answer.content.decode()[-500:]
    return answer.content.decode()


def test_R_TURN_1_every_disabled_button_says_why_in_the_engines_words() -> None:
    players = UserFactory.create_batch(4)
    game = stack_deal(game=started_game(players=players), deck=DECK, dealer=3)
    waiting = reasons(client_of(players[1]).get(f"/games/{game.pk}/").content.decode())
    assert waiting == dict.fromkeys(
        ("draw", "take_pile", "meld", "undo", "discard"), "Сейчас не ваш ход."
    )
    mover = reasons(client_of(players[0]).get(f"/games/{game.pk}/").content.decode())
    assert "draw" not in mover  # enabled
    assert mover["meld"] == mover["discard"] == "Сначала возьмите карту."
    assert "стопка для неё заморожена" in mover["take_pile"]


def test_R_OPEN_2_below_the_minimum_the_page_shows_the_progress_and_the_ways_on() -> None:
    players = UserFactory.create_batch(4)
    game = stack_deal(game=started_game(players=players), deck=DECK, dealer=3)
    client = client_of(players[0])
    play(client, game, {"type": "draw"})
    play(client, game, {"type": "meld", "melds": [{"cards": ["KS", "KH", "KD"]}]})
    html = play(client, game, {"type": "meld", "melds": [{"cards": ["5S", "5H", "5D"]}]})
    assert 'data-opening="45/50"' in html and 'data-opening-progress="45/50"' in html
    assert "45 из 50" in html and "«Вернуть как было»" in html
    why = reasons(html)["discard"]
    assert "45 очков" in why and "не меньше 50" in why and "хотя бы 5 очков" in why
    # A wild selected: the melds it may join, and the sentence that says to tap one.
    answer = client.post(
        f"/games/{game.pk}/preview/", {"selection": json.dumps({"cards": ["2C"], "groups": []})}
    ).json()
    assert sorted(answer["targets"]) == ["5", "K"]
    assert "Нажмите на комбинацию" in answer["message"]
    assert answer["moves"]["meld"]["legal"] is False
    assert answer["moves"]["discard"]["legal"] is False
    assert "45 очков" in answer["moves"]["discard"]["message"]


def test_a_selection_is_judged_for_each_button_and_a_bad_one_is_refused() -> None:
    players = UserFactory.create_batch(4)
    game = stack_deal(game=started_game(players=players), deck=DECK, dealer=3)
    client = client_of(players[0])
    url = f"/games/{game.pk}/preview/"
    drawing = client.post(url, {"selection": json.dumps({"cards": ["KS"], "groups": []})}).json()
    assert set(drawing["moves"]) == {"take_pile"} and not drawing["moves"]["take_pile"]["legal"]
    play(client, game, {"type": "draw"})
    kings = client.post(url, {"selection": json.dumps({"cards": ["KS", "KH", "KD"]})}).json()
    assert kings["moves"]["meld"]["legal"] and "discard" not in kings["moves"]
    assert "30 очков к минимуму 50" in kings["message"]
    one = client.post(url, {"selection": json.dumps({"cards": ["9H"]})}).json()
    assert one["moves"]["discard"]["legal"] and one["message"] == "Эту карту можно сбросить."
    for bad in ("[]", '{"cards": "KS"}', '{"cards": [1]}', '{"cards": [], "groups": ["KS"]}'):
        assert client.post(url, {"selection": bad}).status_code == 400
    game.refresh_from_db()
    assert game.version == 1  # nothing played


def test_cards_are_real_faces_and_nothing_is_an_emoji() -> None:
    players = [*UserFactory.create_batch(3), UserFactory.create(bot_level="club")]
    game = started_game(players=players)
    html = client_of(players[0]).get(f"/games/{game.pk}/").content.decode()
    assert re.search(r'<img class="card-img" src="/static/web/vendor/playing-cards-0\.5\.0/', html)
    assert '<span class="bot-badge">бот</span>' in html
    assert not re.search("[\U0001f000-\U0001faff]", html)


def test_the_confirm_before_discarding_setting_from_the_profile_to_the_table() -> None:
    user = UserFactory.create(language="ru")
    client = client_of(user)
    assert 'name="confirm_discard"' in client.get("/profile/").content.decode()
    answer = client.post(
        "/profile/",
        {"display_name": "Оля", "email": user.email, "language": "ru", "confirm_discard": "on"},
    )
    assert answer.status_code == 302
    user.refresh_from_db()
    assert user.confirm_discard
    others = UserFactory.create_batch(3)
    by_days = started_game(players=[user, *others])
    html = client_of(user).get(f"/games/{by_days.pk}/").content.decode()
    assert 'data-discard-confirm="true"' in html and "data-confirm-discard" in html
    live = started_game(players=[user, *UserFactory.create_batch(3)], mode=Game.Mode.LIVE)
    assert "data-confirm-discard" not in client_of(user).get(f"/games/{live.pk}/").content.decode()
    # Unticked, the setting is off again.
    client.post("/profile/", {"display_name": "Оля", "email": user.email, "language": "ru"})
    user.refresh_from_db()
    assert not user.confirm_discard
