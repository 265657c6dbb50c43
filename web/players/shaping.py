"""What a player's card shows: their Authority and why it moved, their games, and what the
viewer may report; put together from the accounts, games and moderation selectors."""

from dataclasses import dataclass
from typing import Any

from accounts import selectors as account_selectors
from accounts.models import User
from accounts.selectors import is_online
from club import clock
from club.i18n import text
from games import selectors as game_selectors
from moderation import selectors as moderation_selectors
from moderation.models import AuthorityChange, Report
from moderation.selectors import AuthorityChangeShown, ReportTargets
from social import selectors as social_selectors
from web.ratings.shaping import PoolRating, ratings_on_card

RECENT_GAMES_ON_CARD = 10
AUTHORITY_CHANGES_ON_CARD = 10
REPORTABLE_GAMES = 20

# Why kudos did not count, (ru, en).
_KUDOS_NOT_COUNTED: dict[str, tuple[str, str]] = {
    AuthorityChange.Reason.GIVER_TOO_NEW: (
        "не засчитано: у автора слишком новый аккаунт",
        "did not count: the giver is too new",
    ),
    AuthorityChange.Reason.GIVER_FEW_GAMES: (
        "не засчитано: автор сыграл слишком мало партий",
        "did not count: the giver has played too few games",
    ),
    AuthorityChange.Reason.PAIR_LIMIT: (
        "не засчитано: эта пара уже набрала предел за месяц",
        "did not count: this pair reached its monthly limit",
    ),
}


def explain_authority_change(change: AuthorityChangeShown) -> str:
    """Why a player's Authority moved, as the card says it (never who reported them)."""
    if change.kind == AuthorityChange.Kind.REPORT_UPHELD:
        decision = Report.Decision(change.decision).label
        return text(
            f"жалоба подтверждена модератором ({decision})",
            f"a report was upheld by a moderator ({decision})",
        )
    base = text("тёплые слова от партнёра", "kudos from a partner")
    not_counted = _KUDOS_NOT_COUNTED.get(change.reason)
    return f"{base} — {text(*not_counted)}" if not_counted else base


@dataclass(frozen=True)
class PlayerCard:
    player: User
    stats: dict[str, int]
    authority_changes: list[dict[str, Any]]
    recent_games: list[dict[str, Any]]
    # Their rating in each pool played, with its history's chart.
    ratings: list[PoolRating]
    # «Пожаловаться»: the finished games the viewer shared with this player, and the player's
    # afterwords in them the viewer could read (what a report may cite). No games: no form.
    report_targets: ReportTargets
    # What the player is to the signed-in viewer (follow, block), and whether they are in the
    # club now (never shown across a block); None for a visitor, the player themselves, a bot.
    relation: social_selectors.Relation | None = None
    online: bool = False


def player_card(*, player_id: int, viewer: User) -> PlayerCard | None:
    player = account_selectors.active_user(user_id=player_id)
    if player is None:
        return None
    targets = ReportTargets(games=[], afterwords=[])
    # Bots are not reported (moderation refuses it), so their card has no form.
    if viewer.is_authenticated and viewer.pk != player.pk and not player.is_bot:
        targets = moderation_selectors.report_targets(
            reporter=viewer, accused=player, limit=REPORTABLE_GAMES
        )
    record = game_selectors.player_record(user=player, recent_games=RECENT_GAMES_ON_CARD)
    relation = None
    if viewer.is_authenticated and viewer.pk != player.pk and not player.is_bot:
        relation = social_selectors.relation(viewer=viewer, player_id=player.pk)
    online = (relation is None or not relation.apart) and is_online(user=player)
    return PlayerCard(
        player=player,
        stats=record.stats,
        authority_changes=[
            {
                "amount": change.amount,
                "why": explain_authority_change(change),
                "at": change.created_at,
            }
            for change in moderation_selectors.authority_changes_of(
                user=player, limit=AUTHORITY_CHANGES_ON_CARD
            )
        ],
        recent_games=[_from_side(game) for game in record.recent_games],
        ratings=[] if player.is_bot else ratings_on_card(user=player, now=clock.now()),
        report_targets=targets,
        relation=relation,
        online=online and not player.is_bot,
    )


def _from_side(game: dict[str, Any]) -> dict[str, Any]:
    """A finished game as the card's player saw it: their team's score first, then the others'
    in team order ("5100 : 1200" on the winner's card)."""
    scores = list(game["scores"])
    ours = scores.pop(game["team"])
    return {**game, "scores_from_side": [ours, *scores]}
