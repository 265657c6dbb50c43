"""The pages around the table through Django's test client: player cards and «Пожаловаться»,
my reports, afterwords, notifications and their settings, the service worker, replays and the
moderators' desk."""

from datetime import timedelta

import pytest
from django.test import Client

from accounts.models import User
from club import clock
from games.models import Game
from moderation.models import Afterword, AuthorityChange, ModerationAuditEntry, Report
from notifications.models import Notification, NotificationSettings
from notifications.services import drain_outbox, notify
from tests.factories import UserFactory
from tests.games.test_replay import finished_single_deal
from tests.moderation.conftest import make_group_moderator, over_game
from tests.timing.conftest import new_user

pytestmark = pytest.mark.django_db


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def html(answer) -> str:
    return answer.content.decode()


@pytest.fixture
def players() -> list[User]:
    return UserFactory.create_batch(4)


def file_report_through_the_page(reporter: User, accused: User, game: Game, **extra):
    body = {"game": game.pk, "reason": "rudeness", "text": "Грубил весь вечер", **extra}
    return client_of(reporter).post(f"/users/{accused.pk}/report/", body)


def test_a_card_shows_authority_explained_and_the_games(players):
    game = over_game(players, winner_team=1, scores=[1200, 5100])
    AuthorityChange.objects.create(
        user=players[1], amount=0, kind="kudos", reason="pair_limit", giver=players[3]
    )
    page = html(Client().get(f"/users/{players[1].pk}/"))
    assert str(players[1]) in page
    assert "data-played>1<" in page and "data-won>1<" in page
    assert "не засчитано: эта пара уже набрала предел за месяц" in page
    # The score from the card's player's side: they won (team 1) with 5100 (#19.11).
    assert f"#{game.pk}" in page and "5100 : 1200" in page
    assert "Пожаловаться" not in page  # a visitor shared no game
    assert Client().get("/users/999999/").status_code == 404


def test_report_from_a_card_is_anonymous_and_its_answer_shows_on_my_reports(players):
    game = over_game(players)
    card = html(client_of(players[0]).get(f"/users/{players[1].pk}/"))
    assert "Пожаловаться" in card and "анонимна" in card and "4 часов" in card
    stranger_card = html(client_of(new_user()).get(f"/users/{players[1].pk}/"))
    assert "data-report-form" not in stranger_card

    answer = file_report_through_the_page(players[0], players[1], game)
    assert answer.status_code == 302 and answer["Location"] == "/reports/mine/?filed=1"
    report = Report.objects.get()
    assert (report.reporter, report.accused, report.reason) == (players[0], players[1], "rudeness")
    mine = html(client_of(players[0]).get("/reports/mine/?filed=1"))
    assert "Ждёт ответа" in mine

    Report.objects.filter(pk=report.pk).update(
        status="resolved", decision="warn", moderator_message="Предупредили игрока."
    )
    assert "Предупредили игрока." in html(client_of(players[0]).get("/reports/mine/"))

    again = file_report_through_the_page(players[0], players[1], game)
    assert again.status_code == 409 and 'role="alert"' in html(again)


def test_the_accused_never_sees_who_reported(players):
    game = over_game(players)
    reporter = players[0]
    reporter.display_name = "Доносчица Зоя"
    reporter.save()
    file_report_through_the_page(reporter, players[1], game)
    report = Report.objects.get()
    Report.objects.filter(pk=report.pk).update(status="resolved", decision="warn")
    AuthorityChange.objects.create(
        user=players[1], amount=-3, kind="report_upheld", reason="sanction", report=report
    )
    notify(user_id=players[1].pk, kind="sanction", payload={"report_id": report.pk})
    drain_outbox()
    accused = client_of(players[1])
    for path in ("/", "/notifications/", "/reports/mine/"):
        assert "Доносчица" not in html(accused.get(path)), path
    card = html(accused.get(f"/users/{players[1].pk}/"))
    # She played the game, so the recent games list her; nothing ties her to the report.
    authority = card[card.index('id="authority-title"') : card.index('id="recent-title"')]
    assert "жалоба подтверждена модератором (предупреждение)" in authority
    assert "Доносчица" not in authority


def test_afterwords_on_a_finished_table_and_a_muted_player_refused(players):
    game = over_game(players)
    table = html(client_of(players[0]).get(f"/games/{game.pk}/"))
    assert "После игры" in table and "Спасибо за игру!" in table and "Повтор партии" in table
    sent = client_of(players[0]).post(
        f"/games/{game.pk}/afterwords/", {"to": "partner", "text": "Спасибо за игру!"}
    )
    assert sent.status_code == 302
    assert Afterword.objects.get().recipient == players[2]
    after = html(client_of(players[0]).get(f"/games/{game.pk}/"))
    assert "Спасибо отправлено, но пока не влияет на Авторитет" in after  # a fresh account

    User.objects.filter(pk=players[1].pk).update(muted_until=clock.now() + timedelta(days=3))
    muted = client_of(players[1])
    refused = muted.post(
        f"/games/{game.pk}/afterwords/", {"to": "table", "text": "Ну и ну"}, follow=True
    )
    assert "Вам временно запрещено писать послесловия." in html(refused)
    assert 'role="alert"' in html(refused)
    assert Afterword.objects.count() == 1


def test_the_lobby_shows_the_clubs_mood(players):
    assert "Настроение клуба" in html(client_of(players[0]).get("/"))


def test_the_bell_counts_unread_and_the_page_marks_them_read(players):
    user = players[0]
    client = client_of(user)
    assert 'data-unread="0"' in html(client.get("/"))
    Notification.objects.create(user=user, kind="kudos_received", key="k1")
    Notification.objects.create(user=user, kind="sanction", key="k2")
    assert 'data-unread="2"' in html(client.get("/"))
    assert client.get("/notifications/unread/").json() == {"unread": 2}
    page = html(client.get("/notifications/"))
    assert "Вам сказали тёплые слова" in page
    one = Notification.objects.get(key="k1")
    client.post("/notifications/", {"id": one.pk})
    assert client.get("/notifications/unread/").json() == {"unread": 1}
    client.post("/notifications/")
    assert client.get("/notifications/unread/").json() == {"unread": 0}


def test_settings_switch_each_kind_per_channel(players):
    user = players[0]
    client = client_of(user)
    page = html(client.get("/notifications/settings/"))
    assert 'name="push:your_turn" checked' in page and "data-push-key=" in page
    body = {
        f"{channel}:{kind}": "on"
        for channel in ("in_app", "email", "push")
        for kind in ("your_turn", "sanction")
    }
    del body["push:your_turn"]
    body["digest"] = "on"
    saved = html(client.post("/notifications/settings/", body))
    assert "Сохранено." in saved
    stored = NotificationSettings.objects.get(user=user)
    assert stored.push["your_turn"] is False and stored.email["your_turn"] is True
    assert stored.in_app["kudos_received"] is False and stored.digest is True


def test_the_service_worker_is_served_from_the_root():
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert b"showNotification" in answer.content and b"openWindow" in answer.content


def test_a_replay_steps_forward_and_back_and_ends_on_the_games_score():
    game = finished_single_deal()
    client = Client()
    start = html(client.get(f"/games/{game.pk}/replay/"))
    assert 'data-step="0"' in start and "карты розданы" in start
    second = html(client.get(f"/games/{game.pk}/replay/?step=2"))
    assert 'data-step="2"' in second and 'href="?step=1"' in second and 'href="?step=3"' in second
    end = html(client.get(f"/games/{game.pk}/replay/?step={game.version}"))
    assert f"{game.scores[0]} : {game.scores[1]}" in end and "data-replay-final" in end
    assert client.get(f"/games/{game.pk}/replay/?step=nope").status_code == 200


def test_no_replay_before_the_end(players):
    game = over_game(players)
    Game.objects.filter(pk=game.pk).update(status="active")
    assert Client().get(f"/games/{game.pk}/replay/").status_code == 404


def test_the_desk_is_for_moderators_only(players):
    assert client_of(players[0]).get("/moderation/").status_code == 404
    assert Client().get("/moderation/").status_code == 302  # to the log-in


def test_a_moderator_claims_sees_evidence_and_mutes(players):
    game = over_game(players)
    rude = Afterword.objects.create(game=game, author=players[1], to="table", text="Вы все неумехи")
    file_report_through_the_page(players[0], players[1], game, afterword=rude.pk)
    report = Report.objects.get()
    moderator = make_group_moderator(new_user())
    desk = client_of(moderator)

    queue = html(desk.get("/moderation/"))
    assert f'data-queue-report="{report.pk}"' in queue and "никто не взял" in queue
    assert "ближе всех к сроку" in queue and 'data-figure="open">1<' in queue
    assert f'data-queue-report="{report.pk}"' not in html(desk.get("/moderation/?overdue=true"))
    assert f'data-queue-report="{report.pk}"' not in html(desk.get("/moderation/?reason=cheating"))

    page = html(desk.get(f"/moderation/reports/{report.pk}/"))
    assert "Вы все неумехи" in page and "Грубил весь вечер" in page
    assert str(players[0]) not in page  # the reporter, without the permission
    assert desk.post(f"/moderation/reports/{report.pk}/", {"action": "claim"}).status_code == 302
    assert "Жалоба у вас." in html(desk.get(f"/moderation/reports/{report.pk}/"))

    no_days = desk.post(
        f"/moderation/reports/{report.pk}/",
        {"action": "resolve", "decision": "mute", "message": "Спасибо, разобрались."},
    )
    assert no_days.status_code == 400 and "Укажите срок в днях." in html(no_days)
    answered = desk.post(
        f"/moderation/reports/{report.pk}/",
        {"action": "resolve", "decision": "mute", "days": 3, "message": "Спасибо, разобрались."},
    )
    assert answered.status_code == 302
    players[1].refresh_from_db()
    assert players[1].muted_until is not None
    assert "Спасибо, разобрались." in html(client_of(players[0]).get("/reports/mine/"))


def test_the_reporter_is_shown_only_behind_the_permission_and_audited(players):
    game = over_game(players)
    file_report_through_the_page(players[0], players[1], game)
    report = Report.objects.get()
    plain = client_of(make_group_moderator(new_user()))
    assert plain.post(f"/moderation/reports/{report.pk}/", {"action": "reveal"}).status_code == 400
    revealer = make_group_moderator(new_user(), reporter_identity=True)
    shown = html(
        client_of(revealer).post(f"/moderation/reports/{report.pk}/", {"action": "reveal"})
    )
    assert "data-reporter" in shown and str(players[0]) in shown
    assert (
        ModerationAuditEntry.objects.filter(action="view_reporter", moderator=revealer).count() == 1
    )


def test_a_moderator_never_sees_a_report_about_a_game_they_played(players):
    game = over_game(players)
    file_report_through_the_page(players[0], players[1], game)
    report = Report.objects.get()
    conflicted = client_of(make_group_moderator(players[3]))
    assert f'data-queue-report="{report.pk}"' not in html(conflicted.get("/moderation/"))
    assert conflicted.get(f"/moderation/reports/{report.pk}/").status_code == 404


def test_notify_reaches_the_bell(players):
    notify(user_id=players[0].pk, kind="sanction", dedupe_key="bell")
    drain_outbox()
    assert client_of(players[0]).get("/notifications/unread/").json() == {"unread": 1}


def test_a_bots_card_offers_no_report(players):
    over_game(players)
    User.objects.filter(pk=players[1].pk).update(bot_level="club")
    assert "data-report-form" not in html(client_of(players[0]).get(f"/users/{players[1].pk}/"))
