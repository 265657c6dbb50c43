from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games.signals import game_over
        from tournaments.services import live

        # The end of a tournament's game moves its page on (tournaments.services.live).
        game_over.connect(live.game_over, dispatch_uid="tournaments.live.game_over")
