from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        from games.selectors.presence import players_at_table
        from notifications import at_table

        # Notifications know nothing of games: this tells them who is at the table.
        at_table.register(players_at_table)
