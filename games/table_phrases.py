"""The table's phrases (issue 37): a short fixed list a seated player says to the whole table.

Never free text, never to one player alone: nothing can pass between partners that the
opponents do not read, and no phrase names a card or a hand. Each is shown by its speaker's
seat for SHOWN_FOR and in the move log; a player says at most one every PHRASE_INTERVAL, and
may mute the others' phrases (`User.phrases_muted`). Said through games.services.say_phrase.
"""

from datetime import timedelta

from django.core.cache import cache

from club.i18n import text

# key -> (Russian, English), in the order the table's menu offers them.
PHRASES: dict[str, tuple[str, str]] = {
    "hello": ("Привет!", "Hello!"),
    "good_luck": ("Удачи!", "Good luck!"),
    "thanks": ("Спасибо!", "Thanks!"),
    "well_played": ("Хорошо сыграно!", "Well played!"),
    "sorry": ("Извините!", "Sorry!"),
    "one_moment": ("Минутку…", "One moment…"),
    "im_back": ("Я снова здесь.", "I'm back."),
    "good_game": ("Хорошая игра!", "Good game!"),
    "another_game": ("Ещё партию?", "Another game?"),
    "bye": ("До встречи!", "See you!"),
}
# A player says at most one phrase this often (anywhere in the club).
PHRASE_INTERVAL = timedelta(seconds=5)
# How long a phrase stays by its speaker's seat.
SHOWN_FOR = timedelta(seconds=10)
# The latest phrases a game's answer and its table carry.
LATEST = 20
# Most games have no phrase: the shared cache says so for this long after a read found none,
# so the game's every read (polled by programs) costs a cache read instead of a query.
SILENT_SECONDS = 60


def phrase_text(key: str) -> str:
    """The phrase in the current language."""
    return text(*PHRASES[key])


def catalogue() -> list[dict[str, str]]:
    """Every phrase, `{"key", "text"}` in the current language, in the menu's order."""
    return [{"key": key, "text": phrase_text(key)} for key in PHRASES]


def _silence_key(game_id: int) -> str:
    return f"games:silent-table:{game_id}"


def is_silent(game_id: int) -> bool:
    """Known to have no phrase (the cache's word; a miss or an outage is not knowing)."""
    return cache.get(_silence_key(game_id)) is True


def found_silent(game_id: int) -> None:
    """A read found no phrase: said so unless a phrase was said meanwhile (`add` keeps the
    speaker's mark, `spoken`, and a mark made after the add replaces it)."""
    cache.add(_silence_key(game_id), True, SILENT_SECONDS)


def spoken(game_id: int) -> None:
    """A phrase is being said: no read takes the table for silent from now on (marked before
    the phrase commits, so a read racing it cannot mark it silent after)."""
    cache.set(_silence_key(game_id), False, SILENT_SECONDS)
