"""The notifications page's rows, titled and worded in the page's language, an invitation
with its answer."""

from typing import Any

from accounts.models import User
from games import selectors as game_selectors
from notifications import selectors as notification_selectors
from notifications import texts as notification_texts
from notifications.models import Kind

NOTIFICATIONS_PAGE = 50


def notifications_page(*, user: User, language: str) -> list[dict[str, Any]]:
    """The latest notifications, each with its title and text; an invitation still waiting
    for the user's answer carries it (the row offers «Принять» and «Отказаться»)."""
    notifications = list(notification_selectors.notifications_for(user=user)[:NOTIFICATIONS_PAGE])
    pending = {
        invitation.pk: invitation
        for invitation in game_selectors.invitations_for(user=user).filter(
            pk__in=[
                notification.payload.get("invitation")
                for notification in notifications
                if notification.kind == Kind.INVITATION
            ]
        )
    }
    return [
        {
            "notification": notification,
            "invitation": pending.get(notification.payload.get("invitation", 0)),
            "url": notification_texts.page_path(
                game_id=notification.game_id, payload=notification.payload
            ),
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
        for notification in notifications
    ]
