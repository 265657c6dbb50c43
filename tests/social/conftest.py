from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from accounts.models import User


@pytest.fixture
def client_for() -> Callable[[User], APIClient]:
    def make(user: User) -> APIClient:
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make
