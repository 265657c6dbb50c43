import pytest
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import issue_token
from tests.factories import UserFactory


@pytest.fixture
def user(db) -> User:
    return UserFactory.create()


@pytest.fixture
def token(user: User) -> str:
    """The key of a new API token of `user`."""
    return issue_token(user=user, device="tests")


@pytest.fixture
def user_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client
