"""The notifications page's rows, titled and worded in the page's language."""

from typing import Any

from accounts.models import User
from notifications import selectors as notification_selectors
from notifications import texts as notification_texts

NOTIFICATIONS_PAGE = 50


def notifications_page(*, user: User, language: str) -> list[dict[str, Any]]:
    return [
        {
            "notification": notification,
            "title": notification_texts.title(
                kind=notification.kind, game_id=notification.game_id, language=language
            ),
            "body": notification_texts.push_payload(
                kind=notification.kind,
                game_id=notification.game_id,
                payload=notification.payload,
                language=language,
                tag="",
            )["body"],
        }
        for notification in notification_selectors.notifications_for(user=user)[:NOTIFICATIONS_PAGE]
    ]
