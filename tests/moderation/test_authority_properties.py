"""Property: whatever kudos players exchange, and however time passes, Authority stays the sum
of its rows, a pair never counts more than the monthly limit, and a fresh account's kudos never
count before it is a week old."""

from datetime import timedelta

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from club import clock
from moderation import policy, services
from moderation.models import AuthorityChange
from tests.factories import UserFactory
from tests.moderation.conftest import make_veteran, over_game

pytestmark = pytest.mark.django_db

VETERANS, NEWCOMERS = 3, 2

kudos_steps = st.lists(
    st.tuples(
        st.integers(0, VETERANS + NEWCOMERS - 1),  # giver
        st.integers(0, VETERANS + NEWCOMERS - 1),  # partner
        st.integers(0, 12),  # days that pass before this game
    ).filter(lambda step: step[0] != step[1]),
    max_size=8,
)


@pytest.fixture
def cast() -> list[User]:
    veterans = [make_veteran(UserFactory.create()) for _ in range(VETERANS)]
    return veterans + UserFactory.create_batch(NEWCOMERS)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=kudos_steps)
def test_kudos_cannot_be_farmed(cast: list[User], steps: list[tuple[int, int, int]]) -> None:
    for giver_index, partner_index, days in steps:
        clock.advance(timedelta(days=days))
        giver, partner = cast[giver_index], cast[partner_index]
        game = over_game(
            [giver, UserFactory.create(), partner, UserFactory.create()], finished_at=clock.now()
        )
        services.create_afterword(game_id=game.pk, author=giver, to="partner", text="Спасибо!")

    for user in User.objects.filter(pk__in=[u.pk for u in cast]):
        rows = AuthorityChange.objects.filter(user=user).aggregate(total=Sum("amount"))["total"]
        assert user.authority == (rows or 0)
    # Newcomers grow up as the clock runs on (and they play): never before they are a week old.
    for newcomer in cast[VETERANS:]:
        assert not AuthorityChange.objects.filter(
            giver=newcomer,
            amount__gt=0,
            created_at__lt=newcomer.date_joined + policy.KUDOS_GIVER_MIN_ACCOUNT_AGE,
        ).exists()
    counted = list(
        AuthorityChange.objects.filter(kind="kudos", amount__gt=0).values_list(
            "giver_id", "user_id", "created_at"
        )
    )
    for giver_id, user_id, at in counted:
        same_pair_in_window = [
            other_at
            for g, u, other_at in counted
            if {g, u} == {giver_id, user_id} and at - policy.KUDOS_PAIR_PERIOD < other_at <= at
        ]
        assert len(same_pair_in_window) <= policy.KUDOS_PAIR_LIMIT
