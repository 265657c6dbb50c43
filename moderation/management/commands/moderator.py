from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from moderation.services import appoint_moderator, dismiss_moderator


class Command(BaseCommand):
    help = (
        "Appoint or dismiss a moderator: the Moderators group plus the staff flag the admin "
        "needs; --reveal-reporters also lets them see who filed a report."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["add", "remove"])
        parser.add_argument("username")
        parser.add_argument("--reveal-reporters", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username__iexact=options["username"]).first()
        if user is None:
            raise CommandError(f"No user {options['username']!r}.")
        if options["action"] == "add":
            appoint_moderator(user=user, reveal_reporters=options["reveal_reporters"])
            self.stdout.write(f"{user.username} is a moderator.")
        else:
            dismiss_moderator(user=user)
            self.stdout.write(f"{user.username} is no longer a moderator.")
