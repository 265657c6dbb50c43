"""A tournament's page follows it live: every change the page shows (an entry in or out, a
round started or ended, a game of it over) moves `Tournament.version` and announces it, after
commit, on the tournament's channel of games.live, the table pages' pub/sub. The page then
fetches its fragment (ETag: the version), or polls it where no stream is served.

A game's end comes from the games as their `game_over` signal (the games know nothing of
tournaments); the tournament's own changes call `changed_locked` on the row they locked.
"""

from typing import Any

from django.db.models import F

from games import live
from games.models import Game
from tournaments.models import Tournament

TOPIC = "tournament"


def changed_locked(tournament: Tournament) -> None:
    """The (locked) tournament changed in what its page shows: its next version, announced
    once the caller's transaction commits."""
    tournament.version += 1
    tournament.save(update_fields=["version"])
    live.announce_topic_after_commit(topic=TOPIC, key=tournament.pk, version=tournament.version)


def game_over(sender: Any, *, game: Game, **kwargs: Any) -> None:
    """games.signals.game_over: a game the tournament arranged is over, in the transaction that
    ended it (which holds the game's row; the tournament's is taken for the one update)."""
    if game.tournament is None:
        return
    tournament_id = int(game.tournament["id"])
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    version = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    if version is not None:
        live.announce_topic_after_commit(topic=TOPIC, key=tournament_id, version=version)
