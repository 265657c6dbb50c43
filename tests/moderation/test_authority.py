"""Authority (R-CLUB-3): kudos raise it, farming does not, an upheld report lowers it; auditable."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from club import clock
from games.models import Game
from moderation import policy, services
from moderation.models import AuthorityChange
from tests.factories import UserFactory
from tests.moderation.conftest import NotifyRecorder, client_for, make_veteran, over_game

pytestmark = pytest.mark.django_db


def thank_partner(giver: User, game: Game) -> int:
    response = client_for(giver).post(
        f"/api/games/{game.pk}/afterwords/", {"to": "partner", "text": "Спасибо!"}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def authority_of(user: User) -> int:
    return User.objects.values_list("authority", flat=True).get(pk=user.pk)


def test_kudos_from_a_seasoned_player_raise_the_partners_authority(
    notifications: NotifyRecorder,
) -> None:
    giver, partner = make_veteran(UserFactory.create()), UserFactory.create()
    game = over_game([giver, UserFactory.create(), partner, UserFactory.create()])

    afterword_id = thank_partner(giver, game)

    assert authority_of(partner) == policy.KUDOS_POINTS
    change = AuthorityChange.objects.get(afterword_id=afterword_id)
    assert (change.user, change.giver, change.amount, change.kind, change.reason) == (
        partner,
        giver,
        policy.KUDOS_POINTS,
        "kudos",
        "counted",
    )


def test_table_words_are_not_kudos() -> None:
    giver = make_veteran(UserFactory.create())
    others = UserFactory.create_batch(3)
    game = over_game([giver, *others])

    client_for(giver).post(
        f"/api/games/{game.pk}/afterwords/", {"to": "table", "text": "Всем спасибо"}, format="json"
    )

    assert not AuthorityChange.objects.exists()
    assert all(authority_of(user) == 0 for user in others)


def test_a_brand_new_account_gives_kudos_that_do_not_count_yet() -> None:
    giver, partner = UserFactory.create(), UserFactory.create()
    make_veteran(giver)
    User.objects.filter(pk=giver.pk).update(date_joined=timezone.now() - timedelta(days=6))
    game = over_game([giver, UserFactory.create(), partner, UserFactory.create()])

    afterword_id = thank_partner(giver, game)

    assert authority_of(partner) == 0
    change = AuthorityChange.objects.get(afterword_id=afterword_id)
    assert (change.amount, change.reason) == (0, "giver_too_new")


def test_a_player_with_few_finished_games_gives_kudos_that_do_not_count_yet() -> None:
    giver, partner = UserFactory.create(), UserFactory.create()
    User.objects.filter(pk=giver.pk).update(date_joined=timezone.now() - timedelta(days=60))
    for _ in range(policy.KUDOS_GIVER_MIN_FINISHED_GAMES - 2):
        over_game([giver, *UserFactory.create_batch(3)])
    # Abandoned games are not finished games.
    over_game([giver, *UserFactory.create_batch(3)], status=Game.Status.ABANDONED)
    game = over_game(
        [giver, UserFactory.create(), partner, UserFactory.create()]
    )  # 4 finished in all

    afterword_id = thank_partner(giver, game)

    assert authority_of(partner) == 0
    assert AuthorityChange.objects.get(afterword_id=afterword_id).reason == "giver_few_games"


def test_a_pair_counts_only_a_few_times_a_month_in_either_direction() -> None:
    alice, bob = make_veteran(UserFactory.create()), make_veteran(UserFactory.create())

    for round_ in range(policy.KUDOS_PAIR_LIMIT + 2):
        game = over_game([alice, UserFactory.create(), bob, UserFactory.create()])
        thank_partner(alice if round_ % 2 == 0 else bob, game)

    counted = AuthorityChange.objects.filter(reason="counted").count()
    assert counted == policy.KUDOS_PAIR_LIMIT
    assert authority_of(alice) + authority_of(bob) == policy.KUDOS_PAIR_LIMIT * policy.KUDOS_POINTS
    assert AuthorityChange.objects.filter(reason="pair_limit").count() == 2


def test_the_pair_counts_again_after_the_period() -> None:
    alice, bob = make_veteran(UserFactory.create()), make_veteran(UserFactory.create())
    for _ in range(policy.KUDOS_PAIR_LIMIT):
        thank_partner(alice, over_game([alice, UserFactory.create(), bob, UserFactory.create()]))
    assert authority_of(bob) == policy.KUDOS_PAIR_LIMIT

    clock.advance(policy.KUDOS_PAIR_PERIOD + timedelta(days=1))
    game = over_game(
        [alice, UserFactory.create(), bob, UserFactory.create()], finished_at=clock.now()
    )
    thank_partner(alice, game)

    assert authority_of(bob) == policy.KUDOS_PAIR_LIMIT + policy.KUDOS_POINTS


def test_at_most_one_kudos_per_giver_per_game() -> None:
    giver, partner = make_veteran(UserFactory.create()), UserFactory.create()
    game = over_game([giver, UserFactory.create(), partner, UserFactory.create()])
    thank_partner(giver, game)

    again = client_for(giver).post(
        f"/api/games/{game.pk}/afterwords/", {"to": "partner", "text": "И ещё!"}, format="json"
    )

    assert again.status_code == 409
    assert authority_of(partner) == policy.KUDOS_POINTS


def test_a_ring_of_fresh_accounts_cannot_farm_authority() -> None:
    """Four new accounts play each other over and over and thank each other every time."""
    ring = UserFactory.create_batch(4)
    for _ in range(8):
        game = over_game(ring)
        for player in ring:
            thank_partner(player, game)

    assert all(authority_of(player) == 0 for player in ring)
    assert AuthorityChange.objects.filter(amount__gt=0).count() == 0


def test_recompute_restores_the_sum_of_the_rows() -> None:
    giver, partner = make_veteran(UserFactory.create()), UserFactory.create()
    thank_partner(giver, over_game([giver, UserFactory.create(), partner, UserFactory.create()]))
    User.objects.filter(pk=partner.pk).update(authority=999)
    User.objects.filter(pk=giver.pk).update(authority=-5)

    corrected = services.recompute_authority()

    assert corrected == 2
    assert authority_of(partner) == policy.KUDOS_POINTS
    assert authority_of(giver) == 0
    assert services.recompute_authority() == 0


def test_recompute_command(capsys: pytest.CaptureFixture[str]) -> None:
    user = UserFactory.create()
    User.objects.filter(pk=user.pk).update(authority=7)

    call_command("recompute_authority", "--user", str(user.pk))

    assert authority_of(user) == 0
    assert "1 user(s) corrected" in capsys.readouterr().out


def test_club_mood_is_public() -> None:
    giver = make_veteran(UserFactory.create())
    game = over_game([giver, *UserFactory.create_batch(3)])
    thank_partner(giver, game)
    finished_recently = Game.objects.filter(status="finished").count()

    response = client_for(giver).get("/api/club/mood/")
    anonymous = type(client_for(giver))().get("/api/club/mood/")

    assert anonymous.status_code == 200
    assert response.json() == {
        "days": 7,
        "warm_words": 1,
        "finished_games": finished_recently,
        "warm_words_per_game": round(1 / finished_recently, 2),
    }
