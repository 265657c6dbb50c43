"""Preset warm phrases for afterwords, in both of the club's languages."""

from typing import TypedDict

from club import i18n
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
            f"{_days(policy.KUDOS_GIVER_MIN_ACCOUNT_AGE.days, after='меньше')}.",
            "Your kudos was sent but does not count towards Authority yet: your account is "
            f"less than {_days(policy.KUDOS_GIVER_MIN_ACCOUNT_AGE.days, after='меньше')} old.",
        ),
        AuthorityChange.Reason.GIVER_FEW_GAMES: i18n.text(
            "Спасибо отправлено, но пока не влияет на Авторитет: у вас меньше "
            f"{_finished_games(after='меньше')}.",
            "Your kudos was sent but does not count towards Authority yet: you have fewer than "
            f"{_finished_games(after='меньше')}.",
        ),
        AuthorityChange.Reason.PAIR_LIMIT: i18n.text(
            "Спасибо отправлено, но не влияет на Авторитет: вы с этим партнёром уже засчитали "
            f"друг другу {policy.KUDOS_PAIR_LIMIT} спасибо "
            f"за {_days(policy.KUDOS_PAIR_PERIOD.days)}.",
            "Your kudos was sent but does not count towards Authority: you and this partner "
            f"have already counted {policy.KUDOS_PAIR_LIMIT} kudos for each other in "
            f"{_days(policy.KUDOS_PAIR_PERIOD.days)}.",
        ),
        AuthorityChange.Reason.GAME_WITH_BOTS: i18n.text(
            "Спасибо отправлено, но не влияет на Авторитет: в этой игре играли боты.",
            "Your kudos was sent but does not count towards Authority: bots played in this game.",
        ),
    }
    return messages[reason]


def _days(days: int, *, after: str = "") -> str:
    """ "7 дней" ("за 7 дней"), or after «меньше» the genitive ("меньше 1 дня")."""
    if after == "меньше":
        return i18n.quantity(days, ("дня", "дней", "дней"), ("day", "days"))
    return i18n.quantity(days, ("день", "дня", "дней"), ("day", "days"))


def _finished_games(*, after: str = "") -> str:
    games = policy.KUDOS_GIVER_MIN_FINISHED_GAMES
    if after == "меньше":
        forms = ("завершённой игры", "завершённых игр", "завершённых игр")
    else:
        forms = ("завершённая игра", "завершённые игры", "завершённых игр")
    return i18n.quantity(games, forms, ("finished game", "finished games"))


def kudos_forecast(reason: str) -> str:
    """Before sending: why a warm word to the partner will not move their Authority (the
    reason moderation.selectors.kudos_weight gives); "" when it will."""
    messages: dict[str, str] = {
        AuthorityChange.Reason.GIVER_TOO_NEW: i18n.text(
            "Тёплые слова партнёра обрадуют, но его Авторитет пока не изменят: аккаунту нужно "
            f"хотя бы {_days(policy.KUDOS_GIVER_MIN_ACCOUNT_AGE.days)}.",
            "Warm words will please your partner but will not move their Authority yet: an "
            f"account needs to be at least {_days(policy.KUDOS_GIVER_MIN_ACCOUNT_AGE.days)} old.",
        ),
        AuthorityChange.Reason.GIVER_FEW_GAMES: i18n.text(
            "Тёплые слова партнёра обрадуют, но его Авторитет пока не изменят: нужно сыграть "
            f"хотя бы {_finished_games()}.",
            "Warm words will please your partner but will not move their Authority yet: play "
            f"at least {_finished_games()} first.",
        ),
        AuthorityChange.Reason.PAIR_LIMIT: i18n.text(
            "Тёплые слова партнёра обрадуют, но Авторитет не изменят: вы с этим партнёром уже "
            f"засчитали друг другу {policy.KUDOS_PAIR_LIMIT} спасибо "
            f"за {_days(policy.KUDOS_PAIR_PERIOD.days)}.",
            "Warm words will please your partner but will not move their Authority: you and "
            f"this partner have already counted {policy.KUDOS_PAIR_LIMIT} kudos for each other "
            f"in {_days(policy.KUDOS_PAIR_PERIOD.days)}.",
        ),
        AuthorityChange.Reason.GAME_WITH_BOTS: i18n.text(
            "В партии играли боты: тёплые слова партнёра обрадуют, но Авторитет не изменят.",
            "Bots played in this game: warm words will please your partner but will not move "
            "their Authority.",
        ),
    }
    return messages.get(reason, "")
