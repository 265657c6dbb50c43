import re

import pytest
from django.core import mail
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts import services
from accounts.models import ApiToken
from accounts.tasks import send_password_reset_email
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

RESET = "/api/auth/password/reset/"
CONFIRM = "/api/auth/password/reset/confirm/"


@pytest.fixture
def queued(monkeypatch) -> list[int]:
    """The user ids whose reset email was queued (the Celery task itself is tested below)."""
    user_ids: list[int] = []
    monkeypatch.setattr(
        send_password_reset_email, "delay", lambda *, user_id: user_ids.append(user_id)
    )
    return user_ids


def emailed_link(user) -> dict[str, str]:
    """The uid and token of the emailed link; the email gives them to programs as well."""
    mail.outbox.clear()
    send_password_reset_email(user_id=user.pk)
    (message,) = mail.outbox
    assert message.to == [user.email]
    body = str(message.body)
    page = re.search(r"https?://\S+/password-reset/(?P<uid>[^/\s]+)/(?P<token>[^/\s]+)/", body)
    assert page is not None
    assert f"{CONFIRM}:\nuid: {page['uid']}\ntoken: {page['token']}\n" in body
    return {"uid": page["uid"], "token": page["token"]}


def test_reset_queues_the_email_after_commit(
    api_client, queued, django_capture_on_commit_callbacks
):
    user = UserFactory.create(email="Olga@Example.com")

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = api_client.post(RESET, {"email": "olga@example.com"}, format="json")
        assert queued == []

    assert response.status_code == 202
    for callback in callbacks:
        callback()
    assert queued == [user.pk]


def test_reset_of_an_unknown_email_looks_the_same(api_client, queued):
    UserFactory.create(email="olga@example.com")
    UserFactory.create(email="gone@example.com", is_active=False)

    unknown = api_client.post(RESET, {"email": "nobody@example.com"}, format="json")
    inactive = api_client.post(RESET, {"email": "gone@example.com"}, format="json")

    assert unknown.status_code == inactive.status_code == 202
    assert unknown.content == inactive.content
    assert queued == []


def test_reset_email_is_in_the_users_language():
    russian = UserFactory.create(language="ru")
    english = UserFactory.create(language="en")

    send_password_reset_email(user_id=russian.pk)
    send_password_reset_email(user_id=english.pk)

    assert mail.outbox[0].subject == "Клуб канасты: сброс пароля"
    assert mail.outbox[1].subject == "Canasta Club: password reset"
    assert "uid: " in mail.outbox[1].body


def test_confirm_sets_the_password_and_the_link_works_once(api_client):
    user = UserFactory.create()
    services.issue_token(user=user)
    link = emailed_link(user)

    response = api_client.post(CONFIRM, {**link, "new_password": "melds-of-kings-9"}, format="json")

    assert response.status_code == 204
    user.refresh_from_db()
    assert user.check_password("melds-of-kings-9")
    assert not ApiToken.objects.filter(user=user).exists()
    again = api_client.post(CONFIRM, {**link, "new_password": "another-one-42x"}, format="json")
    assert again.status_code == 400
    assert again.json()["code"] == "invalid_reset_link"


def test_confirm_refuses_a_weak_password_and_keeps_the_link(api_client):
    user = UserFactory.create()
    link = emailed_link(user)

    response = api_client.post(CONFIRM, {**link, "new_password": "123"}, format="json")

    assert response.json()["code"] == "weak_password"
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)
    ok = api_client.post(CONFIRM, {**link, "new_password": "melds-of-kings-9"}, format="json")
    assert ok.status_code == 204


@pytest.mark.parametrize(
    "uid",
    [
        "garbage!",
        urlsafe_base64_encode(b"not a number"),
        urlsafe_base64_encode(force_bytes(10**30)),  # beyond bigint
        urlsafe_base64_encode(force_bytes(987654)),  # no such user
    ],
)
def test_confirm_refuses_a_bad_uid(api_client, uid):
    UserFactory.create()

    body = {"uid": uid, "token": "abc-123", "new_password": "melds-of-kings-9"}
    response = api_client.post(CONFIRM, body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_reset_link"


def test_confirm_refuses_a_forged_token(api_client):
    user = UserFactory.create()
    link = emailed_link(user)

    body = {**link, "token": link["token"][:-1] + "g", "new_password": "melds-of-kings-9"}
    response = api_client.post(CONFIRM, body, format="json")

    assert response.json()["code"] == "invalid_reset_link"


def test_reset_answers_202_even_when_the_broker_is_down(api_client, monkeypatch):
    def broker_down(**kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(send_password_reset_email, "delay", broker_down)
    UserFactory.create(email="olga@example.com")

    response = api_client.post(RESET, {"email": "olga@example.com"}, format="json")

    assert response.status_code == 202


def test_the_emailed_link_opens_a_page_where_a_person_sets_the_password(client):
    user = UserFactory.create()
    services.issue_token(user=user)
    link = emailed_link(user)

    # Django's page moves the token from the URL into the session, then shows the form.
    opened = client.get(f"/password-reset/{link['uid']}/{link['token']}/", follow=True)
    assert opened.status_code == 200
    assert opened.context["validlink"]
    assert "<title>" in opened.content.decode() and "Canasta Club" in opened.content.decode()
    form_url = opened.redirect_chain[-1][0]
    new_password = {"new_password1": "melds-of-kings-9", "new_password2": "melds-of-kings-9"}
    done = client.post(form_url, new_password, follow=True)

    assert done.redirect_chain[-1][0] == "/password-reset/done/"
    assert done.status_code == 200
    user.refresh_from_db()
    assert user.check_password("melds-of-kings-9")
    assert not ApiToken.objects.filter(user=user).exists()  # as after the API's confirm
    again = client.get(f"/password-reset/{link['uid']}/{link['token']}/", follow=True)
    assert not again.context["validlink"]


def test_the_page_refuses_a_weak_password_and_keeps_the_old_one(client):
    user = UserFactory.create()
    link = emailed_link(user)
    opened = client.get(f"/password-reset/{link['uid']}/{link['token']}/", follow=True)

    weak = {"new_password1": "12345678", "new_password2": "12345678"}
    response = client.post(opened.redirect_chain[-1][0], weak)

    assert response.status_code == 200
    assert response.context["form"].errors
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)


def test_the_link_page_is_the_clubs_page_in_the_pages_language(client):
    user = UserFactory.create()
    link = emailed_link(user)

    client.cookies["language"] = "en"
    opened = client.get(f"/password-reset/{link['uid']}/{link['token']}/", follow=True)
    client.cookies["language"] = "ru"
    used_up = client.get("/password-reset/MQ/forged-token/", follow=True)

    english = opened.content.decode()
    assert '<html lang="en">' in english and "New password" in english
    assert 'name="new_password1"' in english and 'name="new_password2"' in english
    assert not used_up.context["validlink"]
    assert "Ссылка для нового пароля недействительна" in used_up.content.decode()
