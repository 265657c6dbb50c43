"""Ready for TLS (issue 22, point 4): one switch turns on secure cookies, HSTS and the proxy's
X-Forwarded-Proto; every answer carries a Content-Security-Policy with no inline script and no
foreign origin (the browser suite checks that no page breaks it: tests/web/browser)."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from tests.factories import DEFAULT_PASSWORD, UserFactory
from tests.platform.test_docs_and_settings import run_on_embedded_defaults

pytestmark = pytest.mark.django_db

TLS_SETTINGS = """
import json, django
django.setup()
from django.conf import settings
print(json.dumps({
    "secure": settings.SECURE,
    "session": settings.SESSION_COOKIE_SECURE,
    "csrf": settings.CSRF_COOKIE_SECURE,
    "hsts": settings.SECURE_HSTS_SECONDS,
    "proxy": settings.SECURE_PROXY_SSL_HEADER,
}))
"""


@pytest.mark.parametrize(
    ("env", "secure"),
    [
        ({}, False),
        ({"SITE_URL": "https://club.example.com"}, True),
        ({"SECURE": "true"}, True),
        ({"SITE_URL": "https://club.example.com", "SECURE": "false"}, False),
    ],
)
def test_one_switch_makes_the_club_tls_ready(tmp_path: Path, env: dict, secure: bool) -> None:
    found = run_on_embedded_defaults(TLS_SETTINGS, tmp_path, **env)
    assert found["secure"] is found["session"] is found["csrf"] is secure
    if secure:
        assert found["hsts"] >= 180 * 24 * 3600
        assert found["proxy"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    else:
        assert (found["hsts"], found["proxy"]) == (0, None)


SECURE_ON = {
    "SESSION_COOKIE_SECURE": True,
    "CSRF_COOKIE_SECURE": True,
    "SECURE_HSTS_SECONDS": 31536000,
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
}


@override_settings(**SECURE_ON)
def test_behind_the_https_proxy_cookies_are_secure_and_hsts_is_sent() -> None:
    user = UserFactory.create()
    client = Client(HTTP_X_FORWARDED_PROTO="https")
    page = client.get("/login/")
    assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert page.cookies["csrftoken"]["secure"] is True
    token = page.cookies["csrftoken"].value
    # As nginx passes it on: Host and X-Forwarded-Proto.
    client = Client(
        HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="testserver", enforce_csrf_checks=True
    )
    client.cookies["csrftoken"] = token
    answer = client.post(
        "/login/",
        {"username": user.username, "password": DEFAULT_PASSWORD, "csrfmiddlewaretoken": token},
        HTTP_ORIGIN="https://testserver",
    )
    assert answer.status_code == 302
    assert answer.cookies[settings.SESSION_COOKIE_NAME]["secure"] is True
    # Without the proxy's header the request is plain http: no HSTS on it.
    assert "Strict-Transport-Security" not in Client().get("/login/").headers


def policy(answer) -> dict[str, list[str]]:
    directives = answer.headers["Content-Security-Policy"].split(";")
    return {part.split()[0]: part.split()[1:] for part in (d.strip() for d in directives) if part}


@pytest.mark.parametrize("path", ["/", "/login/", "/api/health/", "/no-such-page/", "/sw.js"])
def test_every_answer_forbids_inline_script_and_foreign_origins(path: str) -> None:
    csp = policy(Client().get(path))
    assert csp["default-src"] == ["'self'"]
    assert csp["script-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["base-uri"] == ["'none'"]
    assert csp["form-action"] == ["'self'"]
    for sources in csp.values():
        assert all(source in ("'self'", "'none'", "data:") for source in sources), sources


def test_the_api_docs_take_inline_styles_only() -> None:
    docs = Client().get("/api/docs/")
    csp = policy(docs)
    assert csp["style-src"] == ["'self'", "'unsafe-inline'"]
    assert csp["script-src"] == ["'self'"]
    assert "<script>" not in docs.content.decode()  # Swagger UI's own script has its URL
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200
    assert "SwaggerUIBundle" in script.content.decode()


TEMPLATES = Path(__file__).resolve().parents[2] / "web" / "templates"


def test_no_template_has_inline_script_style_or_handlers() -> None:
    import re

    inline = re.compile(
        r"<script(?![^>]*\b(src=|type=\"application/json\"))[^>]*>|\sstyle=|\son[a-z]+=|<style"
    )
    found = {
        str(path.relative_to(TEMPLATES)): inline.findall(path.read_text(encoding="utf-8"))
        for path in TEMPLATES.rglob("*.html")
    }
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_service_worker_is_served_as_a_script() -> None:
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith(("application/javascript", "text/javascript"))
    assert json.dumps("push") in answer.content.decode()


@pytest.mark.parametrize(
    "path",
    [
        "/static/web/vendor/playing-cards-0.5.0/QS.svg",
        "/static/web/club.css",
        "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
    ],
)
def test_static_files_carry_the_pages_policy(path: str) -> None:
    """whitenoise answers them before the CSP middleware (club/static_files.py); an SVG
    card opened by itself is a document the policy holds."""
    with override_settings(WHITENOISE_USE_FINDERS=True):  # the tests have nothing collected
        answer = Client().get(path)
    pages_policy = Client().get("/").headers["Content-Security-Policy"]
    assert answer.status_code == 200
    assert answer.headers["Content-Security-Policy"] == pages_policy
