from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from moderation.services import recompute_authority


class Command(BaseCommand):
    help = "Recompute accounts.User.authority from moderation's Authority change rows."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", type=int, action="append", dest="user_ids", help="user id")

    def handle(self, *args: Any, **options: Any) -> None:
        fixed = recompute_authority(user_ids=options["user_ids"])
        self.stdout.write(f"Authority recomputed; {fixed} user(s) corrected.")
