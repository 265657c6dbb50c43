import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from tests.factories import UserFactory


@pytest.fixture
def user(db) -> User:
    return UserFactory.create()


@pytest.fixture
def token(user: User) -> Token:
    return Token.objects.create(user=user)


@pytest.fixture
def user_client(token: Token) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
