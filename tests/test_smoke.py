import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve


@pytest.mark.django_db
def test_schema_is_served(api_client):
    response = api_client.get("/api/schema/")
    assert response.status_code == 200


@pytest.mark.django_db
def test_unknown_url_answers_json_404(api_client):
    response = api_client.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_every_api_path_is_its_own_apps_whatever_order_the_apps_come_in():
    # canasta_club/urls.py puts the games' API first (a program's every read and move): that
    # holds only while no other app's API path is one of theirs.
    root = get_resolver()
    for include in root.url_patterns:
        if not isinstance(include, URLResolver) or str(include.pattern) != "api/":
            continue
        for pattern in include.url_patterns:
            assert isinstance(pattern, URLPattern)
            path = "/api/" + re.sub(r"<[^>]+>", "7", str(pattern.pattern))
            assert resolve(path).url_name == pattern.name, path
