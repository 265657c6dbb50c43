"""Shared model factories: append yours, keep the others'."""

import factory
from django.contrib.auth.hashers import make_password

from accounts.models import User

DEFAULT_PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    display_name = factory.LazyAttribute(lambda user: user.username.title())
    password = factory.LazyFunction(lambda: make_password(DEFAULT_PASSWORD))
