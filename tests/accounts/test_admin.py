import pytest

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(client):
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    return client


def test_user_admin_pages_render(admin_client_):
    player = UserFactory.create(display_name="Ольга")

    assert admin_client_.get("/admin/accounts/user/?q=Ольга").status_code == 200
    assert admin_client_.get("/admin/accounts/user/add/").status_code == 200
    change = admin_client_.get(f"/admin/accounts/user/{player.pk}/change/")
    assert change.status_code == 200
    assert b"display_name" in change.content
    assert admin_client_.get("/admin/accounts/apitoken/").status_code == 200


def test_user_admin_adds_a_user(admin_client_):
    response = admin_client_.post(
        "/admin/accounts/user/add/",
        {
            "username": "newbie",
            "email": "newbie@example.com",
            "display_name": "Новичок",
            "usable_password": "true",
            "password1": "queen-of-spades-7",
            "password2": "queen-of-spades-7",
        },
    )

    assert response.status_code == 302
    user = User.objects.get(username="newbie")
    assert user.display_name == "Новичок"
    assert user.check_password("queen-of-spades-7")
