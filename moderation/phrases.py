"""Preset warm phrases for afterwords, in both of the club's languages."""

from typing import TypedDict

from canasta_club import i18n
from moderation import policy
from moderation.models import AuthorityChange


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


def kudos_outcome(reason: str) -> str:
    """Why a kudos did or did not raise the partner's Authority, in the request's language."""
    messages: dict[str, str] = {
        AuthorityChange.Reason.COUNTED: i18n.text(
            "Спасибо засчитано: Авторитет партнёра вырос.",
            "Your kudos counted: your partner's Authority went up.",
        ),
        AuthorityChange.Reason.GIVER_TOO_NEW: i18n.text(
            "Спасибо отправлено, но пока не влияет на Авторитет: вашему аккаунту меньше "
            f"{policy.KUDOS_GIVER_MIN_ACCOUNT_AGE.days} дней.",
            "Your kudos was sent but does not count towards Authority yet: your account is "
            f"less than {policy.KUDOS_GIVER_MIN_ACCOUNT_AGE.days} days old.",
        ),
        AuthorityChange.Reason.GIVER_FEW_GAMES: i18n.text(
            "Спасибо отправлено, но пока не влияет на Авторитет: у вас меньше "
            f"{policy.KUDOS_GIVER_MIN_FINISHED_GAMES} завершённых игр.",
            "Your kudos was sent but does not count towards Authority yet: you have fewer than "
            f"{policy.KUDOS_GIVER_MIN_FINISHED_GAMES} finished games.",
        ),
        AuthorityChange.Reason.PAIR_LIMIT: i18n.text(
            "Спасибо отправлено, но не влияет на Авторитет: вы с этим партнёром уже засчитали "
            f"друг другу {policy.KUDOS_PAIR_LIMIT} спасибо "
            f"за {policy.KUDOS_PAIR_PERIOD.days} дней.",
            "Your kudos was sent but does not count towards Authority: you and this partner "
            f"have already counted {policy.KUDOS_PAIR_LIMIT} kudos for each other in "
            f"{policy.KUDOS_PAIR_PERIOD.days} days.",
        ),
        AuthorityChange.Reason.GAME_WITH_BOTS: i18n.text(
            "Спасибо отправлено, но не влияет на Авторитет: в этой игре играли боты.",
            "Your kudos was sent but does not count towards Authority: bots played in this game.",
        ),
    }
    return messages[reason]
