"""A tournament's course: its start, each round paired and its games opened, each round's end,
the end of the event. These run on a tournament whose row the caller has locked, inside the
caller's transaction (the creator's start, the sweep's claim), so a round is paired once: a
second worker waits for the lock and then finds the round there (and `Round`'s unique
constraint refuses it should anything get past the lock).

A round's games are opened and seated in the same transaction as the round itself: a worker
killed while pairing leaves nothing, and the next sweep pairs the round from the start.
"""

import secrets
from datetime import datetime

from accounts.models import User
from club.errors import Conflict
from club.i18n import text
from games import services as game_services
from games.engine import Rules
from notifications.models import Kind
from notifications.services import notifications_buffered, notify
from tournaments import pairing, selectors
from tournaments.models import Entry, Placement, Round, RoundTable, Tournament
from tournaments.services import live
from tournaments.services.entries import entry_size, minimum_entries, side_size


def _sides_are_entries(tournament: Tournament, rules: Rules) -> bool:
    """Each side of a table is one entry (a fixed pair, or a player alone), rather than the
    partners a rotating round seats together."""
    return entry_size(tournament) == side_size(rules)


def _full_cycle(tournament: Tournament, rules: Rules, entries: int) -> int:
    """A round robin's rounds: every entry meeting (or, rotating, partnering) every other."""
    if _sides_are_entries(tournament, rules):
        return len(pairing.round_robin_schedule(range(entries)))
    return entries - 1


def start_locked(tournament: Tournament, now: datetime) -> None:
    """Starts the (locked, open) tournament and pairs its first round; 409
    `not_enough_entries` with fewer than a table's worth (two tables' in duplicate)."""
    entries = Entry.objects.filter(tournament=tournament).count()
    least = minimum_entries(tournament)
    if entries < least:
        raise Conflict(
            "not_enough_entries",
            text(
                f"Для начала нужно хотя бы {least} участников (пар или игроков), а их {entries}.",
                f"Starting needs at least {least} entries (pairs or players); there are {entries}.",
            ),
            entries=entries,
            needed=least,
        )
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        cycle = _full_cycle(tournament, Rules.from_options(tournament.rules), entries)
        tournament.rounds = min(tournament.rounds or cycle, cycle)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    pair_round_locked(tournament, number=1, now=now)


def cancel_locked(tournament: Tournament, now: datetime) -> None:
    """Its start came with too few entries: nothing is played."""
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = now
    tournament.due_at = None
    tournament.save(update_fields=["status", "finished_at", "due_at"])
    live.changed_locked(tournament)


def _plan(tournament: Tournament, rules: Rules, number: int) -> pairing.Round:
    entries = [entry.pk for entry in Entry.objects.filter(tournament=tournament).order_by("number")]
    sides_are_entries = _sides_are_entries(tournament, rules)
    if tournament.format == Tournament.Format.ROUND_ROBIN and sides_are_entries:
        return pairing.round_robin_schedule(entries)[number - 1]
    standings, history = selectors.pairing_view(tournament)
    if sides_are_entries:
        return pairing.swiss_round(standings, history)
    return pairing.rotating_round(
        standings,
        history,
        side_size=side_size(rules),
        by_points=tournament.format == Tournament.Format.SWISS,
    )


def pair_round_locked(tournament: Tournament, *, number: int, now: datetime) -> Round:
    """Pairs round `number` of the (locked, running) tournament, opens and seats every game of
    it, tells each player where they play, and records who sits where."""
    rules = Rules.from_options(tournament.rules)
    plan = _plan(tournament, rules, number)
    seating = rules.seating
    duplicate = tournament.duplicate
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        # Duplicate: one shuffle and first dealer for every table of the round.
        seed=secrets.randbits(128) if duplicate else None,
        first_dealer=secrets.choice(seating.seats) if duplicate else None,
        started_at=now,
        deadline=now + tournament.round_limit,
    )
    players_of = selectors.players_by_entry(tournament)
    arranged = []
    for table in plan.tables:
        players: dict[int, User] = {}
        for team, side in enumerate(table.sides):
            members = [player for entry in side for player in players_of[entry]]
            players.update(zip(seating.teams[team], members, strict=True))
        arranged.append(
            game_services.ArrangedGame(
                players=players,
                seed=round_.seed if duplicate else secrets.randbits(128),
                first_dealer=round_.first_dealer
                if round_.first_dealer is not None
                else secrets.choice(seating.seats),
            )
        )
    with notifications_buffered():
        games = game_services.open_arranged_games(
            mode=tournament.mode,
            rules=rules,
            tournament={"id": tournament.pk, "round": number},
            sealed=duplicate,
            rated=tournament.rated,
            games=arranged,
        )
        for game, seated in zip(games, arranged, strict=True):
            for player in seated.players.values():
                notify(
                    user_id=player.pk,
                    kind=Kind.TOURNAMENT_ROUND,
                    game_id=game.pk,
                    payload={"tournament": tournament.pk, "round": number, "text": tournament.name},
                    dedupe_key=f"tournament_round:{tournament.pk}:{number}",
                )
        for entry in plan.byes:
            for player in players_of[entry]:
                notify(
                    user_id=player.pk,
                    kind=Kind.TOURNAMENT_BYE,
                    payload={"tournament": tournament.pk, "round": number, "text": tournament.name},
                    dedupe_key=f"{tournament.pk}:{number}",
                )
    tables = RoundTable.objects.bulk_create(
        RoundTable(round=round_, number=index, game=game)
        for index, game in enumerate(games, start=1)
    )
    Placement.objects.bulk_create(
        [
            Placement(round=round_, entry_id=entry, table=round_table, team=team)
            for round_table, table in zip(tables, plan.tables, strict=True)
            for team, side in enumerate(table.sides)
            for entry in side
        ]
        + [Placement(round=round_, entry_id=entry) for entry in plan.byes]
    )
    tournament.current_round = number
    tournament.due_at = round_.deadline
    tournament.save()
    live.changed_locked(tournament)
    return round_


def end_round_locked(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Every game of the round is over: its deals may be seen, and the next round is paired
    (or the tournament ends)."""
    round_.ended_at = now
    round_.save(update_fields=["ended_at"])
    if tournament.duplicate:
        game_services.unseal_games(game_ids=selectors.round_games(round_))
    if tournament.rounds is not None and round_.number >= tournament.rounds:
        tournament.status = Tournament.Status.FINISHED
        tournament.finished_at = now
        tournament.due_at = None
        tournament.save(update_fields=["status", "finished_at", "due_at"])
        live.changed_locked(tournament)
        return
    pair_round_locked(tournament, number=round_.number + 1, now=now)
