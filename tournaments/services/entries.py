"""Opening a tournament, and entering and leaving it before it starts.

Each function is a service entry point: one durable transaction, the tournament's row locked
while its entries change, so the room left and who is entered are decided one at a time.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max

from accounts.models import User
from club import clock
from club.errors import Conflict, Invalid
from club.i18n import text
from games import services as game_services
from games.engine import Rules
from games.engine.rules import DEALS_MAX
from tournaments import errors
from tournaments.models import Entry, EntryPlayer, Tournament
from tournaments.services import live
from tournaments.services.locking import lock_tournament

# The most entries a tournament takes (pairing a round of 1,000 takes well under a second).
MAX_ENTRIES = 1000
# Rounds a Swiss tournament may have; a round robin's follow from its entries.
MAX_ROUNDS = 30
# A round's time, whoever sets it: ten minutes to sixty days.
ROUND_MINUTES = (10, 60 * 24 * 60)
NAME_LENGTH = 80


@dataclass(frozen=True)
class TournamentSpec:
    """A tournament as its creator asks for it (the API's and the page's fields)."""

    name: str
    mode: str
    format: str
    partners: str | None = None  # the table's natural one when left out
    rounds: int | None = None
    deals: int = 1
    duplicate: bool = False
    max_entries: int = 16
    starts_at: datetime | None = None
    rated: bool = True
    rules: dict[str, Any] | None = None
    round_minutes: int | None = None


def side_size(rules: Rules) -> int:
    """Players on each side of a table: 2 at four (partners), 1 at a table of two."""
    return rules.players // rules.teams


def entry_size(tournament: Tournament) -> int:
    """Players in an entry: both of a fixed pair, else one."""
    return 2 if tournament.partners == Tournament.Partners.FIXED else 1


def minimum_entries(tournament: Tournament) -> int:
    """A table's worth of entries to start, two tables' in duplicate (a board is compared with
    the same cards at another table)."""
    rules = Rules.from_options(tournament.rules)
    table = rules.players // entry_size(tournament)
    return table * (2 if tournament.duplicate else 1)


def _invalid(field: str, message: str) -> Invalid:
    return Invalid("invalid", message, errors={field: [message]})


def _tournament_rules(spec: TournamentSpec) -> Rules:
    """The engine's rules of every table: the table options asked (no target), `deals` deals."""
    options = dict(spec.rules or {})
    if "target" in options or "deals" in options:
        raise Invalid(
            "invalid_rules",
            text(
                "Длину игры турнира задаёт deals (раздач за игру), а не правила стола.",
                "A tournament game's length is `deals` (deals a game), not the table's rules.",
            ),
        )
    if not isinstance(spec.deals, int) or not 1 <= spec.deals <= DEALS_MAX:
        raise _invalid(
            "deals",
            text(f"Раздач за игру: от 1 до {DEALS_MAX}.", f"Deals a game: 1 to {DEALS_MAX}."),
        )
    try:
        rules = Rules.from_options({**options, "target": None, "deals": spec.deals})
    except (ValueError, TypeError) as exc:
        raise Invalid("invalid_rules", str(exc)) from None
    if rules.teams != 2:
        raise Invalid(
            "invalid_rules",
            text(
                "Турниры играют за столами двух сторон: вдвоём, вчетвером парами или вшестером "
                "двумя командами по трое.",
                "Tournaments are played at tables of two sides: two players, four in two pairs, "
                "or six in two teams of three.",
            ),
        )
    return rules


def _partners(spec: TournamentSpec, rules: Rules) -> str:
    size = side_size(rules)
    partners = spec.partners or (
        Tournament.Partners.FIXED if size == 2 else Tournament.Partners.ROTATING
    )
    if partners not in Tournament.Partners.values:
        raise _invalid("partners", text("fixed или rotating.", "fixed or rotating."))
    if partners == Tournament.Partners.FIXED and size != 2:
        raise Invalid(
            "invalid_partners",
            text(
                "Постоянные пары играют вчетвером: за этим столом у игрока "
                + ("нет партнёра." if size == 1 else "два партнёра."),
                "Fixed pairs play at four: at this table a player has "
                + ("no partner." if size == 1 else "two partners."),
            ),
        )
    if partners == Tournament.Partners.ROTATING and size > 2:
        raise Invalid(
            "invalid_partners",
            text(
                "Меняющихся партнёров сажают парами: вшестером двумя командами по трое турнир "
                "не составить.",
                "Rotating partners are seated two a side: six in two teams of three cannot be "
                "paired.",
            ),
        )
    return partners


def _round_limit(spec: TournamentSpec) -> timedelta:
    if spec.round_minutes is None:
        return settings.TOURNAMENT_ROUND_PER_DEAL[spec.mode] * spec.deals
    least, most = ROUND_MINUTES
    if not least <= spec.round_minutes <= most:
        raise _invalid(
            "round_minutes",
            text(
                f"Время тура: от {least} минут до {most // (60 * 24)} дней.",
                f"A round's time: {least} minutes to {most // (60 * 24)} days.",
            ),
        )
    return timedelta(minutes=spec.round_minutes)


def _check_rounds(spec: TournamentSpec) -> None:
    if spec.format == Tournament.Format.SWISS and spec.rounds is None:
        raise _invalid(
            "rounds",
            text("Сколько туров играть по швейцарской системе?", "How many Swiss rounds?"),
        )
    if spec.rounds is not None and not 1 <= spec.rounds <= MAX_ROUNDS:
        raise _invalid(
            "rounds", text(f"Туров: от 1 до {MAX_ROUNDS}.", f"Rounds: 1 to {MAX_ROUNDS}.")
        )


@transaction.atomic(durable=True)
def create_tournament(*, user: User, spec: TournamentSpec) -> Tournament:
    """Opens a tournament for entries; it starts by its creator, or by itself at `starts_at`."""
    game_services.refuse_suspended(user)
    name = " ".join(spec.name.split())
    if not name or len(name) > NAME_LENGTH or not name.isprintable():
        raise _invalid(
            "name",
            text(
                f"Название: от 1 до {NAME_LENGTH} печатных знаков.",
                f"The name: 1 to {NAME_LENGTH} printable characters.",
            ),
        )
    if spec.mode not in ("async", "live"):
        raise _invalid("mode", text("async или live.", "async or live."))
    if spec.format not in Tournament.Format.values:
        raise _invalid("format", text("swiss или round_robin.", "swiss or round_robin."))
    _check_rounds(spec)
    rules = _tournament_rules(spec)
    partners = _partners(spec, rules)
    now = clock.now()
    if spec.starts_at is not None and not now < spec.starts_at <= now + timedelta(days=365):
        raise _invalid(
            "starts_at",
            text(
                "Начало: в будущем, не позже чем через год.",
                "The start: in the future, within a year.",
            ),
        )
    tournament = Tournament(
        name=name,
        created_by=user,
        mode=spec.mode,
        format=spec.format,
        partners=partners,
        duplicate=spec.duplicate,
        rated=spec.rated,
        rules=rules.to_options(),
        rounds=spec.rounds,
        max_entries=spec.max_entries,
        round_limit=_round_limit(spec),
        starts_at=spec.starts_at,
        due_at=spec.starts_at,
    )
    least = minimum_entries(tournament)
    if not least <= spec.max_entries <= MAX_ENTRIES:
        raise _invalid(
            "max_entries",
            text(
                f"Участников (пар или игроков): от {least} до {MAX_ENTRIES}.",
                f"Entries (pairs or players): {least} to {MAX_ENTRIES}.",
            ),
        )
    tournament.save()
    return tournament


def _check_player(tournament: Tournament, player: User, *, partner: bool) -> None:
    if player.is_bot:
        raise errors.bot_cannot_enter()
    if player.is_suspended(now=clock.now()):
        if partner:
            raise Conflict(
                "partner_suspended",
                text(
                    "Партнёр отстранён от игр и не может участвовать.",
                    "Your partner is suspended from play and cannot enter.",
                ),
            )
        game_services.refuse_suspended(player)
    if EntryPlayer.objects.filter(tournament=tournament, user=player).exists():
        if partner:
            raise Conflict(
                "partner_already_entered",
                text("Партнёр уже участвует в этом турнире.", "Your partner is already entered."),
            )
        raise Conflict(
            "already_entered",
            text("Вы уже участвуете в этом турнире.", "You are already entered."),
        )


@transaction.atomic(durable=True)
def join_tournament(*, tournament_id: int, user: User, partner_id: int | None) -> Entry:
    """Enters the user (with their partner, as one entry, in a tournament of fixed pairs)."""
    tournament = lock_tournament(tournament_id)
    if tournament.status != Tournament.Status.OPEN:
        raise errors.not_open()
    fixed = tournament.partners == Tournament.Partners.FIXED
    if fixed and partner_id is None:
        raise Invalid(
            "partner_required",
            text(
                "В турнире постоянных пар входят парой: укажите партнёра (partner).",
                "A tournament of fixed pairs is entered as a pair: name your partner (partner).",
            ),
        )
    if not fixed and partner_id is not None:
        raise Invalid(
            "partner_not_allowed",
            text(
                "В этом турнире каждый играет сам за себя или партнёры меняются: партнёра "
                "не указывают.",
                "In this tournament nobody enters with a partner.",
            ),
        )
    _check_player(tournament, user, partner=False)
    players = [user]
    if partner_id is not None:
        partner = User.objects.filter(pk=partner_id).first()
        if partner is None or partner.pk == user.pk:
            raise Invalid(
                "invalid_partner",
                text("Нет такого партнёра.", "No such partner."),
            )
        _check_player(tournament, partner, partner=True)
        players.append(partner)
    entries = Entry.objects.filter(tournament=tournament)
    if entries.count() >= tournament.max_entries:
        raise Conflict(
            "tournament_full",
            text("В турнире не осталось мест.", "The tournament is full."),
        )
    last = entries.aggregate(last=Max("number"))["last"] or 0
    entry = Entry.objects.create(tournament=tournament, number=last + 1)
    EntryPlayer.objects.bulk_create(
        EntryPlayer(entry=entry, tournament=tournament, user=player, position=position)
        for position, player in enumerate(players)
    )
    live.changed_locked(tournament)
    return entry


@transaction.atomic(durable=True)
def leave_tournament(*, tournament_id: int, user: User) -> None:
    """Takes the user's entry (with their partner, a fixed pair's) out before the start."""
    tournament = lock_tournament(tournament_id)
    if tournament.status != Tournament.Status.OPEN:
        raise errors.not_open()
    player = EntryPlayer.objects.filter(tournament=tournament, user=user).first()
    if player is None:
        raise Conflict(
            "not_entered", text("Вы не участвуете в этом турнире.", "You are not entered.")
        )
    Entry.objects.filter(pk=player.entry_id).delete()
    live.changed_locked(tournament)
