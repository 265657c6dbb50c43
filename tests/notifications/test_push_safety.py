"""Web push that cannot be aimed inward, stalled or poisoned (issue 22, SECURITY.md).

Only local services on 127.0.0.1 take part: the fake push service (tests/fake_push.py) and a
listener that never answers. Names are resolved by a fake resolver (no DNS); with
PUSH_ALLOW_LOOPBACK off, as in a deployment, nothing on loopback is let in.
"""

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from club import clock
from notifications import push_endpoints, services, texts, webpush
from notifications.models import PushDelivery, PushSubscription
from notifications.services import drain, drain_outbox, notify, push
from tests.fake_push import FakeBrowser, FakePushService, HangingListener
from tests.timing.conftest import new_user

# Real transactions: the sender records outside the claim's transaction.
with_db = pytest.mark.django_db(transaction=True)

# Public addresses of the push services browsers use (Chrome/Edge's FCM, Firefox's autopush,
# Safari's Apple push, Windows' WNS), as a resolver would answer.
KNOWN_PUSH_SERVICES = {
    "fcm.googleapis.com": ["142.250.185.74", "2a00:1450:4001:80b::200a"],
    "updates.push.services.mozilla.com": ["34.117.123.210"],
    "web.push.apple.com": ["17.188.182.9"],
    "wns2-par02p.notify.windows.com": ["20.199.120.85"],
}


class Resolver:
    """socket.getaddrinfo for the names in `names` (a test can re-point them); the real one
    for everything else (the database, Redis)."""

    def __init__(self, names: dict[str, list[str]]) -> None:
        self.names = names
        self.asked: list[str] = []
        self._real = socket.getaddrinfo

    def __call__(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        if host not in self.names:
            return self._real(host, port, *args, **kwargs)
        self.asked.append(host)
        return [
            (
                socket.AF_INET6 if ":" in address else socket.AF_INET,
                socket.SOCK_STREAM,
                6,
                "",
                (address, int(port or 443)),
            )
            for address in self.names[host]
        ]


@pytest.fixture
def resolver(monkeypatch: pytest.MonkeyPatch) -> Resolver:
    fake = Resolver({**KNOWN_PUSH_SERVICES})
    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return fake


@pytest.fixture
def deployed(settings: Any) -> None:
    """As a deployment runs: loopback refused."""
    settings.PUSH_ALLOW_LOOPBACK = False


@pytest.fixture
def push_service() -> Iterator[FakePushService]:
    service = FakePushService().start()
    yield service
    service.stop()


@pytest.fixture
def hanging() -> Iterator[HangingListener]:
    listener = HangingListener().start()
    yield listener
    listener.stop()


def subscribe(user: Any, endpoint: str, browser: FakeBrowser | None = None) -> None:
    keys = browser or FakeBrowser(endpoint=endpoint)
    services.subscribe_push(user=user, endpoint=endpoint, p256dh=keys.p256dh, auth=keys.auth)


INWARD = [
    "https://127.0.0.1/push",
    "https://127.1.2.3/push",
    "https://localhost/push",
    "https://[::1]/push",
    "https://169.254.169.254/latest/meta-data/",
    "https://10.0.0.1/push",
    "https://172.16.5.4/push",
    "https://192.168.1.1/push",
    "https://100.64.0.1/push",  # carriers' shared space
    "https://0.0.0.0/push",
    "https://[::]/push",
    "https://224.0.0.1/push",
    "https://[ff02::1]/push",
    "https://240.0.0.1/push",
    "https://192.0.2.1/push",  # documentation
    "https://[fe80::1]/push",
    "https://[fc00::1]/push",
    "https://[fec0::1]/push",
    "https://[::ffff:127.0.0.1]/push",
    "https://[::ffff:a9fe:a9fe]/push",  # 169.254.169.254, IPv4-mapped
    "https://[2002:7f00:1::]/push",  # 6to4 of 127.0.0.1
    "https://[64:ff9b::a00:1]/push",  # NAT64 of 10.0.0.1
    "https://[2001:db8::1]/push",
    "https://2130706433/push",  # 127.0.0.1 as one number
    "https://0x7f.1/push",
    "https://inward.example/push",
    "https://mixed.example/push",
]
NOT_PUSH_URLS = [
    "http://fcm.googleapis.com/fcm/send/x",
    "ftp://fcm.googleapis.com/x",
    "https://fcm.googleapis.com:8443/fcm/send/x",
    "https://user:secret@fcm.googleapis.com/fcm/send/x",
    "https://nowhere.invalid/push",
    "https:///push",
    "https://[::1/push",
]


@pytest.mark.parametrize("endpoint", INWARD + NOT_PUSH_URLS)
def test_an_endpoint_aimed_inward_or_not_https_is_refused(
    endpoint: str, resolver: Resolver, deployed: None
) -> None:
    resolver.names["inward.example"] = ["10.1.2.3"]
    resolver.names["mixed.example"] = ["93.184.215.14", "127.0.0.1"]
    with pytest.raises(push_endpoints.EndpointRefused):
        push_endpoints.check(endpoint)


@with_db
@pytest.mark.parametrize("host", sorted(KNOWN_PUSH_SERVICES))
def test_the_known_push_services_are_taken(
    host: str, resolver: Resolver, deployed: None, api_client: Any
) -> None:
    user = new_user()
    api_client.force_authenticate(user)
    endpoint = f"https://{host}/push/v2/{host.split('.')[0]}-device-token"
    answer = api_client.post(
        "/api/me/push-subscriptions/",
        FakeBrowser(endpoint=endpoint).subscription_json(),
        format="json",
    )
    assert answer.status_code == 204
    assert PushSubscription.objects.get().endpoint == endpoint


@with_db
def test_the_api_refuses_an_inward_endpoint_with_its_code(
    api_client: Any, resolver: Resolver, deployed: None, push_service: FakePushService
) -> None:
    api_client.force_authenticate(new_user())
    for endpoint in [
        push_service.browser("phone").endpoint,  # the fake service itself: loopback, http
        "https://127.0.0.1/push",
        "https://[::1]/push",
        "https://169.254.169.254/push",
        "https://10.0.0.1/push",
        "ftp://fcm.googleapis.com/x",
    ]:
        answer = api_client.post(
            "/api/me/push-subscriptions/",
            FakeBrowser(endpoint=endpoint).subscription_json(),
            format="json",
        )
        assert answer.status_code == 400, endpoint
        assert answer.json()["code"] == "push_endpoint_refused"
    assert not PushSubscription.objects.exists()
    assert push_service.received == []


@with_db
def test_a_name_re_pointed_inward_after_subscribing_is_refused_when_sending(
    resolver: Resolver, deployed: None
) -> None:
    user = new_user()
    resolver.names["push.example"] = ["93.184.215.14"]
    subscribe(user, "https://push.example/push/phone")
    resolver.names["push.example"] = ["127.0.0.1"]
    notify(user_id=user.pk, kind="sanction")
    drain_outbox()
    delivery = PushDelivery.objects.get()
    assert delivery.status == "failed"
    assert "push.example resolves to 127.0.0.1: loopback" in delivery.failure_reason
    assert PushSubscription.objects.exists()  # refused, not "gone": no oracle


@with_db
def test_a_push_connects_to_the_very_address_checked(
    resolver: Resolver, push_service: FakePushService
) -> None:
    """The name is resolved once, by the check, and the socket goes to that address: the
    system's resolver (which knows no push.test) is never asked."""
    user = new_user()
    port = push_service.browser("x").endpoint.split(":")[2].split("/")[0]
    resolver.names["push.test"] = ["127.0.0.1"]
    browser = FakeBrowser(endpoint=f"http://push.test:{port}/push/phone")
    subscribe(user, browser.endpoint, browser)
    resolver.asked.clear()
    notify(user_id=user.pk, kind="sanction")
    drain_outbox()
    [push] = push_service.to("phone")
    assert push.headers["host"] == f"push.test:{port}"
    assert browser.read(push)["title"]
    assert resolver.asked == ["push.test"]


@with_db
def test_a_redirect_is_not_followed(push_service: FakePushService) -> None:
    user = new_user()
    subscribe(user, push_service.browser("phone").endpoint, push_service.browser("phone"))
    push_service.redirected["phone"] = "/push/internal"
    push_service.gone.add("internal")
    notify(user_id=user.pk, kind="sanction")
    drain_outbox()
    assert push_service.to("internal") == []
    delivery = PushDelivery.objects.get()
    assert (delivery.status, delivery.failure_reason) == ("pending", "307: redirect not followed")
    assert PushSubscription.objects.exists()


@with_db
def test_a_user_keeps_at_most_ten_devices_the_oldest_going() -> None:
    user = new_user()
    endpoints = [f"https://93.184.215.14/push/{device}" for device in range(12)]
    for endpoint in endpoints[:11]:
        subscribe(user, endpoint)
    kept = set(PushSubscription.objects.values_list("endpoint", flat=True))
    assert kept == set(endpoints[1:11])
    subscribe(user, endpoints[1])  # subscribing again makes it the newest
    subscribe(user, endpoints[11])
    kept = set(PushSubscription.objects.values_list("endpoint", flat=True))
    assert kept == {endpoints[1], *endpoints[3:12]}
    assert len(kept) == push.MAX_PUSH_DEVICES


@with_db
def test_hanging_endpoints_delay_nobody_else(
    push_service: FakePushService, hanging: HangingListener
) -> None:
    attacker, other = new_user(), new_user()
    for device in range(push.MAX_PUSH_DEVICES):
        subscribe(attacker, f"{hanging.url}/push/{device}")
    subscribe(other, push_service.browser("phone").endpoint, push_service.browser("phone"))
    notify(user_id=attacker.pk, kind="sanction")
    notify(user_id=other.pk, kind="sanction")

    started = time.monotonic()
    drain_outbox()
    took = time.monotonic() - started
    assert len(push_service.to("phone")) == 1
    assert hanging.accepted == push.MAX_PUSH_DEVICES
    # The hanging ones were sent beside it, each cut at its deadline.
    assert took < webpush.PUSH_DEADLINE_SECONDS + 3
    waiting = PushDelivery.objects.filter(subscription__user=attacker)
    assert {(d.status, d.attempts) for d in waiting} == {("pending", 1)}
    assert all(d.failure_reason for d in waiting)

    # Backing off: the next drain tries none of them and sends the other's next push at once.
    notify(user_id=other.pk, kind="kudos_received")
    started = time.monotonic()
    drain_outbox()
    assert time.monotonic() - started < 2
    assert len(push_service.to("phone")) == 2
    assert hanging.accepted == push.MAX_PUSH_DEVICES
    devices = PushSubscription.objects.filter(user=attacker)
    assert {device.failures for device in devices} == {1}


def test_an_endpoint_trickling_bytes_is_cut_at_the_deadline(monkeypatch: Any) -> None:
    monkeypatch.setattr(webpush, "PUSH_DEADLINE_SECONDS", 1.0)
    listener = HangingListener(trickle=0.2).start()
    try:
        sender = webpush.Sender()
        push = webpush.Push(
            endpoint=f"{listener.url}/push/slow",
            topic="t",
            payload={"title": "x"},
            **{key: getattr(FakeBrowser(endpoint=""), key) for key in ("p256dh", "auth")},
        )
        started = time.monotonic()
        [outcome] = sender.send_all([push])
        took = time.monotonic() - started
        sender.close()
    finally:
        listener.stop()
    assert outcome.result is webpush.PushResult.FAILED
    assert took < 2.5  # a per-read timeout alone (3 s) would never end it


@with_db
def test_a_delivery_that_cannot_be_sent_is_set_aside_and_the_queue_goes_on(
    push_service: FakePushService,
) -> None:
    poisoned, other = new_user(), new_user()
    # Stored before the endpoint checks (or by a bug): VAPID cannot sign for an IPv6 literal.
    keys = FakeBrowser(endpoint="")
    PushSubscription.objects.create(
        user=poisoned,
        endpoint="https://[2a00:1450:4001:80b::200a]/push/x",
        p256dh=keys.p256dh,
        auth=keys.auth,
    )
    PushSubscription.objects.create(
        user=poisoned,
        endpoint=push_service.browser("bad-keys").endpoint,
        p256dh="not-a-key",
        auth="x",
    )
    subscribe(other, push_service.browser("phone").endpoint, push_service.browser("phone"))
    notify(user_id=poisoned.pk, kind="sanction")
    notify(user_id=other.pk, kind="sanction")
    drain_outbox()
    assert len(push_service.to("phone")) == 1
    assert push_service.to("bad-keys") == []
    failed = PushDelivery.objects.filter(subscription__user=poisoned)
    assert {d.status for d in failed} == {"failed"}
    reasons = sorted(d.failure_reason for d in failed)
    assert any(reason.startswith("VapidException") for reason in reasons), reasons
    assert all(reasons), reasons

    # Set aside for good: later drains do not try them again, and the other's pushes go on.
    clock.advance(push.PUSH_BACKOFF_MAX)
    notify(user_id=other.pk, kind="kudos_received")
    drain_outbox()
    assert len(push_service.to("phone")) == 2
    assert {(d.status, d.attempts) for d in failed} == {("failed", 1)}


@with_db
def test_an_unexpected_error_writing_a_push_sets_it_aside(
    push_service: FakePushService, monkeypatch: Any
) -> None:
    user = new_user()
    subscribe(user, push_service.browser("phone").endpoint, push_service.browser("phone"))
    real = texts.push_payload

    def fails_for_sanctions(**kwargs: Any) -> dict[str, Any]:
        if kwargs["kind"] == "sanction":
            raise KeyError("no text")
        return real(**kwargs)

    monkeypatch.setattr(texts, "push_payload", fails_for_sanctions)
    notify(user_id=user.pk, kind="sanction")
    notify(user_id=user.pk, kind="kudos_received")
    for _ in range(3):
        drain_outbox()
    statuses = dict(PushDelivery.objects.values_list("message__kind", "status"))
    assert statuses == {"sanction": "failed", "kudos_received": "sent"}
    assert PushDelivery.objects.get(status="failed").failure_reason == "KeyError: 'no text'"


@with_db
def test_a_sender_that_died_leaves_its_claim_to_the_next_after_the_lease(
    push_service: FakePushService,
) -> None:
    user = new_user()
    subscribe(user, push_service.browser("phone").endpoint, push_service.browser("phone"))
    notify(user_id=user.pk, kind="sanction")
    drain._deliver_in_app(batch_size=10)
    assert len(push._claim_pushes(limit=10)) == 1  # ... and the sender dies
    drain_outbox()
    assert push_service.received == []
    clock.advance(push.PUSH_LEASE)
    drain_outbox()
    assert len(push_service.to("phone")) == 1
    assert PushDelivery.objects.get().status == "sent"
