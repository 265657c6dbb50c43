"""Report reasons and moderators' decisions named in the page's language (the player card, the
report forms and the moderators' desk)."""

from canasta_club.i18n import text
from moderation.models import Report

# Names in both languages, (ru, en): only the one shown is looked up in the page's language.
_DECISION_NAMES: dict[str, tuple[str, str]] = {
    Report.Decision.DISMISS: ("отклонена", "dismissed"),
    Report.Decision.WARN: ("предупреждение", "a warning"),
    Report.Decision.MUTE: ("запрет писать", "a mute"),
    Report.Decision.SUSPEND: ("отстранение от игры", "a suspension"),
}
_REASON_NAMES: dict[str, tuple[str, str]] = {
    Report.Reason.RUDENESS: ("грубость", "rudeness"),
    Report.Reason.MOCKERY: ("насмешки", "mockery"),
    Report.Reason.CHEATING: ("нечестная игра", "cheating"),
    Report.Reason.OTHER: ("другое", "something else"),
}


def decision_name(decision: str) -> str:
    name = _DECISION_NAMES.get(decision)
    return text(*name) if name else ""


def reason_name(reason: str) -> str:
    return text(*_REASON_NAMES[reason])


def reason_choices() -> list[tuple[str, str]]:
    return [(reason, reason_name(reason)) for reason in Report.Reason.values]
