"""In-app notifications, read marks and switches through the REST API."""

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from notifications.models import Notification
from notifications.selectors import settings_for
from notifications.services import drain_outbox, notify
from tests.timing.conftest import new_user

pytestmark = pytest.mark.django_db


def client_for(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_list_filters_and_marks_read():
    user, other = new_user(), new_user()
    for index in range(3):
        notify(user_id=user.pk, kind="kudos_received", dedupe_key=str(index))
    notify(user_id=other.pk, kind="kudos_received")
    drain_outbox()
    client = client_for(user)

    listed = client.get("/api/notifications/").json()
    assert listed["count"] == 3
    assert {item["read"] for item in listed["results"]} == {False}
    first = listed["results"][0]
    assert first["text"] == "Вам сказали тёплые слова"
    english = client.get("/api/notifications/", headers={"Accept-Language": "en"}).json()
    assert english["results"][0]["text"] == "You received warm words"

    marked = client.post("/api/notifications/read/", {"ids": [first["id"]]}, format="json")
    assert marked.json() == {"marked": 1}
    assert client.get("/api/notifications/?status=unread").json()["count"] == 2
    assert client.get("/api/notifications/?status=read").json()["count"] == 1

    assert client.post("/api/notifications/read/", {"all": True}, format="json").json() == {
        "marked": 2
    }
    assert client.get("/api/notifications/?status=unread").json()["count"] == 0
    assert Notification.objects.filter(user=other, read_at__isnull=True).count() == 1


def test_marking_someone_elses_notification_changes_nothing():
    user, other = new_user(), new_user()
    notify(user_id=other.pk, kind="sanction")
    drain_outbox()
    theirs = Notification.objects.get(user=other)
    answer = client_for(user).post("/api/notifications/read/", {"ids": [theirs.pk]}, format="json")
    assert answer.json() == {"marked": 0}


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("/api/notifications/?status=maybe", None, "bad_filter"),
        ("/api/notifications/read/", {}, "invalid"),
        ("/api/notifications/read/", {"ids": ["x"]}, "invalid"),
        ("/api/notifications/read/", {"ids": [10**20]}, "invalid"),
        ("/api/notifications/read/", {"ids": 5}, "invalid"),
    ],
)
def test_bad_input_is_a_400_with_a_code(path, body, code):
    client = client_for(new_user())
    response = client.get(path) if body is None else client.post(path, body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, code)


def test_settings_read_and_patch():
    user = new_user()
    client = client_for(user)
    current = client.get("/api/me/notification-settings/").json()
    assert current["digest"] is False
    assert current["email"]["your_turn"] is True
    assert set(current["in_app"]) == set(current["email"])

    changed = client.patch(
        "/api/me/notification-settings/",
        {"email": {"your_turn": False}, "in_app": {"kudos_received": False}, "digest": True},
        format="json",
    ).json()
    assert changed["email"]["your_turn"] is False
    assert changed["email"]["game_finished"] is True
    assert changed["in_app"]["kudos_received"] is False
    assert changed["digest"] is True
    assert settings_for(user=user) == changed


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"email": {"no_such_kind": False}}, "unknown_kind"),
        ({"email": {"your_turn": "no"}}, "invalid"),
        ({"email": ["your_turn"]}, "invalid"),
        ({"digest": "daily"}, "invalid"),
        ({"sms": {}}, "unknown_field"),
        ([1, 2], "invalid"),
    ],
)
def test_bad_settings_are_a_400_with_a_code(body, code):
    response = client_for(new_user()).patch("/api/me/notification-settings/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, code)


def test_anonymous_callers_are_refused():
    assert APIClient().get("/api/notifications/").status_code == 401
