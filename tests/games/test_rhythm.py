"""The table's rhythm (issue 35), server side: one press to play with bots, the break between
two deals (a database column the deadline sweep honours), the turns the club played for a
player, the table's pace changed by agreement, a seat handed to a bot, the bots' level."""

from datetime import datetime, timedelta

import pytest
from django.conf import settings

from club import clock
from club.errors import ClubError
from games import services
from games.engine import Match
from games.models import Abandonment, Game, Seat
from games.services import timeouts
from tests.factories import UserFactory, started_game
from tests.games.playing import fix_shuffles
from tests.timing.conftest import deadline_of, play_turn, turn_of, user_at

pytestmark = pytest.mark.django_db(transaction=True)

LIVE_LIMIT = settings.TURN_LIMIT["live"]
ASYNC_LIMIT = settings.TURN_LIMIT["async"]


def started(game: Game) -> datetime:
    assert game.turn_started_at is not None
    return game.turn_started_at


def seat_row(game: Game, seat: int) -> Seat:
    return Seat.objects.select_related("user").get(game=game, seat=seat)


def last_card_in_stock(game: Game) -> None:
    """The stock down to one card: the next draw ends the deal (R-END-1, the club's stock)."""
    assert game.state is not None
    match = Match.from_dict(game.state)
    state = match.deal.to_dict()
    state["stock"] = state["stock"][:2]
    match.deal = type(match.deal).from_dict(state)
    Game.objects.filter(pk=game.pk).update(state=match.to_dict())


def end_the_deal(game: Game) -> Game:
    """The player to move draws the stock's last card: the deal ends, the next one is dealt."""
    last_card_in_stock(game)
    game.refresh_from_db()
    services.make_move(
        game_id=game.pk,
        user=user_at(game, turn_of(game)),
        version=game.version,
        action={"type": "draw"},
    )
    game.refresh_from_db()
    assert game.deal_number == 2 and game.status == Game.Status.ACTIVE
    return game


def live_match(players: list | None = None) -> Game:
    return started_game(players=players, mode=Game.Mode.LIVE, length=Game.Length.MATCH)


# ----------------------------------------------------------------------------- one press


def test_play_with_bots_starts_a_live_classic_match_with_three_club_bots_at_once():
    user = UserFactory.create()
    for _ in range(services.MAX_WAITING_TABLES):  # a full allowance of waiting tables
        services.open_table(user=user, mode="async", length="match", rules={}, private=False)

    game = services.play_with_bots(user=user)

    game.refresh_from_db()
    assert (game.mode, game.length, game.status) == ("live", "match", "active")
    assert game.rules.get("game", "classic") == "classic"
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    assert [seat.user == user for seat in seats] == [True, False, False, False]
    assert [seat.user.bot_level for seat in seats[1:]] == ["club"] * 3
    assert len({seat.user_id for seat in seats}) == 4
    assert game.turn_deadline is not None and game.state is not None


def test_a_suspended_player_cannot_play_with_bots():
    user = UserFactory.create(suspended_until=clock.now() + timedelta(days=1))
    with pytest.raises(ClubError) as refused:
        services.play_with_bots(user=user)
    assert refused.value.code == "suspended"
    assert not Game.objects.exists()


def test_the_bots_level_is_changed_by_the_player_alone_with_them():
    user = UserFactory.create()
    game = services.play_with_bots(user=user)

    services.change_bot_level(game_id=game.pk, user=user, level="expert")

    levels = [seat_row(game, seat).user.bot_level for seat in (1, 2, 3)]
    assert levels == ["expert"] * 3
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # the game plays on, the bots' hands unchanged
    with pytest.raises(ClubError) as refused:
        services.change_bot_level(game_id=game.pk, user=user, level="grandmaster")
    assert refused.value.code == "invalid_bot_level"


def test_people_at_a_table_do_not_change_its_bots_level():
    people = UserFactory.create_batch(2)
    game = services.open_table(user=people[0], mode="live", length="deal", rules={}, private=False)
    services.join_table(game_id=game.pk, user=people[1], seat=1)
    for seat in (2, 3):
        services.seat_bot(game_id=game.pk, user=people[0], seat=seat, level="club")
    with pytest.raises(ClubError) as refused:
        services.change_bot_level(game_id=game.pk, user=people[0], level="beginner")
    assert refused.value.code == "not_alone_with_bots"


# ----------------------------------------------------------------------------- the deal break


def test_a_live_deal_ends_in_a_break_no_clock_runs_until_every_person_closed_the_summary():
    game = live_match()
    ended_at = clock.now()
    game = end_the_deal(game)

    assert game.deal_break_until is not None
    assert abs(game.deal_break_until - (ended_at + settings.DEAL_BREAK)) < timedelta(seconds=5)
    # The next deal's first clock starts when the break ends.
    assert game.turn_started_at == game.deal_break_until
    assert deadline_of(game) == game.deal_break_until + LIVE_LIMIT
    for seat in (0, 1, 2):
        services.close_deal_summary(game_id=game.pk, user=user_at(game, seat))
        game.refresh_from_db()
        assert game.deal_break_until is not None  # someone still reads
    clock.advance(timedelta(seconds=5))
    services.close_deal_summary(game_id=game.pk, user=user_at(game, 3))

    game.refresh_from_db()
    assert game.deal_break_until is None
    assert abs(started(game) - clock.now()) < timedelta(seconds=2)
    assert deadline_of(game) == started(game) + LIVE_LIMIT
    assert [seat_row(game, seat).deal_seen for seat in range(4)] == [1, 1, 1, 1]


def bots_play_round_to(game: Game, seat: int) -> Game:
    """The bots play their turns, each after its pause, until `seat` is to move."""
    game.refresh_from_db()
    while turn_of(game) != seat:
        version = game.version
        clock.advance(settings.BOT_PAUSE[game.mode])
        timeouts.sweep()  # other tables' bots may play too
        game.refresh_from_db()
        assert game.version > version
    return game


def test_bots_are_never_waited_for_the_one_person_ends_the_break():
    user = UserFactory.create()
    game = end_the_deal(bots_play_round_to(services.play_with_bots(user=user), 0))
    assert game.deal_break_until is not None

    services.close_deal_summary(game_id=game.pk, user=user)

    game.refresh_from_db()
    assert game.deal_break_until is None
    bot_to_move = seat_row(game, turn_of(game)).user.is_bot
    limit = settings.BOT_PAUSE["live"] if bot_to_move else LIVE_LIMIT
    assert deadline_of(game) == started(game) + limit


def test_the_break_ends_by_itself_and_the_sweep_plays_nobody_absent_during_it():
    game = live_match()
    game = end_the_deal(game)
    to_move = turn_of(game)
    # Everybody but the player to move is here; the player to move has dropped long ago.
    Seat.objects.filter(game=game).update(last_seen_at=clock.now())
    Seat.objects.filter(game=game, seat=to_move).update(
        last_seen_at=clock.now() - timedelta(minutes=5)
    )
    clock.advance(settings.DEAL_BREAK - timedelta(seconds=5))
    Seat.objects.filter(game=game).exclude(seat=to_move).update(last_seen_at=clock.now())
    assert timeouts.sweep() == 0  # away, but nobody's clock runs in the break

    clock.advance(timedelta(seconds=10))
    Seat.objects.filter(game=game).exclude(seat=to_move).update(last_seen_at=clock.now())
    assert timeouts.sweep() == 1  # the break is over: the absent player's turn is played
    game.refresh_from_db()
    assert game.turn_seat != to_move or game.version > 1


def test_a_move_closes_the_summary_and_in_correspondence_there_is_no_break():
    game = started_game(length=Game.Length.MATCH)  # by correspondence
    game = end_the_deal(game)
    assert game.deal_break_until is None
    assert deadline_of(game) == started(game) + ASYNC_LIMIT
    to_move = turn_of(game)
    assert seat_row(game, to_move).deal_seen == 0

    play_turn(game.pk)

    assert seat_row(game, to_move).deal_seen == 1
    assert all(seat_row(game, seat).deal_seen == 0 for seat in range(4) if seat != to_move)


def test_a_move_by_the_last_person_to_read_ends_the_break():
    game = end_the_deal(live_match())
    to_move = turn_of(game)
    for seat in range(4):
        if seat != to_move:
            services.close_deal_summary(game_id=game.pk, user=user_at(game, seat))
    clock.advance(timedelta(seconds=3))

    services.make_move(
        game_id=game.pk, user=user_at(game, to_move), version=game.version, action={"type": "draw"}
    )

    game.refresh_from_db()
    assert game.deal_break_until is None
    assert abs(started(game) - clock.now()) < timedelta(seconds=2)
    assert deadline_of(game) == started(game) + LIVE_LIMIT


def test_after_the_break_a_move_within_the_turn_leaves_its_clock_alone():
    game = end_the_deal(live_match())
    to_move = turn_of(game)
    clock.advance(settings.DEAL_BREAK + timedelta(seconds=5))  # the break is over by itself
    for seat in range(4):
        if seat != to_move:
            services.close_deal_summary(game_id=game.pk, user=user_at(game, seat))
    game.refresh_from_db()
    deadline = deadline_of(game)

    services.make_move(
        game_id=game.pk, user=user_at(game, to_move), version=game.version, action={"type": "draw"}
    )

    game.refresh_from_db()
    # The last to read moved on after the break: the draw is within the turn, its clock runs on.
    assert deadline_of(game) == deadline


def test_the_deal_break_is_in_the_game_answer_and_continue_closes_it(client_for):
    game = live_match()
    game = end_the_deal(game)
    client = client_for(user_at(game, 0))

    answer = client.get(f"/api/games/{game.pk}/").json()
    assert answer["deal_break_until"] is not None

    closed = client.post(f"/api/games/{game.pk}/continue/")
    assert closed.status_code == 200, closed.content
    assert seat_row(game, 0).deal_seen == 1
    stranger = client_for(UserFactory.create())
    assert stranger.post(f"/api/games/{game.pk}/continue/").status_code == 403


# ----------------------------------------------------------------------------- autoplayed


def test_the_turns_the_club_played_are_kept_for_the_player_until_their_next_move(monkeypatch):
    fix_shuffles(monkeypatch)  # a shuffle where the club draws, and draws a card
    game = started_game()
    culprit = turn_of(game)
    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))
    assert timeouts.sweep() == 1

    record = seat_row(game, culprit).autoplayed
    assert len(record) == 1 and record[0]["reason"] == "timeout"
    kinds = [move["action"]["type"] for move in record[0]["moves"]]
    assert kinds[0] == "draw" and kinds[-1] == "discard"
    # Their own record: the cards they drew are in it.
    assert record[0]["moves"][0]["private"]["cards"]
    game.refresh_from_db()
    while turn_of(game) != culprit:
        play_turn(game.pk)
        game.refresh_from_db()
    assert seat_row(game, culprit).autoplayed == record  # the others' moves leave it
    play_turn(game.pk)
    assert seat_row(game, culprit).autoplayed == []


def time_out_live_turn(game, culprit):
    """Plays on to `culprit`'s turn, then lets its live time run out with everyone at the
    table (a timeout, not an absence): the sweep plays it."""
    game.refresh_from_db()
    while turn_of(game) != culprit:
        play_turn(game.pk)
        game.refresh_from_db()
    clock.advance(LIVE_LIMIT + timedelta(seconds=1))
    Seat.objects.filter(game=game).update(last_seen_at=clock.now())
    assert timeouts.sweep() == 1


def test_a_live_absence_is_told_turn_by_turn_and_only_the_latest_turns_are_kept(monkeypatch):
    monkeypatch.setattr(timeouts, "AUTOPLAYED_KEPT", 2)
    game = live_match()
    culprit = turn_of(game)
    for _ in range(3):
        time_out_live_turn(game, culprit)
    record = seat_row(game, culprit).autoplayed
    assert len(record) == 2
    first, second = (turn["moves"][0]["seq"] for turn in record)
    assert first < second


def test_only_the_first_live_timeout_of_a_player_is_marked_for_the_ways_on():
    game = live_match()
    culprit = turn_of(game)
    marks = []
    for _ in range(2):
        time_out_live_turn(game, culprit)
        marks += [turn["offer"] for turn in seat_row(game, culprit).autoplayed]
        assert seat_row(game, culprit).timed_out_live
    # The second timeout came while the first was still told: one note, the first marked.
    assert marks == [True, True, False]
    others = [seat_row(game, seat) for seat in range(4) if seat != culprit]
    assert not any(seat.timed_out_live for seat in others)


def test_a_correspondence_timeout_offers_no_live_way_on():
    game = started_game()
    culprit = turn_of(game)
    clock.advance(ASYNC_LIMIT + timedelta(seconds=1))
    assert timeouts.sweep() == 1
    seat = seat_row(game, culprit)
    assert [turn["offer"] for turn in seat.autoplayed] == [False]
    assert not seat.timed_out_live


# ----------------------------------------------------------------------------- pace, handover


def test_the_table_plays_on_by_correspondence_once_every_person_agrees():
    people = UserFactory.create_batch(3)
    game = services.open_table(user=people[0], mode="live", length="match", rules={}, private=False)
    for seat, person in enumerate(people[1:], start=1):
        services.join_table(game_id=game.pk, user=person, seat=seat)
    services.seat_bot(game_id=game.pk, user=people[0], seat=3, level="club")
    game.refresh_from_db()

    services.ask_pace(game_id=game.pk, user=people[0], mode="async")
    services.ask_pace(game_id=game.pk, user=people[1], mode="async")
    game.refresh_from_db()
    assert (game.mode, game.pace_wanted, game.pace_votes) == ("live", "async", [0, 1])

    services.ask_pace(game_id=game.pk, user=people[2], mode="async")  # the bot is not asked

    game.refresh_from_db()
    assert (game.mode, game.pace_wanted, game.pace_votes) == ("async", "", [])
    limit = settings.BOT_PAUSE["async"] if turn_of(game) == 3 else ASYNC_LIMIT
    assert deadline_of(game) == started(game) + limit
    with pytest.raises(ClubError) as refused:
        services.ask_pace(game_id=game.pk, user=people[0], mode="async")
    assert refused.value.code == "same_pace"


def test_alone_with_bots_the_pace_changes_at_once():
    user = UserFactory.create()
    game = services.play_with_bots(user=user)
    services.ask_pace(game_id=game.pk, user=user, mode="async")
    game.refresh_from_db()
    assert game.mode == "async"
    services.ask_pace(game_id=game.pk, user=user, mode="live")
    game.refresh_from_db()
    assert game.mode == "live"


def test_a_seat_handed_to_a_bot_plays_on_and_counts_as_leaving():
    players = UserFactory.create_batch(4)
    game = live_match(players)
    leaving = turn_of(game)

    services.hand_seat_to_bot(game_id=game.pk, user=players[leaving])

    seat = seat_row(game, leaving)
    assert seat.user.bot_level == "club"
    assert Abandonment.objects.filter(game=game, user=players[leaving]).exists()
    players[leaving].refresh_from_db()
    assert (players[leaving].games_played, players[leaving].games_abandoned) == (1, 1)
    game.refresh_from_db()
    assert deadline_of(game) == started(game) + settings.BOT_PAUSE["live"]
    clock.advance(settings.BOT_PAUSE["live"])
    assert timeouts.sweep() == 1  # the bot plays the turn


def test_alone_with_bots_there_is_nobody_to_hand_the_seat_to():
    user = UserFactory.create()
    game = services.play_with_bots(user=user)
    with pytest.raises(ClubError) as refused:
        services.hand_seat_to_bot(game_id=game.pk, user=user)
    assert refused.value.code == "alone_with_bots"
