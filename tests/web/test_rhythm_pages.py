"""The table's rhythm (issue 35) through the pages, server side: «Играть с ботами», «Дальше»,
the pace and the bots' level, a seat handed to a bot, «Сыграть ещё», sign-up's way to the
bots, what each person is shown (the deal's score, the turns played for them, the result),
bots named in the page's language and numbers written one way per language."""

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from club.i18n import grouped
from games import services
from games.models import Abandonment, Game, Seat
from tests.factories import DEFAULT_PASSWORD, UserFactory, started_game
from tests.games.test_rhythm import bots_play_round_to, end_the_deal, last_card_in_stock, seat_row
from tests.timing.conftest import turn_of, user_at

pytestmark = pytest.mark.django_db

FETCH = {"X-Requested-With": "fetch"}


def client_of(user: User, language: str = "ru") -> Client:
    User.objects.filter(pk=user.pk).update(language=language)
    client = Client()
    client.force_login(user)
    return client


def page(client: Client, game: Game) -> str:
    answer = client.get(f"/games/{game.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_lobbys_button_starts_a_live_game_with_three_club_bots():
    user = UserFactory.create()
    client = client_of(user)
    lobby = client.get("/").content.decode()
    assert 'action="/play/"' in lobby and "Играть с ботами" in lobby

    answer = client.post("/play/")

    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    assert (game.mode, game.status) == ("live", "active")
    assert [seat.user.bot_level for seat in Seat.objects.filter(game=game)[1:]] == ["club"] * 3


def test_the_short_step_picks_the_pace_and_the_level():
    client = client_of(UserFactory.create())
    assert client.get("/play/").status_code == 200
    client.post("/play/", {"mode": "async", "level": "beginner"})
    game = Game.objects.get()
    assert game.mode == "async"
    assert Seat.objects.filter(game=game, user__bot_level="beginner").count() == 3
    assert client.post("/play/", {"level": "grandmaster"}).status_code == 400


def test_sign_up_from_the_welcome_leads_to_the_bots_step_and_nowhere_else():
    welcome = Client().get("/").content.decode()
    assert 'href="/signup/?next=/play/"' in welcome
    fields = {"username": "newcomer", "email": "n@example.com", "password": DEFAULT_PASSWORD}
    answer = Client().post("/signup/?next=/play/", {**fields, "next": "/play/"})
    assert answer.status_code == 302 and answer["Location"] == "/play/"
    elsewhere = Client().post(
        "/signup/",
        {**fields, "username": "other", "email": "o@example.com", "next": "https://evil.example/"},
    )
    assert elsewhere["Location"] == "/"


def test_continue_closes_the_score_for_that_person_only_and_answers_the_fragment():
    players = UserFactory.create_batch(4)
    game = end_the_deal(started_game(players=players, mode="live", length="match"))
    mover = turn_of(game)
    reader = next(seat for seat in range(4) if seat != mover)
    client = client_of(players[reader])
    assert 'data-deal-summary="1"' in page(client, game)
    deal_break = re.search(r"data-deal-break.*?</p>", page(client, game), re.S)
    assert deal_break is not None
    # The others still reading are named, not the reader themself.
    for seat in range(4):
        named = f">{players[seat].display_name}<" in deal_break[0]
        assert named == (seat != reader)

    answer = client.post(f"/games/{game.pk}/continue/", headers=FETCH)

    assert answer.status_code == 200
    body = answer.content.decode()
    assert body.lstrip().startswith("<section") and "data-deal-summary" not in body
    assert seat_row(game, reader).deal_seen == 1
    others = [seat for seat in range(4) if seat not in (reader, mover)]
    assert 'data-deal-summary="1"' in page(client_of(players[others[0]]), game)
    # Without the table's script: back to the table page.
    assert client.post(f"/games/{game.pk}/continue/")["Location"] == f"/games/{game.pk}/"


def test_after_continue_the_break_says_who_is_still_reading_until_the_next_deal():
    players = UserFactory.create_batch(4)
    game = end_the_deal(started_game(players=players, mode="live", length="match"))
    clients = [client_of(player, "en") for player in players]
    order = [seat for seat in range(4) if seat != turn_of(game)] + [turn_of(game)]
    for closed, seat in enumerate(order[:-1]):
        body = clients[seat].post(f"/games/{game.pk}/continue/", headers=FETCH).content.decode()
        waiting = re.search(r'data-deal-waiting="1".*?</div>', body, re.S)
        assert waiting is not None and "Still reading the deal’s score" in waiting[0]
        still = order[closed + 1 :]
        for other in range(4):
            named = f">{players[other].display_name}<" in waiting[0]
            assert named == (other in still), (other, still)
    # The last one closes it: the break ends, nobody waits any more.
    clients[order[-1]].post(f"/games/{game.pk}/continue/", headers=FETCH)
    game.refresh_from_db()
    assert game.deal_break_until is None
    assert all("data-deal-waiting" not in page(client, game) for client in clients)


def test_the_score_shows_every_sides_parts_and_the_match_score():
    players = UserFactory.create_batch(4)
    game = end_the_deal(started_game(players=players, length="match"))
    html = page(client_of(players[0], "en"), game)
    summary = html[html.index("data-deal-summary") :]
    for part in ("Melds", "Canastas", "Red threes", "Going out", "Left in hand", "This deal"):
        assert part in summary
    record = game.deal_records.get()
    for team, line in enumerate(record.result):
        assert f'data-deal-total="{team}">{grouped(line["total"], "en")}<' in summary
        assert f'data-match-score="{team}">{grouped(record.scores_after[team], "en")}<' in summary


def test_the_turns_played_for_a_player_are_told_to_them_alone():
    from club import clock
    from games.services import timeouts
    from tests.timing.conftest import play_turn

    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    culprit = turn_of(game)
    clock.advance(settings.TURN_LIMIT["async"] + timedelta(seconds=1))
    assert timeouts.sweep() == 1
    own = page(client_of(players[culprit]), game)
    assert "data-autoplayed" in own and "клуб сыграл за вас" in own
    assert "data-autoplayed-offer" not in own  # correspondence: no live way on
    other = page(client_of(players[(culprit + 1) % 4]), game)
    assert "data-autoplayed" not in other
    game.refresh_from_db()
    while turn_of(game) != culprit:
        play_turn(game.pk)
        game.refresh_from_db()
    play_turn(game.pk)
    assert "data-autoplayed" not in page(client_of(players[culprit]), game)


def test_the_ways_on_are_offered_on_a_players_first_live_timeout_only():
    from club import clock
    from games.services import timeouts
    from tests.timing.conftest import play_turn

    players = UserFactory.create_batch(4)
    game = started_game(players=players, mode=Game.Mode.LIVE, length=Game.Length.MATCH)
    culprit = turn_of(game)
    client = client_of(players[culprit], "en")

    def times_out() -> str:
        game.refresh_from_db()
        while turn_of(game) != culprit:
            play_turn(game.pk)
            game.refresh_from_db()
        clock.advance(settings.TURN_LIMIT["live"] + timedelta(seconds=1))
        Seat.objects.filter(game=game).update(last_seen_at=clock.now())
        assert timeouts.sweep() == 1
        return page(client, game)

    first = times_out()
    assert "data-autoplayed-offer" in first and "Hand my seat to a bot" in first
    game.refresh_from_db()
    while turn_of(game) != culprit:
        play_turn(game.pk)
        game.refresh_from_db()
    play_turn(game.pk)  # the player moves: the note goes
    assert "data-autoplayed=" not in page(client, game)
    again = times_out()
    assert "data-autoplayed=" in again and "data-autoplayed-offer" not in again


def test_the_pace_and_the_level_change_from_the_table():
    user = UserFactory.create()
    game = services.play_with_bots(user=user)
    client = client_of(user, "en")
    table = page(client, game)
    assert "data-table-settings" in table and "Club bot 1" in table and "Бот" not in table

    changed = client.post(f"/games/{game.pk}/bots/level/", {"level": "expert"}, headers=FETCH)
    assert changed.status_code == 200 and "Expert bot 1" in changed.content.decode()
    refused = client.post(f"/games/{game.pk}/bots/level/", {"level": "nope"}, headers=FETCH)
    assert refused.status_code == 400
    assert re.search(r'role="alert"[^>]*>A bot\S+ level is beginner', refused.content.decode())
    client.post(f"/games/{game.pk}/pace/", {"mode": "async"})
    game.refresh_from_db()
    assert game.mode == "async"


def test_a_seat_handed_to_a_bot_leads_to_the_lobby():
    players = UserFactory.create_batch(4)
    game = started_game(players=players, mode="live", length="match")
    answer = client_of(players[2]).post(f"/games/{game.pk}/hand-to-bot/")
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert Abandonment.objects.filter(game=game, user=players[2]).exists()
    assert seat_row(game, 2).user.is_bot


def ended(players: list[User], **options: object) -> Game:
    game = started_game(players=players, **options)  # type: ignore[arg-type]
    last_card_in_stock(game)
    game.refresh_from_db()
    services.make_move(
        game_id=game.pk, user=user_at(game, turn_of(game)), version=game.version,
        action={"type": "draw"},
    )  # fmt: skip
    game.refresh_from_db()
    assert game.is_over
    return game


def test_the_result_tells_each_player_their_outcome():
    players = UserFactory.create_batch(4)
    game = ended(players)
    for seat, player in enumerate(players):
        html = page(client_of(player, "en"), game)
        team = Seat.objects.get(game=game, seat=seat).team
        outcome = (
            "draw" if game.winner_team is None else "won" if game.winner_team == team else "lost"
        )
        assert f'data-result="{outcome}"' in html
        assert {"won": "You won", "lost": "You lost", "draw": "Draw"}[outcome] in html
        assert f'action="/games/{game.pk}/rematch/"' in html and "Play again" in html
    spectator = Client().get(f"/games/{game.pk}/").content.decode()
    assert 'data-result="over"' in spectator and "rematch" not in spectator


def test_play_again_opens_the_same_table_and_with_bots_starts_it():
    players = UserFactory.create_batch(4)
    game = ended(players, rules={"wild_limit": "half"})
    answer = client_of(players[1]).post(f"/games/{game.pk}/rematch/")
    new = Game.objects.exclude(pk=game.pk).get()
    assert answer["Location"] == f"/games/{new.pk}/"
    assert (new.mode, new.length, new.rules, new.status) == (
        game.mode, game.length, game.rules, "waiting",
    )  # fmt: skip
    assert [(seat.seat, seat.user) for seat in Seat.objects.filter(game=new)] == [(1, players[1])]
    # Somebody who did not play it: refused (the game is public, so it says why).
    assert client_of(UserFactory.create()).post(f"/games/{game.pk}/rematch/").status_code == 403

    user = UserFactory.create()
    with_bots = services.play_with_bots(user=user, length="deal", level="beginner")
    with_bots = bots_play_round_to(with_bots, 0)
    last_card_in_stock(with_bots)
    with_bots.refresh_from_db()
    services.make_move(
        game_id=with_bots.pk, user=user, version=with_bots.version, action={"type": "draw"}
    )
    client_of(user).post(f"/games/{with_bots.pk}/rematch/")
    again = Game.objects.latest("pk")
    assert again.status == "active" and again.mode == "live"
    assert Seat.objects.filter(game=again, user__bot_level="beginner").count() == 3


def test_numbers_are_written_one_way_per_language():
    assert (grouped(2500, "en"), grouped(10_000, "en"), grouped(-195, "en")) == (
        "2,500", "10,000", "\u2212195",
    )  # fmt: skip
    assert (grouped(2500, "ru"), grouped(10_000, "ru")) == ("2500", "10\u00a0000")
    players = UserFactory.create_batch(4)
    game = started_game(players=players, length="match", rules={"target": 10_000})
    assert "match to 10,000" in page(client_of(players[0], "en"), game)
    assert "партия до 10\u00a0000" in page(client_of(players[0]), game)
