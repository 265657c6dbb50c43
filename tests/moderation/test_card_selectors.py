"""The reads the pages add: the overdue filter, a card's Authority changes and finished games,
and the afterwords a report may cite."""

from datetime import timedelta

import pytest

from accounts.models import User
from club import clock
from games import selectors as game_selectors
from games.models import Game
from moderation import selectors
from moderation.models import Afterword, AuthorityChange, Report
from tests.factories import UserFactory
from tests.moderation.conftest import client_for, file_report, over_game

pytestmark = pytest.mark.django_db


def test_the_overdue_filter_keeps_only_open_reports_past_their_due_time(players, moderator):
    first, second = over_game(players), over_game(players)
    assert file_report(players[0], first, players[1]).status_code == 201
    assert file_report(players[0], second, players[1]).status_code == 201
    late = Report.objects.get(game=first)
    Report.objects.filter(pk=late.pk).update(due_at=clock.now() - timedelta(minutes=1))
    answer = client_for(moderator).get("/api/moderation/reports/?overdue=true")
    assert [row["id"] for row in answer.json()["results"]] == [late.pk]
    everything = client_for(moderator).get("/api/moderation/reports/")
    assert len(everything.json()["results"]) == 2


def test_recent_finished_games_say_whether_the_players_team_won(players):
    won = over_game(players)
    Game.objects.filter(pk=won.pk).update(winner_team=0, scores=[5100, 3200])
    lost = over_game(players, finished_at=clock.now() - timedelta(days=1))
    Game.objects.filter(pk=lost.pk).update(winner_team=1)
    over_game(UserFactory.create_batch(4))  # somebody else's
    rows = game_selectors.player_record(user=players[0], recent_games=10).recent_games
    assert [(row["id"], row["won"]) for row in rows] == [(won.pk, True), (lost.pk, False)]
    assert rows[0]["scores"] == [5100, 3200]
    assert [
        row["won"]
        for row in game_selectors.player_record(user=players[1], recent_games=1).recent_games
    ] == [False]


def test_a_report_may_cite_only_afterwords_the_reporter_could_read(players):
    game = over_game(players)
    to_table = Afterword.objects.create(game=game, author=players[1], to="table", text="Ну и игра")
    Afterword.objects.create(
        game=game, author=players[1], to="partner", recipient=players[3], text="Молодец"
    )
    targets = selectors.report_targets(reporter=players[0], accused=players[1], limit=5)
    assert [game.pk for game in targets.games] == [game.pk]
    assert [afterword.pk for afterword in targets.afterwords] == [to_table.pk]
    partner = selectors.report_targets(reporter=players[3], accused=players[1], limit=5)
    assert len(partner.afterwords) == 2  # the partner may cite the one to them too
    stranger = selectors.report_targets(reporter=players[0], accused=UserFactory.create(), limit=5)
    assert stranger.games == [] and stranger.afterwords == []


def test_report_targets_are_the_latest_shared_games_each_with_all_its_afterwords(players):
    games = [
        over_game(players, finished_at=clock.now() - timedelta(hours=hours)) for hours in range(4)
    ]
    for game in games:
        Afterword.objects.create(game=game, author=players[1], to="table", text="Ну и игра")
        Afterword.objects.create(
            game=game, author=players[1], to="partner", recipient=players[3], text="Молодец"
        )
    targets = selectors.report_targets(reporter=players[3], accused=players[1], limit=3)
    assert [game.pk for game in targets.games] == [game.pk for game in games[:3]]
    assert sorted(afterword.game_id for afterword in targets.afterwords) == sorted(
        2 * [game.pk for game in games[:3]]
    )


def test_authority_changes_newest_first(players):
    user: User = players[0]
    AuthorityChange.objects.create(user=user, amount=1, kind="kudos", reason="counted")
    AuthorityChange.objects.create(user=user, amount=0, kind="kudos", reason="pair_limit")
    changes = selectors.authority_changes_of(user=user, limit=1)
    assert [change.reason for change in changes] == ["pair_limit"]


def test_a_cards_recent_games_are_read_once_until_a_game_of_the_player_ends(
    players, django_assert_num_queries
):
    first = over_game(players)
    player = User.objects.get(pk=players[0].pk)
    assert [
        row["id"] for row in game_selectors.player_record(user=player, recent_games=5).recent_games
    ] == [first.pk]
    with django_assert_num_queries(0):
        game_selectors.player_record(user=player, recent_games=5)
    second = over_game(players)
    player = User.objects.get(pk=players[0].pk)  # as the next request loads it
    rows = game_selectors.player_record(user=player, recent_games=5).recent_games
    assert [row["id"] for row in rows] == [second.pk, first.pk]
