"""Preset warm phrases for afterwords, in both of the club's languages."""

from typing import TypedDict


class WarmPhrase(TypedDict):
    key: str
    ru: str
    en: str


WARM_PHRASES: tuple[WarmPhrase, ...] = (
    {"key": "thanks", "ru": "Спасибо за игру!", "en": "Thanks for the game!"},
    {"key": "great_partner", "ru": "Отличный партнёр!", "en": "A great partner!"},
    {"key": "good_canasta", "ru": "Какая была канаста!", "en": "What a canasta that was!"},
    {"key": "calm", "ru": "С вами спокойно играть.", "en": "You are a calm player to sit with."},
    {
        "key": "next_time",
        "ru": "Не повезло с картой, в следующий раз получится.",
        "en": "Bad cards this time, next time it will work out.",
    },
    {"key": "again", "ru": "Сыграем ещё?", "en": "Play again sometime?"},
)
