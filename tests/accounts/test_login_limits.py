"""Failed log-in limits (accounts/login_limits.py): one place, every password check.

Finding 1 of issue #11 (a made-up X-Forwarded-For per request: 60 wrong passwords in a row) and
finding 5 (/admin/login/ not limited at all).
"""

import threading

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from rest_framework.test import APIClient

from accounts import login_limits
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

TOKEN = "/api/auth/token/"
LIMITS = {
    "address_failures": 6,
    "account_failures": 3,
    "window_seconds": 900,
    "backoff_max_seconds": 60,
    "known_address_days": 30,
}


class FrozenTime:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> FrozenTime:
    frozen = FrozenTime()
    monkeypatch.setattr(login_limits, "time", frozen)
    return frozen


@pytest.fixture(autouse=True)
def limits():
    cache.clear()
    with override_settings(LOGIN_LIMITS=LIMITS):
        yield
    cache.clear()


def token_status(username, password, address="10.0.0.1", forwarded=None):
    headers = {"REMOTE_ADDR": address}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    response = APIClient().post(
        TOKEN, {"username": username, "password": password}, format="json", **headers
    )
    return response.status_code, response.json().get("code")


def test_forged_forwarded_addresses_do_not_escape_the_address_limit(clock):
    codes = [token_status(f"user{n}", "wrong", forwarded=f"203.0.113.{n}")[0] for n in range(8)]

    assert codes == [400] * 6 + [429] * 2


@override_settings(NUM_PROXIES=1)
def test_behind_a_proxy_the_address_it_appended_is_the_client(clock):
    for n in range(6):
        # The client forged the first entry; our proxy appended 198.51.100.7.
        token_status(f"user{n}", "wrong", forwarded=f"203.0.113.{n}, 198.51.100.7")

    assert token_status("other", "wrong", forwarded="1.2.3.4, 198.51.100.7") == (429, "throttled")
    assert token_status("other", "wrong", forwarded="198.51.100.8")[0] == 400


def test_a_distributed_guess_at_one_account_backs_off(clock):
    user = UserFactory.create()
    for n in range(3):
        assert token_status(user.username, "wrong", address=f"10.1.0.{n}")[0] == 400

    # The fourth failure had to wait a second after the third, from any new address.
    assert token_status(user.username, "wrong", address="10.1.0.9") == (429, "throttled")
    # Refused unchecked: even the right password, so nothing is learnt while waiting.
    assert token_status(user.username, DEFAULT_PASSWORD, address="10.1.0.10")[0] == 429
    clock.now += 1
    assert token_status(user.username, "wrong", address="10.1.0.11")[0] == 400
    clock.now += 1
    assert token_status(user.username, "wrong", address="10.1.0.12")[0] == 429
    clock.now += 1
    assert token_status(user.username, DEFAULT_PASSWORD, address="10.1.0.13")[0] == 200


def test_the_backoff_is_capped_so_the_owner_is_never_locked_out_for_long(clock):
    user = UserFactory.create()
    for n in range(30):
        token_status(user.username, "wrong", address=f"10.2.{n}.1")
        clock.now += 61

    assert token_status(user.username, DEFAULT_PASSWORD, address="10.3.0.1")[0] == 200


def test_the_owner_skips_the_account_backoff_from_an_address_they_logged_in_from(clock):
    user = UserFactory.create()
    assert token_status(user.username, DEFAULT_PASSWORD, address="10.4.0.1")[0] == 200
    for n in range(5):
        token_status(user.username, "wrong", address=f"10.5.0.{n}")

    assert token_status(user.username, "wrong", address="10.5.0.9")[0] == 429
    assert token_status(user.username, DEFAULT_PASSWORD, address="10.4.0.1")[0] == 200


def test_the_admin_log_in_is_limited(clock):
    staff = UserFactory.create(is_staff=True)
    client = Client(REMOTE_ADDR="10.6.0.1")
    form = {"username": staff.username, "password": "wrong", "next": "/admin/"}
    for _ in range(6):
        client.post("/admin/login/", form)

    response = client.post("/admin/login/", {**form, "password": DEFAULT_PASSWORD})

    assert response.status_code == 200  # the form again: not logged in
    assert "Too many failed log-in attempts" in response.content.decode() or (
        "Слишком много неудачных попыток входа" in response.content.decode()
    )
    assert client.get("/admin/").status_code == 302


def test_the_browsable_api_log_in_is_limited_and_answers_429(clock):
    user = UserFactory.create()
    client = Client(REMOTE_ADDR="10.7.0.1")
    codes = [
        client.post("/api-auth/login/", {"username": user.username, "password": "x"}).status_code
        for _ in range(4)
    ]

    assert codes == [200, 200, 200, 429]


def test_a_password_change_counts_and_is_limited(clock):
    user = UserFactory.create()
    client = APIClient(REMOTE_ADDR="10.8.0.1")
    client.force_authenticate(user)
    change = "/api/auth/password/change/"
    body = {"old_password": "wrong", "new_password": "a-new-long-password-9"}
    codes = [client.post(change, body, format="json").status_code for _ in range(4)]

    assert codes == [400, 400, 400, 429]
    assert token_status(user.username, DEFAULT_PASSWORD, address="10.8.0.2")[0] == 429


def test_parallel_failures_all_count(clock):
    # Counted with the cache's atomic increment: a burst of parallel guesses is not one guess.
    def fail() -> None:
        login_limits.record_failure(request=None, username="target")

    threads = [threading.Thread(target=fail) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert cache.get(login_limits._account_keys("target")[0]) == 50
    assert cache.get(login_limits._address_keys("")[0]) == 50
