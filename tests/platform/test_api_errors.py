"""The API's parser, pagination and error pages: bad input is a 4xx in the error shape, in the
caller's language, never a 500 or an HTML page."""

from typing import cast

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def player_client(api_client):
    user = UserFactory()
    api_client.force_authenticate(user)
    return api_client


def _post_raw(client, path, body, **extra):
    return client.generic("POST", path, body, content_type="application/json", **extra)


def test_deeply_nested_json_is_malformed_json_in_the_callers_language(player_client):
    body = b'{"a":' + b"[" * 5000 + b"]" * 5000 + b"}"

    russian = _post_raw(player_client, "/api/games/", body)
    english = _post_raw(player_client, "/api/games/", body, **ENGLISH)

    assert russian.status_code == english.status_code == 400
    assert russian.json()["code"] == english.json()["code"] == "malformed_json"
    assert "JSON" in russian.json()["detail"] and "некорректный" in russian.json()["detail"]
    assert english.json()["detail"].startswith("Malformed JSON body")


@pytest.mark.parametrize(
    "body",
    [
        b'{"mode": ',
        b'{"a": NaN}',
        b"\xff\xfe not utf-8",
        b'{"a":' + b"[" * 40 + b"]" * 40 + b"}",
    ],
    ids=["truncated", "nan", "bad-bytes", "nested-40"],
)
def test_undecodable_bodies_are_400_malformed_json(player_client, body):
    response = _post_raw(player_client, "/api/games/", body)

    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"


@pytest.mark.parametrize("charset", ["no-such-charset", "utf-16", "utf-32"])
def test_a_body_not_in_its_charset_is_never_a_500(player_client, charset):
    # Django ignores an unknown charset (the body is read as UTF-8).
    response = player_client.generic(
        "POST", "/api/games/", b'{"mode": 1}', content_type=f"application/json; charset={charset}"
    )

    assert response.status_code == 400
    assert response.json()["code"] in {"malformed_json", "invalid"}


def test_a_json_body_over_the_upload_limit_is_413(player_client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = _post_raw(player_client, "/api/games/", b'{"mode": "' + b"x" * 2000 + b'"}')

    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"


def test_the_api_takes_json_only(player_client):
    response = player_client.post("/api/games/", {"mode": "async"}, format="multipart")

    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    assert "JSON" in response.json()["detail"]


@pytest.mark.parametrize(
    "query",
    [
        "limit=9223372036854775808",
        "limit=1e20",
        "offset=9223372036854775808",
        "limit=9223372036854775807&offset=9223372036854775807",
        "limit=-1&offset=-5",
    ],
)
@pytest.mark.parametrize("path", ["/api/notifications/", "/api/games/"])
def test_huge_or_odd_limits_and_offsets_are_clamped(player_client, query, path):
    response = player_client.get(f"{path}?{query}")

    assert response.status_code == 200
    assert isinstance(response.json()["results"], list)


def test_the_page_size_is_at_most_200(player_client):
    from club.api import Pagination

    assert Pagination.max_limit == 200
    response = player_client.get("/api/notifications/?limit=100000")

    assert response.status_code == 200
    assert "limit=200" in (response.json()["next"] or "limit=200")


def test_a_path_without_its_trailing_slash_is_a_json_404_not_a_redirect(player_client):
    response = player_client.post("/api/games", {"mode": "async"}, format="json")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "Не найдено."}


def test_unknown_paths_and_objects_are_404_in_the_callers_language(player_client):
    assert player_client.get("/api/no-such-thing/", **ENGLISH).json() == {
        "code": "not_found",
        "detail": "Not found.",
    }
    missing_user = player_client.get("/api/users/987654321/")
    assert missing_user.status_code == 404
    assert missing_user.json() == {"code": "not_found", "detail": "Не найдено."}


def test_invalid_input_detail_follows_the_language(player_client):
    russian = player_client.post("/api/games/", {"mode": "blitz"}, format="json")
    english = player_client.post("/api/games/", {"mode": "blitz"}, format="json", **ENGLISH)

    assert russian.json()["code"] == english.json()["code"] == "invalid"
    assert russian.json()["detail"] == "Некорректные данные: см. errors."
    assert english.json()["detail"] == "Invalid input: see errors."
    assert "mode" in russian.json()["errors"]


def test_drf_refusals_follow_the_language(api_client):
    russian = api_client.get("/api/me/")
    english = api_client.get("/api/me/", **ENGLISH)
    assert russian.json()["code"] == "not_authenticated"
    assert "авторизация" in russian.json()["detail"]
    assert english.json()["detail"].startswith("Authentication required")

    api_client.force_authenticate(UserFactory())
    refused = api_client.delete("/api/me/", **ENGLISH)
    assert refused.status_code == 405
    assert refused.json() == {
        "code": "method_not_allowed",
        "detail": "Method DELETE is not allowed here.",
    }


def test_a_bad_host_header_is_a_json_400():
    response = Client().get("/api/health/", HTTP_HOST="evil.example.com")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "bad_request"


def test_a_form_body_over_the_upload_limit_is_a_json_413(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = Client().post("/api-auth/login/", {"username": "x" * 2000, "password": "y"})

    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"


def test_a_csrf_failure_is_a_json_403():
    response = Client(enforce_csrf_checks=True).post(
        "/api-auth/login/", {"username": "a", "password": "b"}, HTTP_ACCEPT_LANGUAGE="en"
    )

    assert response.status_code == 403
    assert response.json()["code"] == "csrf_failed"
    assert response.json()["detail"].startswith("CSRF check failed")


def test_a_session_request_without_the_csrf_token_is_csrf_failed():
    client = APIClient(enforce_csrf_checks=True)
    user = cast(User, UserFactory())
    client.force_login(user)

    response = client.post("/api/auth/logout/")

    assert response.status_code == 403
    assert response.json()["code"] == "csrf_failed"
    assert "CSRF" in response.json()["detail"]


def test_the_admin_still_answers_at_its_slashed_address():
    client = Client()
    assert client.get("/admin/login/").status_code == 200
    assert client.get("/admin/").status_code == 302


def test_service_refusals_follow_the_language(player_client):
    path = "/api/me/notification-settings/"
    russian = player_client.patch(path, {"bogus": True}, format="json")
    english = player_client.patch(path, {"bogus": True}, format="json", **ENGLISH)

    assert russian.json() == {"code": "unknown_field", "detail": "Неизвестное поле: bogus"}
    assert english.json() == {"code": "unknown_field", "detail": "Unknown field: bogus"}


def test_every_kind_of_club_error_answers_with_its_status_and_the_error_shape():
    from club import errors

    kinds = {
        errors.Invalid: 400,
        errors.Forbidden: 403,
        errors.NotFound: 404,
        errors.Conflict: 409,
        errors.KeyReused: 422,
        errors.LimitReached: 429,
    }
    assert set(kinds) == set(errors.ClubError.__subclasses__())
    for kind, status in kinds.items():
        response = errors.api_exception_handler(kind("some_code", "Текст.", version=3), {})
        assert response is not None
        assert (response.status_code, response.data) == (
            status,
            {"code": "some_code", "detail": "Текст.", "version": 3},
        )


def test_seventy_thousand_ids_to_mark_read_are_refused_not_a_500(player_client):
    # Issue #11 finding 8: "number of parameters must be between 0 and 65535".
    response = player_client.post(
        "/api/notifications/read/", {"ids": list(range(1, 70_001))}, format="json"
    )

    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"


def test_the_ids_to_mark_read_are_bounded_by_the_field(player_client):
    response = player_client.post(
        "/api/notifications/read/", {"ids": list(range(1, 502))}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "ids" in response.json()["errors"]


def test_a_long_list_inside_a_free_form_object_is_refused(player_client):
    rules = {"target": 5000, "extra": list(range(5000))}
    response = player_client.post(
        "/api/games/", {"mode": "async", "length": "deal", "rules": rules}, format="json"
    )

    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"
