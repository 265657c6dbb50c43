import pytest


@pytest.mark.django_db
def test_schema_is_served(api_client):
    response = api_client.get("/api/schema/")
    assert response.status_code == 200


@pytest.mark.django_db
def test_unknown_url_answers_json_404(api_client):
    response = api_client.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
