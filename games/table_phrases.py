"""The table's phrases (issue 37): a short fixed list a seated player says to the whole table.

Never free text, never to one player alone: nothing can pass between partners that the
opponents do not read, and no phrase names a card or a hand. Each is shown by its speaker's
seat for SHOWN_FOR and in the move log; a player says at most one every PHRASE_INTERVAL, and
may mute the others' phrases (`User.phrases_muted`). Said through games.services.say_phrase.
"""

from datetime import timedelta

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


def phrase_text(key: str) -> str:
    """The phrase in the current language."""
    return text(*PHRASES[key])


def catalogue() -> list[dict[str, str]]:
    """Every phrase, `{"key", "text"}` in the current language, in the menu's order."""
    return [{"key": key, "text": phrase_text(key)} for key in PHRASES]
