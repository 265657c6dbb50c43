"""Web push: subscriptions per device, pushed once after commit through the outbox, a gone device
deleted, nothing pushed to a player looking at the game. Against a fake push service on
127.0.0.1 (tests/fake_push.py); the payload is decrypted with the fake browser's keys."""

from collections.abc import Iterator

import pytest
from django.db import transaction

from club import clock
from games.models import Seat
from notifications import services, webpush
from notifications.models import PushDelivery, PushSubscription
from notifications.services import drain_outbox, notify, push
from tests.concurrency import run_in_threads
from tests.factories import started_game
from tests.fake_push import FakeBrowser, FakePushService
from tests.timing.conftest import new_user, play_turn, turn_of, user_at

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def push_service() -> Iterator[FakePushService]:
    service = FakePushService().start()
    yield service
    service.stop()


def subscribe(user, browser: FakeBrowser) -> None:
    services.subscribe_push(
        user=user, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth
    )


def test_your_turn_reaches_each_device_once_decryptable_with_its_keys(push_service):
    players = [new_user() for _ in range(4)]
    game = started_game(players=players)
    browsers = {}
    for index, player in enumerate(players):
        player.language = "en"
        player.save()
        for device in (f"phone{index}", f"laptop{index}"):
            browsers[device] = push_service.browser(device)
            subscribe(player, browsers[device])
    Seat.objects.filter(game=game).update(last_seen_at=None)  # nobody is at the table
    drain_outbox()
    push_service.received.clear()  # "game started"

    play_turn(game.pk)
    drain_outbox()
    drain_outbox()  # a second drain sends nothing again

    game.refresh_from_db()
    waiting = players.index(user_at(game, turn_of(game)))
    assert {push.device for push in push_service.received} == {
        f"phone{waiting}",
        f"laptop{waiting}",
    }
    for device in (f"phone{waiting}", f"laptop{waiting}"):
        [push] = push_service.to(device)
        shown = browsers[device].read(push)
        assert shown["title"] == f"Your turn in game #{game.pk}"
        assert shown["url"] == f"/games/{game.pk}/"
        assert shown["tag"].startswith("your_turn:")
        assert push.headers["authorization"].startswith("vapid t=")
        assert webpush.application_server_key() in push.headers["authorization"]
        assert push.headers["ttl"] == str(webpush.PUSH_TTL_SECONDS)
        delivered = PushDelivery.objects.get(
            subscription__endpoint=browsers[device].endpoint, message__kind="your_turn"
        )
        assert push.headers["topic"] == f"n{delivered.message_id}"
    assert set(PushDelivery.objects.values_list("status", flat=True)) == {"sent"}


def test_nothing_is_pushed_when_the_notifying_transaction_rolls_back(push_service):
    user = new_user()
    subscribe(user, push_service.browser("phone"))
    with pytest.raises(RuntimeError), transaction.atomic():
        notify(user_id=user.pk, kind="kudos_received")
        raise RuntimeError
    drain_outbox()
    assert push_service.received == []


def test_a_device_the_push_service_says_is_gone_is_deleted(push_service):
    user = new_user()
    subscribe(user, push_service.browser("old-phone"))
    subscribe(user, push_service.browser("phone"))
    push_service.gone.add("old-phone")
    notify(user_id=user.pk, kind="kudos_received", payload={"text": "Спасибо!"})
    drain_outbox()
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        push_service.browser("phone").endpoint
    ]
    notify(user_id=user.pk, kind="sanction")
    drain_outbox()
    assert len(push_service.to("old-phone")) == 1
    assert len(push_service.to("phone")) == 2


def test_nothing_is_pushed_to_a_player_looking_at_the_game(push_service):
    game = started_game(players=[new_user() for _ in range(4)])
    player = user_at(game, 0)
    subscribe(player, push_service.browser("phone"))
    Seat.objects.filter(game=game, user=player).update(last_seen_at=clock.now())
    notify(user_id=player.pk, kind="game_finished", game_id=game.pk, payload={"scores": [1, 2]})
    drain_outbox()
    assert push_service.received == []

    Seat.objects.filter(game=game, user=player).update(last_seen_at=None)
    notify(user_id=player.pk, kind="autoplayed", game_id=game.pk)
    drain_outbox()
    assert len(push_service.to("phone")) == 1


def test_push_switched_off_for_a_kind_sends_none_of_it(push_service):
    user = new_user()
    subscribe(user, push_service.browser("phone"))
    services.update_settings(user=user, changes={"push": {"kudos_received": False}})
    notify(user_id=user.pk, kind="kudos_received")
    notify(user_id=user.pk, kind="sanction")
    drain_outbox()
    [push] = push_service.to("phone")
    assert push_service.browser("phone").endpoint.endswith("/phone")
    assert PushDelivery.objects.get().message.kind == "sanction"
    assert push.body


def test_a_push_service_that_fails_is_tried_again_then_given_up(push_service):
    user = new_user()
    down = FakeBrowser(endpoint="http://127.0.0.1:1/push/nobody-listens")
    subscribe(user, down)
    notify(user_id=user.pk, kind="sanction")
    drain_outbox()
    drain_outbox()  # at once: the device rests after its failure
    assert PushDelivery.objects.get().attempts == 1
    for _ in range(push.MAX_SEND_ATTEMPTS):
        clock.advance(push.PUSH_BACKOFF_MAX)
        drain_outbox()
    delivery = PushDelivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("failed", push.MAX_SEND_ATTEMPTS)
    assert "ConnectionError" in delivery.failure_reason
    device = PushSubscription.objects.get()  # unreachable is not gone
    assert device.failures == push.MAX_SEND_ATTEMPTS


def test_a_device_subscribed_again_by_another_user_changes_hands(push_service):
    first, second = new_user(), new_user()
    browser = push_service.browser("shared")
    subscribe(first, browser)
    subscribe(second, browser)
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [second.pk]


def test_the_api_stores_and_forgets_this_devices_subscription(api_client, push_service):
    user = new_user()
    api_client.force_authenticate(user)
    browser = push_service.browser("phone")
    assert api_client.get("/api/push/key/").json() == {
        "public_key": webpush.application_server_key()
    }
    answer = api_client.post(
        "/api/me/push-subscriptions/", browser.subscription_json(), format="json"
    )
    assert answer.status_code == 204
    assert PushSubscription.objects.get().user == user
    bad = api_client.post("/api/me/push-subscriptions/", {"endpoint": "nope"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid"
    gone = api_client.delete(
        "/api/me/push-subscriptions/", {"endpoint": browser.endpoint}, format="json"
    )
    assert gone.status_code == 204
    assert not PushSubscription.objects.exists()
    switches = api_client.get("/api/me/notification-settings/").json()
    assert switches["push"]["your_turn"] is True
    changed = api_client.patch(
        "/api/me/notification-settings/", {"push": {"your_turn": False}}, format="json"
    )
    assert changed.json()["push"]["your_turn"] is False
    unknown = api_client.patch(
        "/api/me/notification-settings/", {"push": {"nope": True}}, format="json"
    )
    assert (unknown.status_code, unknown.json()["code"]) == (400, "unknown_kind")


def test_concurrent_drains_push_each_notification_once(push_service):
    user = new_user()
    subscribe(user, push_service.browser("phone"))
    with transaction.atomic():
        for index in range(20):
            notify(user_id=user.pk, kind="kudos_received", dedupe_key=str(index))
    run_in_threads(drain_outbox, drain_outbox, drain_outbox)
    topics = [push.headers["topic"] for push in push_service.to("phone")]
    assert len(topics) == 20 and len(set(topics)) == 20
    assert set(PushDelivery.objects.values_list("status", flat=True)) == {"sent"}
