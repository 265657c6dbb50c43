"""The 80 % turn reminder of async games (games.services.timeouts.sweep_turn_reminders)."""

from datetime import timedelta

import pytest

from club import clock
from games.models import TurnReminder
from games.services.timeouts import sweep_turn_reminders
from notifications.models import Notification
from notifications.services import drain_outbox
from tests.factories import started_game
from tests.timing.conftest import turn_of, user_at

pytestmark = pytest.mark.django_db


def test_reminder_at_80_percent_of_the_turn_once_per_turn():
    game = started_game()
    player = user_at(game, turn_of(game))
    clock.advance(timedelta(hours=19))
    assert sweep_turn_reminders() == 0
    clock.advance(timedelta(minutes=13))  # 19 h 13 min > 80 % of 24 h
    assert sweep_turn_reminders() == 1
    assert sweep_turn_reminders() == 0
    drain_outbox()
    assert Notification.objects.filter(user=player, kind="turn_reminder").count() == 1
    assert TurnReminder.objects.filter(game=game).count() == 1


def test_live_games_get_no_reminders():
    started_game(mode="live")
    clock.advance(timedelta(seconds=25))
    assert sweep_turn_reminders() == 0
