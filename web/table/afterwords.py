"""A finished game's afterwords as one of its players sees them on the table page."""

from dataclasses import dataclass
from typing import Any

from accounts.models import User
from club.i18n import current_language
from games import selectors as game_selectors
from games.models import Game
from moderation import selectors as moderation_selectors
from moderation.models import Afterword
from moderation.phrases import kudos_forecast, kudos_outcome
from social import selectors as social_selectors


@dataclass(frozen=True)
class AfterwordsPanel:
    """A finished game's afterwords as one of its players may see them, and what they may
    still write (the service decides the rest, e.g. a mute, when they send it)."""

    messages: list[dict[str, Any]]
    phrases: list[str]
    # The viewer's partners who can receive warm words (people: bots receive none); none at a
    # table where each played alone.
    partners: list[User]
    # A partner was a bot: the form says so instead of offering "to your partner".
    bot_partner: bool
    # Said before sending: why warm words to a partner would not move their Authority
    # (moderation's kudos_weight, the reason the service will record), one line per partner.
    kudos_notes: list[str]
    may_write_partner: bool
    may_write_table: bool


def afterwords_panel(*, game: Game, viewer: User) -> AfterwordsPanel | None:
    if not viewer.is_authenticated or not game.is_over:
        return None
    partners = game_selectors.partners_at(game=game, user=viewer)
    if partners is None:
        return None  # afterwords are for the game's players
    afterwords = list(
        moderation_selectors.afterwords_visible_to(game_id=game.pk, viewer=viewer).select_related(
            "authority_change"
        )
    )
    written = {afterword.to for afterword in afterwords if afterword.author_id == viewer.pk}
    # Words go to neither bots nor a partner the viewer keeps apart from (a block either way).
    apart = social_selectors.blocked_either_way(user_id=viewer.pk)
    people = [partner for partner in partners if not partner.is_bot and partner.pk not in apart]
    may_write_partner = bool(people) and Afterword.To.PARTNER not in written
    kudos_notes = []
    if may_write_partner:
        reasons = moderation_selectors.kudos_forecast(
            game=game, giver=viewer, partner_ids=[partner.pk for partner in people]
        )
        # The giver's own reasons (a new account, a game with bots) are the same for each
        # partner: said once; a pair's limit names its partner.
        named = len(set(reasons.values())) > 1
        for partner in people:
            note = kudos_forecast(reasons[partner.pk])
            if note and note not in kudos_notes:
                kudos_notes.append(f"{partner}: {note}" if named else note)
    return AfterwordsPanel(
        messages=[
            {
                "afterword": afterword,
                # The giver sees whether their kudos counted, and why not (as the API says).
                "kudos": (
                    kudos_outcome(afterword.authority_change.reason)
                    if afterword.to == Afterword.To.PARTNER
                    and afterword.author_id == viewer.pk
                    and hasattr(afterword, "authority_change")
                    else ""
                ),
            }
            for afterword in afterwords
        ],
        phrases=[
            phrase["en"] if current_language() == "en" else phrase["ru"]
            for phrase in moderation_selectors.warm_phrases()
        ],
        partners=people,
        bot_partner=any(partner.is_bot for partner in partners),
        kudos_notes=kudos_notes,
        may_write_partner=may_write_partner,
        may_write_table=Afterword.To.TABLE not in written,
    )
