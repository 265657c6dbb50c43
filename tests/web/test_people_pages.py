"""Issue 37's pages through Django's test client: following and blocking from a card, the people
one follows, the profile's blocked list, inviting from the lobby, answering an invitation (the
lobby, the bell's page, the table), the table's phrases and «Сыграть ещё»."""

import pytest
from django.test import Client

from accounts.models import User
from club import clock
from games import services as game_services
from games.models import Game, Invitation, Rematch, TablePhrase
from notifications.services import drain_outbox
from social import services as social_services
from social.models import Block, Follow
from tests.factories import UserFactory, started_game
from tests.games.test_rematch import over_game
from tests.timing.conftest import play_turn

pytestmark = pytest.mark.django_db


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def html(answer) -> str:
    return answer.content.decode()


def open_table(user: User, invite: list[int], **fields: object) -> Game:
    return game_services.open_table(
        user=user,
        mode=str(fields.get("mode", "async")),
        length="deal",
        rules={},
        private=bool(fields.get("private", False)),
        invite=invite,
    )


# ----------------------------------------------------------------------------- follow and block


def test_follow_and_unfollow_from_the_card() -> None:
    anna, boris = UserFactory.create_batch(2)
    User.objects.filter(pk=boris.pk).update(last_seen_at=clock.now())
    client = client_of(anna)
    card = html(client.get(f"/users/{boris.pk}/"))
    assert 'data-following="false"' in card and "Подписаться" in card
    assert "data-online" in card
    answer = client.post(f"/users/{boris.pk}/follow/", {"action": "follow"}, follow=True)
    assert Follow.objects.filter(follower=anna, followed=boris).exists()
    page = html(answer)
    assert 'data-following="true"' in page and "data-message" in page
    client.post(f"/users/{boris.pk}/follow/", {"action": "unfollow"})
    assert not Follow.objects.exists()


def test_the_own_card_and_a_bots_card_offer_no_follow() -> None:
    anna = UserFactory.create()
    bot = UserFactory.create(bot_level="club")
    client = client_of(anna)
    assert "data-relation" not in html(client.get(f"/users/{anna.pk}/"))
    assert "data-relation" not in html(client.get(f"/users/{bot.pk}/"))


def test_the_following_page_shows_who_is_here_and_who_waits() -> None:
    anna, boris, vera = UserFactory.create_batch(3)
    social_services.follow(user=anna, player_id=boris.pk)
    social_services.follow(user=anna, player_id=vera.pk)
    User.objects.filter(pk=boris.pk).update(last_seen_at=clock.now())
    table = open_table(boris, [])
    page = html(client_of(anna).get("/following/"))
    assert f'data-followed="{boris.pk}" data-online="true"' in page
    assert f'data-followed="{vera.pk}" data-online="false"' in page
    assert f'data-waiting-game="{table.pk}"' in page
    # «None of them is here» only when none is.
    assert "Сейчас в клубе никого из них нет." not in page
    User.objects.filter(pk=boris.pk).update(last_seen_at=None)
    assert "Сейчас в клубе никого из них нет." in html(client_of(anna).get("/following/"))
    client_of(anna).post(f"/users/{vera.pk}/follow/", {"action": "unfollow", "next": "/following/"})
    assert f'data-followed="{vera.pk}"' not in html(client_of(anna).get("/following/"))


def test_block_from_the_card_and_unblock_from_the_profile() -> None:
    anna, boris = UserFactory.create_batch(2)
    client = client_of(anna)
    client.post(f"/users/{boris.pk}/block/", {"action": "block"})
    assert Block.objects.filter(blocker=anna, blocked=boris).exists()
    assert 'data-blocked="true"' in html(client.get(f"/users/{boris.pk}/"))
    profile = html(client.get("/profile/"))
    assert f'data-blocked="{boris.pk}"' in profile
    back = client.post(f"/users/{boris.pk}/block/", {"action": "unblock", "next": "/profile/"})
    assert back.headers["Location"] == "/profile/"
    assert not Block.objects.exists()


def test_the_profile_mutes_the_table_phrases() -> None:
    anna = UserFactory.create()
    client = client_of(anna)
    client.post(
        "/profile/",
        {
            "display_name": "Анна",
            "email": anna.email,
            "language": "ru",
            "phrases_muted": "on",
        },
    )
    assert User.objects.get(pk=anna.pk).phrases_muted


# ----------------------------------------------------------------------------- invitations


def test_the_lobby_invites_people_followed_and_by_name() -> None:
    anna, boris, vera = UserFactory.create_batch(3)
    social_services.follow(user=anna, player_id=boris.pk)
    client = client_of(anna)
    lobby = html(client.get("/"))
    assert f'name="invite" value="{boris.pk}"' in lobby
    form: dict[str, str | list[str]] = {"mode": "async", "length": "deal", "seat": "0"}
    form |= {"wild_limit": "strict", "stock_out": "club", "tie": "draw"}
    form["invite"] = [str(boris.pk)]
    unknown = client.post("/tables/new/", {**form, "invite_names": "nobody-here"})
    assert unknown.status_code == 400 and "nobody-here" in html(unknown)
    assert not Game.objects.exists()
    opened = client.post("/tables/new/", {**form, "invite_names": f" {vera.username.upper()}"})
    game = Game.objects.get()
    assert opened.headers["Location"] == f"/games/{game.pk}/"
    assert dict(Invitation.objects.values_list("invitee_id", "seat")) == {boris.pk: 2, vera.pk: 1}


def test_an_invitee_answers_from_the_lobby_and_the_bell() -> None:
    anna, boris = UserFactory.create_batch(2)
    game = open_table(anna, [boris.pk])
    invitation = Invitation.objects.get()
    lobby = html(client_of(boris).get("/"))
    assert f'data-invitation="{invitation.pk}"' in lobby and "Принять" in lobby
    drain_outbox()
    bell = html(client_of(boris).get("/notifications/"))
    assert f"/invitations/{invitation.pk}/accept/" in bell
    accepted = client_of(boris).post(f"/invitations/{invitation.pk}/accept/")
    assert accepted.headers["Location"] == f"/games/{game.pk}/"
    assert game.seats.filter(user=boris, seat=2).exists()
    assert f"/invitations/{invitation.pk}/accept/" not in html(
        client_of(boris).get("/notifications/")
    )


def test_a_declined_invitation_opens_the_seat() -> None:
    anna, boris = UserFactory.create_batch(2)
    game = open_table(anna, [boris.pk])
    invitation = Invitation.objects.get()
    back = client_of(boris).post(f"/invitations/{invitation.pk}/decline/", {"next": "/"})
    assert back.headers["Location"] == "/"
    assert Invitation.objects.get().status == "declined"
    assert 'value="2"' in html(client_of(UserFactory.create()).get(f"/games/{game.pk}/"))


def test_the_waiting_table_shows_the_kept_seats() -> None:
    anna, boris, vera = UserFactory.create_batch(3)
    game = open_table(anna, [boris.pk], private=True)
    invitation = Invitation.objects.get()
    # The invitee sees the private table, and their seat with «Принять».
    theirs = html(client_of(boris).get(f"/games/{game.pk}/"))
    assert 'data-kept-seat="2"' in theirs and "data-accept-invitation" in theirs
    assert 'name="seat" value="2"' in theirs
    # The inviter may withdraw it; a stranger is offered the other seats only.
    assert "data-withdraw-invitation" in html(client_of(anna).get(f"/games/{game.pk}/"))
    public = open_table(vera, [boris.pk])
    stranger = html(client_of(UserFactory.create()).get(f"/games/{public.pk}/"))
    assert 'name="seat" value="2"' not in stranger and 'name="seat" value="1"' in stranger
    client_of(anna).post(f"/invitations/{invitation.pk}/withdraw/")
    assert Invitation.objects.get(pk=invitation.pk).status == "withdrawn"


# ----------------------------------------------------------------------------- table phrases


def test_a_phrase_from_the_page_and_its_refusal() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    client = client_of(players[1])
    fetched = {"X-Requested-With": "fetch"}
    said = client.post(f"/games/{game.pk}/phrases/", {"phrase": "good_luck"}, headers=fetched)
    assert said.status_code == 204
    too_soon = client.post(f"/games/{game.pk}/phrases/", {"phrase": "thanks"}, headers=fetched)
    assert too_soon.status_code == 429 and "через" in too_soon.json()["message"]
    unknown = client.post(f"/games/{game.pk}/phrases/", {"phrase": "psst"}, headers=fetched)
    assert unknown.status_code == 400
    assert TablePhrase.objects.count() == 1


def test_the_table_shows_a_phrase_by_its_seat_and_in_the_log() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    before = client_of(players[0]).get(f"/games/{game.pk}/table/")
    game_services.say_phrase(game_id=game.pk, user=players[1], phrase="good_luck")
    fragment = client_of(players[0]).get(
        f"/games/{game.pk}/table/", HTTP_IF_NONE_MATCH=before.headers["ETag"]
    )
    assert fragment.status_code == 200  # said without a move, yet the table changed
    table = html(fragment)
    seat = table[table.index('data-seat="1"') :]
    assert seat.index('data-said="good_luck"') < seat.index("</div>")
    assert 'data-strip-phrase="good_luck"' in table and "Удачи!" in table
    # Muted: the others' phrases are not shown.
    client_of(players[0]).post(f"/games/{game.pk}/phrases/mute/", {"muted": "1"})
    muted = html(client_of(User.objects.get(pk=players[0].pk)).get(f"/games/{game.pk}/table/"))
    assert 'data-said="good_luck"' not in muted and "data-strip-phrase" not in muted
    assert 'data-mute-phrases="true"' in muted


def test_a_phrase_said_after_a_move_is_in_the_log_after_it() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    play_turn(game.pk)
    game.refresh_from_db()
    speaker = players[(game.turn_seat or 0)]
    game_services.say_phrase(game_id=game.pk, user=speaker, phrase="sorry")
    table = html(client_of(players[0]).get(f"/games/{game.pk}/"))
    log = table[table.index("data-move-log") :]
    assert log.index('data-log-phrase="sorry"') < log.index("move-turn")


# ----------------------------------------------------------------------------- rematch


def test_play_again_lands_on_the_rematch() -> None:
    players = UserFactory.create_batch(6)
    old = over_game(players)
    client = client_of(players[2])
    # (The button itself, in the result panel of a game played out: tests/web/test_rhythm_pages.)
    answer = client.post(f"/games/{old.pk}/rematch/")
    new = Rematch.objects.get(of_game=old).game
    assert answer.headers["Location"] == f"/games/{new.pk}/"
    assert f'data-rematch-table="{new.pk}"' in html(client_of(players[4]).get(f"/games/{old.pk}/"))
    client_of(players[4]).post(f"/games/{old.pk}/rematch/")
    assert new.seats.filter(user=players[4], seat=4).exists()


def test_play_again_on_a_running_game_says_why_not() -> None:
    players = UserFactory.create_batch(4)
    game = started_game(players=players)
    refused = client_of(players[0]).post(f"/games/{game.pk}/rematch/")
    assert refused.status_code == 409 and "Партия ещё идёт" in html(refused)


def test_the_following_page_shows_a_hundred_a_page_those_here_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from web.people import shaping

    monkeypatch.setattr(shaping, "PEOPLE_PER_PAGE", 2)
    anna = UserFactory.create()
    others = [UserFactory.create(display_name=name) for name in ("Борис", "Вера", "Глеб")]
    for other in others:
        social_services.follow(user=anna, player_id=other.pk)
    User.objects.filter(pk=others[2].pk).update(last_seen_at=clock.now())
    first = html(client_of(anna).get("/following/"))
    assert first.index(f'data-followed="{others[2].pk}"') < first.index(
        f'data-followed="{others[0].pk}"'
    )
    assert f'data-followed="{others[1].pk}"' not in first and 'rel="next"' in first
    second = html(client_of(anna).get("/following/?page=2"))
    assert f'data-followed="{others[1].pk}"' in second


def test_the_pages_speak_english_on_request() -> None:
    anna, boris = UserFactory.create_batch(2)
    User.objects.filter(pk=anna.pk).update(language="en")
    social_services.follow(user=anna, player_id=boris.pk)
    game = open_table(anna, [boris.pk])
    client = client_of(User.objects.get(pk=anna.pk))
    assert "Unfollow" in html(client.get(f"/users/{boris.pk}/"))
    assert "People I follow" in html(client.get("/following/"))
    assert "withdraw the invitation" in html(client.get(f"/games/{game.pk}/"))
    assert "Hide the other players" in html(client.get("/profile/"))
    User.objects.filter(pk=boris.pk).update(language="en")
    lobby = html(client_of(User.objects.get(pk=boris.pk)).get("/"))
    assert "You are invited" in lobby and "Accept" in lobby
