import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from games.models import Game
from games.services import count_game_over
from moderation import policy
from tests.factories import GameFactory, SeatFactory, UserFactory


def over_game(
    players: list[User],
    *,
    status: str = Game.Status.FINISHED,
    finished_at: Any = None,
    winner_team: int | None = None,
    scores: list[int] | None = None,
) -> Game:
    """A game that is over, players[i] at seat i, counted on their records as the game's end
    counts it (the engine state is irrelevant here)."""
    game = GameFactory.create(
        created_by=players[0],
        rules={},
        status=status,
        finished_at=finished_at or timezone.now(),
        winner_team=winner_team,
        scores=scores or [0, 0],
    )
    seats = [
        SeatFactory.create(game=game, user=player, seat=seat) for seat, player in enumerate(players)
    ]
    count_game_over(game=game, seats=seats)
    return game


def make_veteran(user: User) -> User:
    """Old enough and with enough finished games for their kudos to count."""
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(days=60))
    for _ in range(policy.KUDOS_GIVER_MIN_FINISHED_GAMES):
        over_game([user, *UserFactory.create_batch(3)])
    user.refresh_from_db()
    return user


def client_for(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@dataclass
class Sent:
    user_id: int
    kind: str
    game_id: int | None
    payload: dict[str, Any]
    dedupe_key: str | None


@dataclass
class NotifyRecorder:
    sent: list[Sent] = field(default_factory=list)

    def __call__(self, **kwargs: Any) -> None:
        self.sent.append(
            Sent(
                user_id=kwargs["user_id"],
                kind=kwargs["kind"],
                game_id=kwargs.get("game_id"),
                payload=kwargs.get("payload") or {},
                dedupe_key=kwargs.get("dedupe_key"),
            )
        )

    def of_kind(self, kind: str) -> list[Sent]:
        return [item for item in self.sent if item.kind == kind]


@pytest.fixture
def notifications(monkeypatch: pytest.MonkeyPatch) -> NotifyRecorder:
    """Records moderation's notify() calls (notifications' own tests cover delivery)."""
    recorder = NotifyRecorder()
    for module in ("afterwords", "reports", "sla"):
        monkeypatch.setattr(f"moderation.services.{module}.notify", recorder)
    return recorder


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def players(db: None) -> list[User]:
    return UserFactory.create_batch(4)


@pytest.fixture
def game(players: list[User]) -> Game:
    return over_game(players)


def moderators_group() -> Group:
    # A transactional test's flush empties auth_group: rebuild the data migration's group from
    # the migration's own list rather than relying on serialized rollback.
    migration = importlib.import_module("moderation.migrations.0002_moderators_group")
    group, _ = Group.objects.get_or_create(name=policy.MODERATORS_GROUP)
    group.permissions.set(
        Permission.objects.filter(
            content_type__app_label="moderation", codename__in=migration.GROUP_PERMISSIONS
        )
    )
    return group


def make_group_moderator(user: User, *, reporter_identity: bool = False) -> User:
    """Put an existing user in the Moderators group (optionally seeing reporters)."""
    user.groups.add(moderators_group())
    if reporter_identity:
        user.user_permissions.add(
            Permission.objects.get(
                content_type__app_label="moderation", codename="view_reporter_identity"
            )
        )
    return User.objects.get(pk=user.pk)  # fresh permission cache


@pytest.fixture
def make_moderator(db: None) -> Callable[..., User]:
    def make(*, reporter_identity: bool = False, **fields: Any) -> User:
        return make_group_moderator(
            UserFactory.create(**fields), reporter_identity=reporter_identity
        )

    return make


@pytest.fixture
def moderator(make_moderator: Callable[..., User]) -> User:
    return make_moderator()


def file_report(reporter: User, game: Game, accused: User, **extra: Any) -> Any:
    body = {"game": game.pk, "accused": accused.pk, "reason": "rudeness", "text": "Грубил", **extra}
    return client_for(reporter).post("/api/reports/", body, format="json")
