import pytest
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from accounts.authentication import digest_of
from accounts.models import ApiToken, User
from accounts.tasks import purge_expired_tokens
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

REGISTER = "/api/auth/register/"
TOKEN = "/api/auth/token/"
LOGOUT = "/api/auth/logout/"
PASSWORD_CHANGE = "/api/auth/password/change/"


def sign_up(client: APIClient, language: str = "ru", **overrides: str):
    body = {
        "username": "olga",
        "password": "queen-of-spades-7",
        "email": "olga@example.com",
        "display_name": "Ольга",
        **overrides,
    }
    return client.post(REGISTER, body, format="json", HTTP_ACCEPT_LANGUAGE=language)


def test_register_creates_the_user_and_returns_a_working_token(api_client):
    response = sign_up(api_client)

    assert response.status_code == 201
    body = response.json()
    user = User.objects.get(username="olga")
    assert ApiToken.objects.get(user=user).digest == digest_of(body["token"])
    assert body["user"]["id"] == user.pk
    assert body["user"]["display_name"] == "Ольга"
    assert body["user"]["email"] == "olga@example.com"
    assert body["user"]["authority"] == 0
    assert user.check_password("queen-of-spades-7")
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert api_client.get(f"/api/users/{user.pk}/").status_code == 200


def test_register_without_display_name_shows_the_username(api_client):
    response = sign_up(api_client, display_name="")
    assert response.status_code == 400  # an explicit empty name is refused...

    body = {"username": "olga", "password": "queen-of-spades-7", "email": "olga@example.com"}
    response = api_client.post(REGISTER, body, format="json")  # ...an absent one defaults
    assert response.status_code == 201
    assert response.json()["user"]["display_name"] == "olga"


def test_register_remembers_the_request_language_for_emails(api_client):
    assert sign_up(api_client, language="en").status_code == 201
    assert sign_up(api_client, username="ann", email="ann@example.com").status_code == 201

    assert User.objects.get(username="olga").language == "en"
    assert User.objects.get(username="ann").language == "ru"


@pytest.mark.parametrize("taken", ["olga", "OLGA"])
def test_register_refuses_a_taken_username_in_any_case(api_client, taken):
    UserFactory.create(username="olga")

    response = sign_up(api_client, username=taken)

    assert response.status_code == 400
    assert response.json()["code"] == "username_taken"


@pytest.mark.parametrize("password", ["12345678", "olga@example.com", "short", "password"])
def test_register_applies_django_password_validators(api_client, password):
    response = sign_up(api_client, password=password)

    assert response.status_code == 400
    assert response.json()["code"] == "weak_password"
    assert response.json()["detail"]
    assert not User.objects.exists()


def test_register_validates_fields(api_client):
    response = sign_up(api_client, username="no spaces!", email="not-an-email")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert set(body["errors"]) == {"username", "email"}


def test_error_details_follow_accept_language(api_client):
    UserFactory.create(username="olga")

    russian = sign_up(api_client).json()["detail"]
    english = sign_up(api_client, language="en").json()["detail"]

    assert english == "This username is already taken."
    assert russian == "Это имя пользователя уже занято."


def test_each_log_in_makes_a_token_of_its_own_device_stored_only_as_a_digest(api_client, user):
    credentials = {"username": user.username, "password": DEFAULT_PASSWORD}
    phone = api_client.post(TOKEN, {**credentials, "device": "phone"}, format="json").json()
    laptop = api_client.post(TOKEN, credentials, format="json", HTTP_USER_AGENT="laptop/1").json()

    assert phone["token"] != laptop["token"]
    stored = ApiToken.objects.filter(user=user).order_by("created_at", "pk")
    assert [token.device for token in stored] == ["phone", "laptop/1"]
    assert {token.digest for token in stored} == {
        digest_of(phone["token"]),
        digest_of(laptop["token"]),
    }
    assert not ApiToken.objects.filter(digest__in=[phone["token"], laptop["token"]]).exists()
    for key in (phone["token"], laptop["token"]):
        api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert api_client.get("/api/me/").status_code == 200


@pytest.mark.parametrize(
    ("username", "password"), [("player-x", DEFAULT_PASSWORD), (None, "wrong-password")]
)
def test_token_refuses_bad_credentials(api_client, user, username, password):
    body = {"username": username or user.username, "password": password}

    response = api_client.post(TOKEN, body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"


def test_token_refuses_an_inactive_account(api_client):
    user = UserFactory.create(is_active=False)

    body = {"username": user.username, "password": DEFAULT_PASSWORD}
    response = api_client.post(TOKEN, body, format="json")

    assert response.json()["code"] == "invalid_credentials"


def test_logout_deletes_the_token(user_client, user):
    response = user_client.post(LOGOUT)

    assert response.status_code == 204
    assert not ApiToken.objects.filter(user=user).exists()
    assert user_client.get(f"/api/users/{user.pk}/").status_code == 401


def test_logout_needs_authentication(api_client):
    response = api_client.post(LOGOUT)

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_session_login_for_the_browsable_api(client, user):
    response = client.post(
        "/api-auth/login/", {"username": user.username, "password": DEFAULT_PASSWORD}
    )
    assert response.status_code == 302
    assert response["Location"] == "/api/me/"

    assert client.get(f"/api/users/{user.pk}/").status_code == 200


def test_password_change_replaces_password_and_token(user_client, user, token):
    response = user_client.post(
        PASSWORD_CHANGE,
        {"old_password": DEFAULT_PASSWORD, "new_password": "red-threes-pay-100"},
        format="json",
    )

    assert response.status_code == 200
    new_key = response.json()["token"]
    assert new_key != token
    user.refresh_from_db()
    assert user.check_password("red-threes-pay-100")
    assert user_client.get(f"/api/users/{user.pk}/").status_code == 401  # the old token is gone
    user_client.credentials(HTTP_AUTHORIZATION=f"Token {new_key}")
    assert user_client.get(f"/api/users/{user.pk}/").status_code == 200


def test_password_change_keeps_the_browser_session(client, user):
    client.force_login(user)

    response = client.post(
        PASSWORD_CHANGE,
        {"old_password": DEFAULT_PASSWORD, "new_password": "red-threes-pay-100"},
        content_type="application/json",
    )

    assert response.status_code == 200
    assert client.get(f"/api/users/{user.pk}/").status_code == 200


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("not-my-password", "red-threes-pay-100", "wrong_password"),
        (DEFAULT_PASSWORD, "1234", "weak_password"),
    ],
)
def test_password_change_refusals(user_client, user, old, new, code):
    response = user_client.post(
        PASSWORD_CHANGE, {"old_password": old, "new_password": new}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == code
    user.refresh_from_db()
    assert user.check_password(DEFAULT_PASSWORD)


@pytest.fixture
def tight_auth_rates(monkeypatch):
    # DRF reads the rates once, at import; the test settings switch every scope off.
    monkeypatch.setattr(
        ScopedRateThrottle,
        "THROTTLE_RATES",
        {"auth": "2/min", "register": "2/min", "password_reset": "1/hour"},
    )
    cache.clear()
    yield
    cache.clear()


@pytest.mark.usefixtures("tight_auth_rates")
def test_auth_endpoints_are_throttled(api_client, user):
    body = {"username": user.username, "password": "wrong-password"}
    codes = [api_client.post(TOKEN, body, format="json").status_code for _ in range(3)]

    assert codes == [400, 400, 429]
    response = api_client.post(TOKEN, body, format="json")
    assert response.json()["code"] == "throttled"
    assert "Retry-After" in response


@pytest.mark.usefixtures("tight_auth_rates")
def test_password_reset_has_its_own_tighter_throttle(api_client):
    reset = "/api/auth/password/reset/"
    codes = [
        api_client.post(reset, {"email": "a@example.com"}, format="json").status_code
        for _ in range(2)
    ]

    assert codes == [202, 429]


@pytest.mark.parametrize("taken", ["olga@example.com", "OLGA@Example.com"])
def test_register_refuses_an_email_another_account_uses(api_client, taken):
    UserFactory.create(username="olga_first", email="olga@example.com")

    response = sign_up(api_client, email=taken)

    assert response.status_code == 400
    assert response.json()["code"] == "email_taken"
    assert not User.objects.filter(username="olga").exists()


def test_a_token_expires_and_the_next_log_in_makes_a_new_one(api_client, user, token, settings):
    # Issue #11 finding 11: tokens never expired.
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.get("/api/me/").status_code == 200
    ApiToken.objects.filter(user=user).update(expires_at=timezone.now())

    refused = api_client.get("/api/me/")
    assert refused.status_code == 401
    assert refused.json()["code"] == "authentication_failed"

    fresh = APIClient().post(
        TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json"
    )
    assert fresh.json()["token"] != token
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {fresh.json()['token']}")
    assert api_client.get("/api/me/").status_code == 200


def test_tokens_are_listed_per_device_and_one_is_revoked_without_the_others(api_client, user):
    credentials = {"username": user.username, "password": DEFAULT_PASSWORD}
    keys = {
        device: api_client.post(TOKEN, {**credentials, "device": device}, format="json").json()[
            "token"
        ]
        for device in ("phone", "laptop")
    }
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {keys['phone']}")
    laptop = APIClient()
    laptop.credentials(HTTP_AUTHORIZATION=f"Token {keys['laptop']}")

    listed = laptop.get("/api/auth/tokens/").json()
    assert [(row["device"], row["current"]) for row in listed] == [
        ("laptop", True),
        ("phone", False),
    ]
    assert all(
        set(row) == {"id", "device", "created_at", "last_used_at", "expires_at", "current"}
        for row in listed
    )
    phone_id = listed[1]["id"]

    assert laptop.delete(f"/api/auth/tokens/{phone_id}/").status_code == 204
    assert phone.get("/api/me/").status_code == 401
    assert laptop.get("/api/me/").status_code == 200
    assert laptop.delete(f"/api/auth/tokens/{phone_id}/").status_code == 404


def test_nobody_revokes_another_players_token(user_client, user):
    other = UserFactory.create()
    other_client = APIClient()
    other_client.force_authenticate(other)
    token_id = ApiToken.objects.get(user=user).pk

    response = other_client.delete(f"/api/auth/tokens/{token_id}/")

    assert response.status_code == 404
    assert user_client.get("/api/me/").status_code == 200


def test_log_out_revokes_only_the_token_it_carries(api_client, user, user_client):
    other = api_client.post(
        TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json"
    ).json()["token"]

    assert user_client.post(LOGOUT).status_code == 204

    assert user_client.get("/api/me/").status_code == 401
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {other}")
    assert api_client.get("/api/me/").status_code == 200


def test_expired_tokens_are_purged_by_the_hourly_task(user, token):
    fresh = ApiToken.objects.get(user=user)
    stale = ApiToken.objects.create(
        user=user, digest="0" * 64, created_at=timezone.now(), expires_at=timezone.now()
    )

    assert purge_expired_tokens() == 1
    assert list(ApiToken.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert stale.pk not in ApiToken.objects.values_list("pk", flat=True)
