"""Issue 37 in the browser at 390 px: following a player from their card and finding them in
«Подписки» (online, waiting at a table), blocking and unblocking; an invitation sent from the
lobby's form and accepted from the invitee's lobby; a table phrase reaching the other player's
open table within a second through the live stream, and its rate limit said; «Сыграть ещё».
axe finds nothing serious; screenshots go to var/test-artifacts/look/."""

import time

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from club import clock
from games import services as game_services
from games.models import Game, Invitation, Rematch, TablePhrase
from social.models import Block, Follow
from tests.factories import UserFactory, started_game
from tests.games.test_replay import finished_single_deal
from tests.web.browser.conftest import Players, horizontal_overflow, serious_violations, shoot
from tests.web.browser.test_around_the_table import log_in
from tests.web.browser.test_people_and_rules import named, seated

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def phone(players: Players, user: User) -> Page:
    page = players.new_page(width=390, height=844)
    log_in(page, user)
    return page


def looks_right(page: Page, name: str) -> None:
    assert serious_violations(page) == []
    assert horizontal_overflow(page) == 0
    shoot(page, name)


def test_follow_from_the_card_then_block_and_unblock(players: Players) -> None:
    anna, boris = named(UserFactory.create_batch(4))[:2]
    User.objects.filter(pk=boris.pk).update(last_seen_at=clock.now())
    waiting = game_services.open_table(
        user=boris, mode="async", length="deal", rules={}, private=False
    )
    page = phone(players, anna)
    page.goto(f"/users/{boris.pk}/")
    expect(page.locator("[data-online]")).to_be_visible()
    page.get_by_role("button", name="Подписаться").click()
    expect(page.locator("[data-relation]")).to_have_attribute("data-following", "true")
    looks_right(page, "card-following-390")
    page.get_by_role("link", name="Мои подписки").click()
    row = page.locator(f'[data-followed="{boris.pk}"]')
    expect(row).to_have_attribute("data-online", "true")
    expect(row.locator(f'[data-waiting-game="{waiting.pk}"]')).to_be_visible()
    looks_right(page, "following-390")
    assert Follow.objects.filter(follower=anna, followed=boris).exists()

    row.locator("a[data-person]").click()
    page.get_by_text("Заблокировать…").click()
    page.get_by_role("button", name="Заблокировать", exact=True).click()
    expect(page.locator("[data-relation]")).to_have_attribute("data-blocked", "true")
    assert Block.objects.filter(blocker=anna, blocked=boris).exists()
    looks_right(page, "card-blocked-390")
    page.goto("/profile/")
    blocked = page.locator(f'[data-blocked="{boris.pk}"]')
    expect(blocked).to_be_visible()
    looks_right(page, "profile-blocked-390")
    blocked.get_by_role("button", name="Разблокировать").click()
    expect(page.locator("[data-blocked-list]")).to_have_count(0)
    assert not Block.objects.exists()


def test_an_invitation_from_the_lobby_is_accepted_from_the_invitees_lobby(
    players: Players,
) -> None:
    anna, boris = named(UserFactory.create_batch(4))[:2]
    Follow.objects.create(follower=anna, followed=boris)
    mine = phone(players, anna)
    mine.locator("[data-invite-more] summary").click()  # folded, as the house rules are
    invite = mine.locator("[data-invite]")
    invite.get_by_label(str(boris)).check()
    mine.locator("[data-open-table]").get_by_role("button", name="Открыть стол").click()
    game = Game.objects.get()
    mine.wait_for_url(f"**/games/{game.pk}/")
    expect(mine.locator('[data-kept-seat="2"]')).to_be_visible()
    looks_right(mine, "table-invited-390")

    theirs = phone(players, boris)
    row = theirs.locator("[data-invitations] [data-invitation]")
    expect(row).to_contain_text(str(anna))
    looks_right(theirs, "lobby-invitation-390")
    row.get_by_role("button", name="Принять").click()
    theirs.wait_for_url(f"**/games/{game.pk}/")
    assert game.seats.filter(user=boris, seat=2).exists()
    assert Invitation.objects.get().status == "accepted"
    # Anna's open table learns it without a reload.
    expect(mine.locator('[data-kept-seat="2"]')).to_have_count(0, timeout=10_000)


def test_a_phrase_reaches_the_other_open_table_within_a_second(players: Players) -> None:
    people = named(UserFactory.create_batch(4))
    game = started_game(players=people, mode=Game.Mode.LIVE)
    speaker = phone(players, people[0])
    listener = phone(players, people[2])
    for page in (speaker, listener):
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("[data-reconnecting]")).to_be_hidden()
    time.sleep(0.5)  # both streams are open

    menu = speaker.locator("[data-phrase-menu]")
    menu.locator("summary").click()
    looks_right(speaker, "table-phrase-menu-390")
    with speaker.expect_response(f"**/games/{game.pk}/phrases/") as sent:
        menu.get_by_role("button", name="Удачи!").click()
    assert sent.value.status == 204
    said_at = time.monotonic()
    bubble = listener.locator('[data-seat="0"] [data-said="good_luck"]')
    expect(bubble).to_be_visible(timeout=1_000)
    assert time.monotonic() - said_at < 1.0, "the phrase took more than a second"
    expect(listener.locator('[data-strip-phrase="good_luck"]')).to_contain_text("Удачи!")
    looks_right(listener, "table-phrase-heard-390")

    # One phrase every few seconds: the next one at once is refused, and the page says why.
    speaker.locator("[data-phrase-menu] summary").click()
    speaker.locator("[data-phrase-menu]").get_by_role("button", name="Спасибо!").click()
    expect(speaker.locator("[data-phrase-alert]")).to_contain_text("Не так часто")
    assert TablePhrase.objects.filter(game=game).count() == 1


def test_play_again_opens_the_rematch_and_invites_the_others(players: Players) -> None:
    game = finished_single_deal()
    people = named(seated(game))
    page = phone(players, people[1])
    page.goto(f"/games/{game.pk}/")
    after = page.locator("[data-result]")
    expect(after.get_by_role("button", name="Сыграть ещё")).to_be_visible()
    looks_right(page, "finished-play-again-390")
    after.get_by_role("button", name="Сыграть ещё").click()
    new = Rematch.objects.get(of_game=game).game
    page.wait_for_url(f"**/games/{new.pk}/")
    expect(page.locator("[data-kept-seat]")).to_have_count(3)
    looks_right(page, "rematch-table-390")
    other = phone(players, people[3])
    expect(other.locator("[data-invitations] [data-invitation]")).to_have_count(1)
