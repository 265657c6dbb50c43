import time
from typing import Any

from django.core.management.base import BaseCommand

from games.services.rating import rate_finished_games
from ratings.services import refresh_leaderboards


class Command(BaseCommand):
    help = (
        "Rate the rated games over that have no ratings yet, pool by pool in the order they "
        "ended (a pool where some ended before a game already rated is rated again from its "
        "first game); then refresh the leaderboards. Run it once after the migration that "
        "brings ratings, before the servers start; running it again rates nothing twice."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        for pool, done in rate_finished_games().items():
            again = " (the pool rated again from its first game)" if done.rebuilt else ""
            self.stdout.write(f"{pool}: {done.games} game(s) rated{again}.")
        refreshed = refresh_leaderboards()
        self.stdout.write(
            f"{len(refreshed)} leaderboard(s) refreshed; {time.monotonic() - started:.1f} s."
        )
