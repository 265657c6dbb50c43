"""Issue 19's points around the table through Django's test client: names that link to cards
(3), the end of a game in the table's fragment and an afterwords form that knows before sending
(4), the rules page and the refusals' links to it (9), and the small things (11): Russian plural
forms, the card's score from its player's side, the replay's names and its ?step=."""

import json
import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from club.i18n import duration, quantity
from games.engine import Match
from games.models import Game
from moderation import selectors as moderation_selectors
from moderation.models import AuthorityChange
from tests.factories import UserFactory, started_game
from tests.games.test_replay import finished_single_deal
from tests.moderation.conftest import make_veteran, over_game

pytestmark = pytest.mark.django_db

RULES_MD = Path(os.environ.get("CANASTA_RULES_MD", "/work/shared/RULES.md"))


def client_of(user: User, language: str = "ru") -> Client:
    User.objects.filter(pk=user.pk).update(language=language)
    client = Client()
    client.force_login(user)
    return client


def visitor(language: str = "ru") -> Client:
    client = Client()
    client.cookies["language"] = language
    return client


def html(answer) -> str:
    return answer.content.decode()


def card_link(user: User) -> str:
    return f'href="/users/{user.pk}/" data-person="{user.pk}">{user}</a>'


# ----------------------------------------------------------------------------- 3. people


def test_every_name_at_a_table_links_to_the_players_card_bots_too():
    players = UserFactory.create_batch(4)
    User.objects.filter(pk=players[3].pk).update(bot_level="club", display_name="Бот Вася")
    players[3].refresh_from_db()
    game = started_game(players=players)
    turn = Match.from_dict(game.state or {}).deal.turn
    mover = client_of(players[turn])
    mover.post(f"/games/{game.pk}/move/", {"version": "0", "action": json.dumps({"type": "draw"})})
    table = html(client_of(players[0]).get(f"/games/{game.pk}/"))
    for player in players[1:]:  # the others' seats (the viewer's own is their hand)
        assert card_link(player) in table, player
    spectator = html(Client().get(f"/games/{game.pk}/"))
    for player in players:
        assert card_link(player) in spectator, player
    # The move log names the mover with a link of its own.
    moves = table[table.index('class="move-list"') :]
    assert card_link(players[turn]) in moves
    # A bot's link leads to a card, not to a 404: its games, and no report form.
    bot_card = client_of(players[0]).get(f"/users/{players[3].pk}/")
    assert bot_card.status_code == 200 and "data-bot-card" in html(bot_card)
    assert "data-report-form" not in html(bot_card)


def test_lobby_rows_link_their_players_outside_the_tables_link():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    lobby = html(client_of(players[0]).get("/"))
    row = lobby[lobby.index(f'href="/games/{game.pk}/"') :]
    row = row[: row.index("</li>")]
    title, rest = row.split("</a>", 1)
    assert "/users/" not in title  # no link inside the table's link
    for player in players:
        assert card_link(player) in rest


def test_a_cards_recent_games_and_the_afterwords_link_their_players():
    players = UserFactory.create_batch(4)
    game = over_game(players)
    client_of(players[0]).post(
        f"/games/{game.pk}/afterwords/", {"to": "table", "text": "Спасибо всем!"}
    )
    card = html(Client().get(f"/users/{players[1].pk}/"))
    recent = card[card.index('id="recent-title"') :]
    for player in players:
        assert card_link(player) in recent
    table = html(client_of(players[2]).get(f"/games/{game.pk}/"))
    afterwords = table[table.index("data-afterwords") :]
    assert card_link(players[0]) in afterwords


def test_report_is_two_links_away_from_a_finished_table():
    game = finished_single_deal()
    players = [seat.user for seat in game.seats.order_by("seat").select_related("user")]
    mine = client_of(players[0])
    table = html(mine.get(f"/games/{game.pk}/"))
    assert card_link(players[1]) in table  # the table: the opponent's name…
    card = html(mine.get(f"/users/{players[1].pk}/"))  # …opens the card: «Пожаловаться»
    assert "data-report-form" in card and "Пожаловаться" in card


# ----------------------------------------------------------------------------- 4. the end of a game


def test_the_after_game_part_comes_with_the_tables_fragment():
    players = UserFactory.create_batch(4)
    game = over_game(players)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE)
    active = html(client_of(players[0]).get(f"/games/{game.pk}/table/"))
    assert "data-after-game" not in active
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    fragment = html(client_of(players[0]).get(f"/games/{game.pk}/table/"))
    assert "data-after-game" in fragment and f"/games/{game.pk}/replay/" in fragment
    assert "data-afterword-form" in fragment
    # Inside the swapped element, and with no per-render token: an unchanged table is unchanged.
    assert fragment.index("data-after-game") < fragment.rindex("</section>")
    assert fragment == html(client_of(players[0]).get(f"/games/{game.pk}/table/"))


def test_no_to_your_partner_when_the_partner_was_a_bot():
    players = UserFactory.create_batch(4)
    User.objects.filter(pk=players[2].pk).update(bot_level="club")
    game = over_game(players)
    page = html(client_of(players[0]).get(f"/games/{game.pk}/"))
    assert 'value="partner"' not in page and "data-bot-partner" in page
    assert 'value="table"' in page


def test_the_form_says_up_front_why_warm_words_will_not_count():
    players = UserFactory.create_batch(4)
    game = over_game(players)
    page = html(client_of(players[0]).get(f"/games/{game.pk}/"))  # a new account
    assert "data-kudos-forecast" in page and "аккаунту нужно хотя бы 7 дней" in page

    veteran = make_veteran(players[0])
    counted = html(client_of(veteran).get(f"/games/{game.pk}/"))
    assert 'value="partner"' in counted and "data-kudos-forecast" not in counted

    with_bot = over_game([veteran, *UserFactory.create_batch(2), players[2]])
    User.objects.filter(pk=with_bot.seats.get(seat=1).user_id).update(bot_level="club")
    page = html(client_of(veteran).get(f"/games/{with_bot.pk}/"))
    assert "В партии играли боты" in page


def test_the_forecast_is_what_the_service_then_records():
    players = UserFactory.create_batch(4)
    for giver in (players[0], make_veteran(UserFactory.create())):
        game = over_game([giver, players[1], players[2], players[3]])
        forecast = moderation_selectors.kudos_forecast(
            game=game, giver=giver, partner_ids=[players[2].pk]
        )[players[2].pk]
        client_of(giver).post(
            f"/games/{game.pk}/afterwords/", {"to": "partner", "text": "Спасибо за игру!"}
        )
        recorded = AuthorityChange.objects.get(giver=giver, afterword__game=game)
        assert recorded.reason == forecast


def test_the_english_form_says_it_in_english():
    players = UserFactory.create_batch(4)
    game = over_game(players)
    page = html(client_of(players[0], "en").get(f"/games/{game.pk}/"))
    assert "an account needs to be at least 7 days old" in page


# ----------------------------------------------------------------------------- 9. the rules page


def rule_ids() -> list[str]:
    if not RULES_MD.exists():
        pytest.skip(f"{RULES_MD} is not on this machine (set CANASTA_RULES_MD)")
    return sorted(set(re.findall(r"\*\*(R-[A-Z]+-\d+)\*\*", RULES_MD.read_text())))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_rule_has_its_anchor_on_the_rules_page(language):
    ids = rule_ids()
    assert len(ids) >= 50
    page = html(visitor(language).get("/rules/"))
    for rule in ids:
        assert f'id="{rule}"' in page, rule
        assert f'href="#{rule}"' in page, rule
    assert page.count('class="rule"') >= len(ids)
    heading = "Частые вопросы" if language == "ru" else "Frequent questions"
    assert heading in page and ('id="tips"' in page)


def test_help_leads_to_the_rules_and_every_page_links_them():
    answer = Client().get("/help/")
    assert answer.status_code == 302 and answer["Location"] == "/rules/"
    welcome = html(Client().get("/"))
    assert welcome.count('href="/rules/"') >= 2  # the header and the welcome
    member = UserFactory.create()
    assert 'href="/rules/"' in html(client_of(member).get("/"))


def test_a_refused_move_links_its_rule():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    match = Match.from_dict(game.state or {})
    turn = match.deal.turn
    refused = client_of(players[turn]).post(
        f"/games/{game.pk}/move/",
        {
            "version": "0",
            "action": json.dumps({"type": "discard", "card": match.deal.hands[turn][0]}),
        },
    )
    assert refused.status_code == 400
    page = html(refused)
    assert 'data-alert-rule="R-TURN-1"' in page and 'href="/rules/#R-TURN-1"' in page
    assert 'id="R-TURN-1"' in html(Client().get("/rules/"))
    preview = client_of(players[turn]).post(
        f"/games/{game.pk}/preview/",
        {"action": json.dumps({"type": "discard", "card": match.deal.hands[turn][0]})},
    )
    assert preview.json()["rule"] == "R-TURN-1"


# ----------------------------------------------------------------------------- 11. small things


@pytest.mark.parametrize(
    ("number", "russian", "english"),
    [
        (1, "1 карта", "1 card"),
        (2, "2 карты", "2 cards"),
        (5, "5 карт", "5 cards"),
        (11, "11 карт", "11 cards"),
        (21, "21 карта", "21 cards"),
        (22, "22 карты", "22 cards"),
        (112, "112 карт", "112 cards"),
    ],
)
def test_a_number_takes_its_nouns_plural_form(number, russian, english, settings):
    forms = (("карта", "карты", "карт"), ("card", "cards"))
    assert quantity(number, *forms) == russian
    from django.utils import translation

    with translation.override("en"):
        assert quantity(number, *forms) == english


def test_durations_in_the_sentences_case():
    assert duration(61) == "1 минута" and duration(61, accusative=True) == "1 минуту"
    assert duration(3 * 3600 + 120) == "3 часа 2 минуты"
    assert duration(86400 + 5 * 3600) == "1 день 5 часов"


def test_the_lobby_says_how_long_in_the_right_form():
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - timedelta(seconds=70),
        turn_deadline=timezone.now() + timedelta(hours=1, minutes=1, seconds=30),
    )
    turn = Match.from_dict(game.state or {}).deal.turn
    mover, waiting = players[turn], players[(turn + 1) % 4]
    lobby = html(client_of(waiting).get("/"))
    assert "уже 1 минуту" in lobby and "с 1 минута" not in lobby
    assert "в запасе 1 час 1 минута" in html(client_of(mover).get("/"))
    table = html(client_of(waiting).get(f"/games/{game.pk}/"))
    assert "11</span> карт<" in table


def test_a_card_reads_the_score_from_its_players_side():
    players = UserFactory.create_batch(4)
    game = over_game(players)
    Game.objects.filter(pk=game.pk).update(winner_team=0, scores=[5100, 1200])
    winner = html(Client().get(f"/users/{players[0].pk}/"))
    loser = html(Client().get(f"/users/{players[1].pk}/"))
    assert "победа · <span data-score>5100 : 1200</span>" in winner
    assert "поражение · <span data-score>1200 : 5100</span>" in loser


def test_the_replay_names_teams_by_their_players_and_links_them():
    game = finished_single_deal()
    seats = {seat.seat: seat.user for seat in game.seats.select_related("user")}
    page = html(Client().get(f"/games/{game.pk}/replay/?step={game.version}"))
    us, them = f"{seats[0]}, {seats[2]}", f"{seats[1]}, {seats[3]}"
    titles = re.findall(r'<h2 class="team-title">(.*?)</h2>', page, re.S)
    names = [re.sub(r"<[^>]+>", "", title).split(" · ")[0] for title in titles]
    assert names == [us, them]  # (then a team's red threes)
    heads = page[page.index('<table class="score-table">') : page.index("</thead>")]
    assert heads.count("data-person") == 4  # the score table's columns, named by their players
    for user in seats.values():
        assert card_link(user) in page
    assert "Команда 1" not in page


@pytest.mark.parametrize(
    ("asked", "shown", "says"),
    [
        ("abc", "0", "«abc» — не номер хода"),
        ("-5", "0", "Ходы считаются с 0"),
        ("999", "last", "Хода 999 нет"),
        ("2", "2", ""),
    ],
)
def test_a_replay_step_that_names_no_move_says_what_is_shown(asked, shown, says):
    game = finished_single_deal()
    page = html(Client().get(f"/games/{game.pk}/replay/?step={asked}"))
    expected = str(game.version) if shown == "last" else shown
    assert f'data-step="{expected}"' in page
    if says:
        assert "data-replay-note" in page and says in page
    else:
        assert "data-replay-note" not in page
