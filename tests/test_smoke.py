import pytest


@pytest.mark.django_db
def test_schema_is_served(api_client):
    response = api_client.get("/api/schema/")
    assert response.status_code == 200
