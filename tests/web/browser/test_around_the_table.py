"""Around the table in the browser: a report from a player card answered by a moderator from the
queue with a mute (the muted player's afterword then refused, the reporter never shown to the
accused), the bell's count, a your-turn push through the fake push service shown by the service
worker and opened by a click, and a replay stepped through a whole deal to the game's score."""

import json

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from games.models import Game, Seat
from moderation.models import Afterword
from notifications import services as notification_services
from notifications.services import drain_outbox, notify
from tests.factories import DEFAULT_PASSWORD, UserFactory, started_game
from tests.fake_push import FakePushService
from tests.games.test_replay import finished_single_deal
from tests.moderation.conftest import make_group_moderator, moderators_group, over_game
from tests.timing.conftest import play_turn, turn_of, user_at
from tests.web.browser.conftest import Players, horizontal_overflow, shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def log_in(page: Page, user: User) -> None:
    page.goto("/login/")
    page.fill("[name=username]", user.username)
    page.fill("[name=password]", DEFAULT_PASSWORD)
    page.press("[name=password]", "Enter")
    page.wait_for_url("**/")


def test_a_report_filed_from_a_card_is_answered_with_a_mute(players: Players) -> None:
    reporter, accused, partner, other = UserFactory.create_batch(4)
    reporter.display_name = "Доносчица Зоя"
    reporter.save()
    game = over_game([reporter, accused, partner, other])
    rude = Afterword.objects.create(game=game, author=accused, to="table", text="Вы все неумехи")
    moderators_group()
    moderator = make_group_moderator(UserFactory.create())

    mine = players.new_page(width=390)
    log_in(mine, reporter)
    mine.goto(f"/users/{accused.pk}/")
    form = mine.locator("[data-report-form]")
    expect(form).to_contain_text("анонимна")
    expect(form).to_contain_text("4 часов")
    form.locator("[name=reason]").select_option("rudeness")
    form.locator("[name=text]").fill("Грубил весь вечер")
    form.locator("[name=afterword]").select_option(str(rude.pk))
    shoot(mine, "player-card-390")
    mine.set_viewport_size({"width": 1440, "height": 900})
    shoot(mine, "player-card-1440")
    mine.set_viewport_size({"width": 390, "height": 900})
    form.get_by_role("button", name="Пожаловаться").click()
    mine.wait_for_url("**/reports/mine/?filed=1")
    expect(mine.locator("[data-report]")).to_contain_text("Ждёт ответа")
    assert horizontal_overflow(mine) == 0

    desk = players.new_page()
    log_in(desk, moderator)
    desk.goto("/moderation/")
    row = desk.locator("[data-queue-report]").first
    expect(row).to_contain_text("никто не взял")
    expect(row.locator("[data-countdown]")).to_contain_text("осталось 3:")
    shoot(desk, "moderation-queue-1440")
    desk.set_viewport_size({"width": 390, "height": 900})
    assert horizontal_overflow(desk) == 0
    shoot(desk, "moderation-queue-390")
    desk.set_viewport_size({"width": 1440, "height": 900})
    row.get_by_role("link").click()
    expect(desk.locator("[data-evidence-afterword]")).to_contain_text("Вы все неумехи")
    desk.get_by_role("button", name="Взять").click()
    expect(desk.locator("[data-claim]")).to_contain_text("Жалоба у вас.")
    desk.locator("[name=decision]").select_option("mute")
    desk.locator("[name=days]").fill("3")
    desk.locator("[name=message]").fill("Спасибо, игрок получил запрет писать на 3 дня.")
    desk.get_by_role("button", name="Ответить").click()
    expect(desk.locator("[data-answer]")).to_contain_text("mute")

    mine.goto("/reports/mine/")
    expect(mine.locator("[data-answer]")).to_contain_text("запрет писать на 3 дня")

    theirs = players.new_page(width=390)
    log_in(theirs, accused)
    theirs.goto(f"/games/{game.pk}/")
    theirs.locator("#afterword-text").fill("Ну и что")
    theirs.locator("[data-afterwords]").get_by_role("button", name="Отправить").click()
    expect(theirs.locator("[data-afterwords] [role=alert]")).to_contain_text(
        "Вам временно запрещено писать послесловия."
    )
    seen = []
    for path in ("/", "/notifications/", f"/users/{accused.pk}/", "/reports/mine/"):
        theirs.goto(path)
        seen.append(theirs.content())
    card = seen[2]
    authority = card[card.index('id="authority-title"') : card.index('id="recent-title"')]
    assert "запрет писать" in authority and "Доносчица" not in authority
    assert not any("Доносчица" in page for page in (seen[0], seen[1], seen[3]))


def test_the_bell_counts_a_notification_that_arrives(players: Players) -> None:
    user = UserFactory.create()
    page = players.new_page(width=390)
    log_in(page, user)
    bell = page.locator("[data-bell]")
    expect(bell).to_have_attribute("data-unread", "0")
    notify(user_id=user.pk, kind="kudos_received", payload={"text": "Спасибо!"})
    drain_outbox()
    page.evaluate("window.dispatchEvent(new Event('focus'))")  # as when the player comes back
    expect(bell).to_have_attribute("data-unread", "1")
    expect(bell.locator("[data-bell-count]")).to_have_text("1")
    bell.click()
    expect(page.locator(".notification.unread")).to_contain_text("Вам сказали тёплые слова")


# Clicking a shown notification is the desktop's, which no automation reaches; the test hands the
# worker's notificationclick listener the very notification the push showed, as the click does.
# Opening or focusing a window needs the user activation only a real click grants, so those two
# calls are recorded instead of made (stubbed in the worker, for this event only).
CLICK_THE_NOTIFICATION = """async () => {
  const calls = [];
  self.clients.openWindow = (url) => { calls.push(["open", url]); return Promise.resolve(null); };
  WindowClient.prototype.focus = function () {
    calls.push(["focus", this.url]);
    return Promise.resolve(this);
  };
  const [notification] = await self.registration.getNotifications();
  const click = new NotificationEvent("notificationclick", {notification});
  const waits = [];
  click.waitUntil = (promise) => waits.push(promise);  // a script's event cannot extend itself
  self.dispatchEvent(click);
  await Promise.all(waits);
  return {calls, still_shown: (await self.registration.getNotifications()).length};
}"""


def test_a_your_turn_push_is_shown_by_the_service_worker_and_opens_the_game(
    players: Players,
) -> None:
    """A headless Chromium cannot subscribe offline: the server pushes to the fake push service,
    and the payload it received is handed to the page's service worker over DevTools. Clicking
    it opens the game, or focuses the window already showing it."""
    push_service = FakePushService().start()
    try:
        seated = UserFactory.create_batch(4)
        game = started_game(players=seated)
        devices = {player.pk: push_service.browser(f"device{player.pk}") for player in seated}
        for player in seated:
            device = devices[player.pk]
            notification_services.subscribe_push(
                user=player, endpoint=device.endpoint, p256dh=device.p256dh, auth=device.auth
            )
        Seat.objects.filter(game=game).update(last_seen_at=None)  # nobody is at the table
        play_turn(game.pk)
        drain_outbox()
        game = Game.objects.get(pk=game.pk)
        waiting = user_at(game, turn_of(game))
        device = devices[waiting.pk]
        pushed = [device.read(push) for push in push_service.to(f"device{waiting.pk}")]
        your_turn = next(push for push in pushed if push["tag"].startswith("your_turn:"))
    finally:
        push_service.stop()

    page = players.new_page(width=390)
    page.context.grant_permissions(["notifications"])
    log_in(page, waiting)
    page.goto("/notifications/settings/")
    devtools = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    devtools.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    devtools.send("ServiceWorker.enable")
    page.evaluate(
        "navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)"
    )
    page.wait_for_timeout(300)  # the registration's DevTools event
    registration = next(item for item in registrations if not item["isDeleted"])

    def push_and_show() -> list[dict]:
        devtools.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": players.base_url,
                "registrationId": registration["registrationId"],
                "data": json.dumps(your_turn),
            },
        )
        return page.wait_for_function(
            """() => navigator.serviceWorker.ready
                 .then(r => r.getNotifications())
                 .then(list => list.length
                   ? list.map(n => ({title: n.title, tag: n.tag, url: n.data.url})) : null)"""
        ).json_value()

    assert push_and_show() == [
        {
            "title": f"Ваш ход в игре №{game.pk}",
            "tag": your_turn["tag"],
            "url": f"/games/{game.pk}/",
        }
    ]
    worker = page.context.service_workers[0]
    game_url = f"{players.base_url}/games/{game.pk}/"
    # No window shows the game: the click opens it, and the notification goes.
    assert worker.evaluate(CLICK_THE_NOTIFICATION) == {
        "calls": [["open", game_url]],
        "still_shown": 0,
    }
    # A window already at the game's table: the click brings that one forward instead.
    page.goto(f"/games/{game.pk}/")
    push_and_show()
    assert worker.evaluate(CLICK_THE_NOTIFICATION) == {
        "calls": [["focus", game_url]],
        "still_shown": 0,
    }


def test_a_replay_steps_through_the_whole_deal_and_ends_on_the_games_score(
    players: Players,
) -> None:
    """Forward from the deal to its last move, one move a click, every step shown in turn; the
    last ends on the game's score. Then back, and straight to a move."""
    game = finished_single_deal()
    total = game.version
    page = players.new_page(width=390)
    page.goto(f"/games/{game.pk}/replay/")
    replay = page.locator("[data-replay]")
    expect(replay).to_have_attribute("data-step", "0")
    expect(replay).to_have_attribute("data-total", str(total))
    stock = int(page.locator("[data-stock]").inner_text())
    forward = page.get_by_role("link", name="Вперёд")
    for step in range(1, total + 1):
        forward.click()
        expect(replay).to_have_attribute("data-step", str(step))
        expect(page.locator("[data-replay-step]")).to_have_text(str(step))
        expect(page.locator("[data-replay-move]")).not_to_be_empty()  # who did what
        now = int(page.locator("[data-stock]").inner_text())
        assert now <= stock, f"the stock grew at move {step}"
        stock = now
    score = f"{game.scores[0]} : {game.scores[1]}"
    expect(page.locator("[data-replay-scores]")).to_have_text(score)
    expect(page.locator("[data-replay-final]")).to_contain_text(score)
    forward.click()  # past the end: it stays there
    expect(replay).to_have_attribute("data-step", str(total))

    page.get_by_role("link", name="Назад").click()
    expect(replay).to_have_attribute("data-step", str(total - 1))
    expect(page.locator("[data-replay-final]")).to_have_count(0)
    page.fill("[name=step]", "10")
    page.get_by_role("button", name="Перейти").click()
    expect(replay).to_have_attribute("data-step", "10")
    expect(page.locator("[data-replay-step]")).to_have_text("10")
    page.get_by_role("link", name="В конец").click()
    expect(replay).to_have_attribute("data-step", str(total))
    expect(page.locator("[data-replay-final]")).to_contain_text(score)
    assert horizontal_overflow(page) == 0
