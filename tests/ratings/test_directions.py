"""A rated game's end moves its players' ratings (openskill's Plackett-Luce, one side per team):
winners up, losers down, partners together, at every table the engine seats; and a strong
partner's rating does not carry a weak one."""

import pytest

from ratings.models import RatingChange
from tests.factories import UserFactory
from tests.ratings.ending import change_of, end_game, game_of, rating_of, set_rating

pytestmark = pytest.mark.django_db


def changes(game) -> dict[int, int]:
    """Seat -> the change of its player."""
    return {seat.seat: change_of(game, seat.user) for seat in game.seats.all()}


def test_a_newcomer_shows_1500_plus_minus_350_and_moves_on_the_first_game(api_client):
    game = game_of()
    player = game.seats.get(seat=0).user
    api_client.force_authenticate(player)
    assert api_client.get("/api/me/").json()["ratings"] == []

    end_game(game, scores=[900, 400])

    (standing,) = api_client.get("/api/me/").json()["ratings"]
    assert standing["pool"] == "async.classic.4"
    assert standing["rating"] == 1500 + change_of(game, player) > 1500
    assert 0 < standing["deviation"] < 350
    assert standing["games"] == 1
    assert standing["provisional"] is True


def test_two_seats_the_winner_up_the_loser_down():
    game = end_game(game_of(players=2), scores=[120, 600])

    moved = changes(game)
    assert moved[1] > 0 > moved[0]
    assert game.pool == "async.classic.2"
    assert rating_of(game.seats.get(seat=1).user, "async.classic.2").games == 1


def test_three_seats_every_player_a_side_in_the_order_of_the_scores():
    game = end_game(game_of(players=3), scores=[300, 2500, 1200])

    moved = changes(game)
    assert moved[1] > moved[2] > moved[0]
    assert moved[1] > 0 > moved[0]


def test_four_seats_partners_move_together():
    game = end_game(game_of(players=4), scores=[5100, 3200])

    moved = changes(game)
    # Seats 0 and 2 play together against 1 and 3 (the engine's seating).
    assert moved[0] == moved[2] > 0
    assert moved[1] == moved[3] < 0


def test_six_seats_three_pairs_are_three_sides():
    game = end_game(game_of(players=6), scores=[2000, 7600, 4100])

    moved = changes(game)
    # Pairs: seats 0+3, 1+4, 2+5.
    assert moved[1] == moved[4] > 0
    assert moved[0] == moved[3] < 0
    assert moved[1] > moved[2] == moved[5] > moved[0]
    assert game.pool == "async.classic.6"


def test_six_seats_two_teams_of_three():
    game = end_game(game_of(players=6, teams=2), scores=[10_200, 8800])

    moved = changes(game)
    # Teams: seats 0+2+4 against 1+3+5.
    assert moved[0] == moved[2] == moved[4] > 0
    assert moved[1] == moved[3] == moved[5] < 0


def test_a_draw_moves_equal_sides_nowhere():
    game = end_game(game_of(players=4), scores=[2500, 2500])

    assert set(changes(game).values()) == {0}
    # Yet the game taught the model something: the deviations fell.
    assert all(
        change.sigma < change.sigma_before for change in RatingChange.objects.filter(game=game)
    )


def test_a_strong_partner_does_not_carry_a_weak_one():
    """The weak player wins beside a strong partner and beside an equal one, against the same
    kind of opponents: the first win, expected, earns them less; partners move the same way,
    and the weak one stays where their own games put them."""
    strong, weak, twin, equal = UserFactory.create_batch(4)
    opponents = UserFactory.create_batch(4)
    set_rating(strong, rating=1900, deviation=120)
    for player in (weak, twin):
        set_rating(player, rating=1300, deviation=120)
    for player in (equal, *opponents):
        set_rating(player, rating=1500, deviation=120)

    carried = end_game(game_of([strong, opponents[0], weak, opponents[1]]), scores=[5000, 2000])
    even = end_game(game_of([equal, opponents[2], twin, opponents[3]]), scores=[5000, 2000])

    assert 0 < change_of(carried, weak) < change_of(even, twin)
    assert change_of(carried, strong) > 0
    assert rating_of(weak).skill.rating < 1340


def test_losing_beside_a_strong_partner_costs_the_weak_one_too():
    strong, weak, *opponents = UserFactory.create_batch(4)
    set_rating(strong, rating=1900, deviation=120)
    set_rating(weak, rating=1300, deviation=120)
    for player in opponents:
        set_rating(player, rating=1500, deviation=120)

    game = end_game(game_of([strong, opponents[0], weak, opponents[1]]), scores=[1000, 5000])

    assert change_of(game, strong) < 0
    assert change_of(game, weak) < 0
    assert change_of(game, opponents[0]) == change_of(game, opponents[1]) > 0


def test_the_more_certain_partner_moves_less():
    """Each partner's share of the team's surprise is their own uncertainty's: a steady player
    beside a newcomer moves less than the newcomer."""
    steady, newcomer, *opponents = UserFactory.create_batch(4)
    set_rating(steady, rating=1500, deviation=90)

    game = end_game(game_of([steady, opponents[0], newcomer, opponents[1]]), scores=[5000, 0])

    assert 0 < change_of(game, steady) < change_of(game, newcomer)
