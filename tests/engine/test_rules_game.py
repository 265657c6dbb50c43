"""R-GAME-*, and the match-level parts of R-DEAL-1 / R-OPEN-1, through `Match` (interfaces.md)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from games.engine import Deal, IllegalMove, Match, Rules
from games.engine.rules import TARGET_MIN
from games.players import autoplay
from tests.engine.decks import all_keys, build_deck

MATCH_VIEW_KEYS = {"deal", "deal_number", "scores", "history", "over", "winner", "last_deal"}
HISTORY_KEYS = {"number", "dealer", "seed", "result", "scores_after"}


def minimum_for(score: int) -> int:
    # R-OPEN-1
    if score < 0:
        return 15
    if score < 1500:
        return 50
    if score < 3000:
        return 90
    return 120


def play_match(match: Match, *, check: Any = None, max_actions: int = 20_000) -> None:
    """Plays the match to its end with `autoplay` for whoever is to move."""
    actions = 0
    while not match.over:
        seat = match.deal.turn
        for action in autoplay(match.deal, seat):
            event = match.apply(seat, action)
            actions += 1
            assert isinstance(event["deal_over"], bool)
            if check is not None:
                check(match, event)
            if event["deal_over"]:
                assert event["result"] == match.history[-1]["result"]
                break
        assert actions < max_actions, "the match does not end"


def expected_winner(scores: Sequence[int]) -> int | None:
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


@pytest.mark.parametrize("seed", [1, 2, 3, 17, 4242])
def test_r_game_1_deals_go_on_until_a_team_has_5000(seed: int) -> None:
    # R-GAME-1 (+ R-DEAL-1 dealer passes to the left, R-OPEN-1 minimum from the scores)
    rules = Rules()
    assert rules.target == 5000
    match = Match.new(rules, first_dealer=2, seed=seed)
    assert match.deal_number == 1 and match.scores == (0, 0) and match.history == []
    starts: list[tuple[int, int, list[int]]] = []  # (deal number, dealer, minimums)

    def check(m: Match, event: dict[str, Any]) -> None:
        if event["deal_over"] and not m.over:
            view = m.deal.view(None)
            minimums = [t["minimum"] for t in view["teams"]]
            starts.append((m.deal_number, view["dealer"], minimums))
            assert minimums == [minimum_for(s) for s in m.scores]

    play_match(match, check=check)
    history = match.history
    totals = [0, 0]
    for index, entry in enumerate(history):
        assert set(entry) == HISTORY_KEYS
        assert entry["number"] == index + 1
        assert entry["dealer"] == (2 + index) % 4
        totals = [totals[t] + entry["result"][t]["total"] for t in (0, 1)]
        assert list(entry["scores_after"]) == totals
        if index < len(history) - 1:
            assert max(totals) < 5000, "the match should have ended after this deal"
    assert max(totals) >= 5000
    assert list(match.scores) == totals
    assert match.winner == expected_winner(totals)
    for number, dealer, _minimums in starts:
        assert dealer == (2 + number - 1) % 4


@pytest.mark.parametrize("seed", [5, 6, 7, 8])
def test_r_game_1_variant_extra_deal_never_ends_level(seed: int) -> None:
    # R-GAME-1 variant tie="extra_deal": equal totals at the end play another deal
    match = Match.new(Rules(tie="extra_deal", target=2500), first_dealer=0, seed=seed)
    play_match(match)
    assert match.scores[0] != match.scores[1]
    assert match.winner == expected_winner(match.scores)
    assert max(match.scores) >= 2500


@pytest.mark.parametrize("seed", range(20, 30))
def test_r_game_2_single_deal(seed: int) -> None:
    # R-GAME-2: target None = one deal only; the higher deal total wins, equal is a draw
    match = Match.new(Rules(target=None), first_dealer=1, seed=seed)
    play_match(match)
    assert match.deal_number == 1 and len(match.history) == 1
    totals = [team["total"] for team in match.history[0]["result"]]
    assert list(match.scores) == totals
    assert match.winner == expected_winner(totals)


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_r_game_2_variant_target_2500(seed: int) -> None:
    # R-GAME-2 variant target=2500 (seed 003)
    match = Match.new(Rules(target=2500), first_dealer=3, seed=seed)
    play_match(match)
    scores_after = [entry["scores_after"] for entry in match.history]
    assert all(max(s) < 2500 for s in scores_after[:-1])
    assert max(scores_after[-1]) >= 2500


def test_match_is_deterministic_from_its_seed() -> None:
    # interfaces.md: deal seeds derived deterministically from the match seed and deal number
    a = Match.new(Rules(target=2500), first_dealer=0, seed=99)
    b = Match.new(Rules(target=2500), first_dealer=0, seed=99)
    assert a.to_dict() != Match.new(Rules(target=2500), first_dealer=0, seed=100).to_dict()
    play_match(a)
    play_match(b)
    assert a.history == b.history
    assert len({entry["seed"] for entry in a.history}) == len(a.history)


def test_match_round_trip_and_view_hide_secrets() -> None:
    # interfaces.md Match: to_dict/from_dict exact; the view shows no seed of an unfinished deal
    match_seed = 987_654_321
    match = Match.new(Rules(target=2500), first_dealer=0, seed=match_seed)
    views: list[tuple[int, str]] = []  # (deal number, serialized views) while the deal is on

    def check(m: Match, event: dict[str, Any]) -> None:
        data = m.to_dict()
        assert Match.from_dict(json.loads(json.dumps(data))).to_dict() == data
        if not event["deal_over"]:
            views.append((m.deal_number, json.dumps([m.view(s) for s in (0, 1, 2, 3, None)])))

    play_match(match, check=check)
    seeds = {entry["number"]: entry["seed"] for entry in match.history}
    for number, text in views:
        assert str(match_seed) not in text
        if seeds[number] >= 10**6:  # long enough not to occur by chance
            assert str(seeds[number]) not in text


def test_match_view_shape() -> None:
    # interfaces.md Match.view
    match = Match.new(Rules(target=2500), first_dealer=0, seed=4)
    view = match.view(0)
    assert set(view) == MATCH_VIEW_KEYS
    assert view["deal_number"] == 1 and list(view["scores"]) == [0, 0]
    assert view["history"] == [] and view["over"] is False and view["winner"] is None
    assert view["last_deal"] is None
    assert view["deal"] == match.deal.view(0)
    assert "hand" not in match.view(None)["deal"]
    # play the first deal out
    while match.deal_number == 1 and not match.over:
        seat = match.deal.turn
        for action in autoplay(match.deal, seat):
            if match.apply(seat, action)["deal_over"]:
                break
    view = match.view(1)
    if not match.over:
        assert view["deal_number"] == 2
        last = view["last_deal"]
        assert last is not None and last["result"] == match.history[0]["result"]
        assert "hand" not in last, "the previous deal's hands are not revealed"
        assert len(view["history"]) == 1
        assert "seed" not in all_keys(view), "the history in a view holds results only"
        assert json.dumps(view)


def test_match_refuses_actions_after_it_is_over() -> None:
    # R-GAME-2: a single deal; nothing is accepted once over
    match = Match.new(Rules(target=None), first_dealer=0, seed=12)
    play_match(match)
    assert match.over
    with pytest.raises(IllegalMove) as info:
        match.apply(match.deal.turn, {"type": "draw"})
    assert info.value.code == "deal_over"


def test_rules_options_round_trip_and_validation() -> None:
    # interfaces.md Rules: options round-trip; bad options are ValueError
    variants = Rules(
        wild_limit="half",
        upcard_stops_on_black_three=True,
        concealed_out_skips_minimum=True,
        stock_out="classic",
        tie="extra_deal",
        target=2500,
    )
    for rules in (Rules(), variants, Rules(target=None)):
        options = rules.to_options()
        assert json.loads(json.dumps(options)) == options
        assert Rules.from_options(options) == rules
    assert Rules.from_options({}) == Rules() and Rules().target == 5000
    for bad in (
        {"wild_limit": "any"},
        {"colour": "red"},
        {"target": "5000"},
        {"target": 0},
        {"stock_out": None},
        {"stock_out": 1},
        {"tie": None},
        {"concealed_out_skips_minimum": "yes"},
    ):
        with pytest.raises(ValueError):
            Rules.from_options(bad)
    with pytest.raises(ValueError):
        Rules(tie="coin")


def test_the_same_options_are_parsed_once_and_a_look_alike_value_is_still_judged() -> None:
    options = {"target": 2500, "acaba": True}
    parsed = Rules.from_options(options)

    assert Rules.from_options(dict(options)) is parsed
    assert Rules.from_options({"target": 2500}) is not parsed
    # 1 == True and hashes alike, yet it is no flag: the parse of the look-alike still refuses it.
    with pytest.raises(ValueError):
        Rules.from_options({"target": 2500, "acaba": 1})
    with pytest.raises(ValueError):
        Rules.from_options({"target": [2500]})
    with pytest.raises(ValueError):
        Rules.from_options([])


@pytest.mark.parametrize(
    "action", [None, "draw", {"type": "fly"}, {"type": "discard", "card": "ZZ"}]
)
def test_match_apply_refuses_junk_unchanged(action: Any) -> None:
    # interfaces.md Match.apply: the deal's refusals come through unchanged
    match = Match.new(Rules(), first_dealer=0, seed=3)
    before = json.dumps(match.to_dict())
    with pytest.raises(IllegalMove):
        match.apply(1, action)
    with pytest.raises(IllegalMove) as info:
        match.apply(2, {"type": "draw"})
    assert info.value.code == "not_your_turn"
    assert json.dumps(match.to_dict()) == before


def first_tied_single_deal(seeds: range) -> tuple[int, int]:
    """(match seed, tied total) of the first autoplayed single deal ending level at a total
    that is a valid target (TARGET_MIN or more)."""
    for seed in seeds:
        match = Match.new(Rules(target=None), first_dealer=0, seed=seed)
        play_match(match)
        if match.scores[0] == match.scores[1] and match.scores[0] >= TARGET_MIN:
            return seed, match.scores[0]
    raise AssertionError(f"no autoplayed deal ended level in seeds {seeds}; widen the range")


def test_r_game_1_both_reach_the_target_level_is_a_draw_or_an_extra_deal() -> None:
    # R-GAME-1: both teams reach the target in the same deal with equal totals: a draw; with
    # tie="extra_deal" another deal is played. The tied deal is found by scanning match seeds
    # (deal 1 depends only on the match seed and the first dealer, not on the target).
    seed, total = first_tied_single_deal(range(1000, 1400))
    draw_match = Match.new(Rules(target=total), first_dealer=0, seed=seed)
    play_match(draw_match)
    assert draw_match.over and len(draw_match.history) == 1
    assert draw_match.scores == (total, total) and draw_match.winner is None

    extra = Match.new(Rules(target=total, tie="extra_deal"), first_dealer=0, seed=seed)
    while extra.deal_number == 1:
        seat = extra.deal.turn
        for action in autoplay(extra.deal, seat):
            if extra.apply(seat, action)["deal_over"]:
                break
    assert extra.history[0]["scores_after"] in ([total, total], (total, total))
    assert not extra.over and extra.deal_number == 2, "a level finish plays an extra deal"
    play_match(extra)
    assert extra.scores[0] != extra.scores[1] and extra.winner == expected_winner(extra.scores)


# --- the target exactly, on a stacked deal ---------------------------------------------------

# Seat 0 (dealer 3) goes out concealed at once: seven queens + four aces, discard 9C.
GOING_OUT = {0: ["QS", "QH", "QD", "QC", "QS", "QH", "QD", "AS", "AH", "AD", "9C"]}
GOING_OUT_ACTIONS = [
    {"type": "draw"},  # AC
    {"type": "meld", "melds": [{"cards": GOING_OUT[0][:7]}, {"cards": ["AS", "AH", "AD", "AC"]}]},
    {"type": "discard", "card": "9C"},
]


def going_out_totals() -> tuple[int, int]:
    deal = Deal.new(Rules(), dealer=3, deck=build_deck(hands=GOING_OUT, stock=["AC"]))
    for action in GOING_OUT_ACTIONS:
        deal.apply(0, action)
    assert deal.result is not None
    return deal.result[0]["total"], deal.result[1]["total"]


def going_out_from(rules: Rules, scores: tuple[int, int]) -> Match:
    """A match standing at `scores` whose deal is GOING_OUT, played out by seat 0."""
    match = Match.new(rules, first_dealer=3, seed=11)
    match.scores = scores
    deck = build_deck(hands=GOING_OUT, stock=["AC"])
    match.deal = Deal.new(rules, dealer=3, team_scores=scores, deck=deck)
    for action in GOING_OUT_ACTIONS:
        match.apply(0, action)
    return match


@pytest.mark.parametrize(("rules", "target"), [(Rules(), 5000), (Rules(target=2500), 2500)])
def test_r_game_1_reaching_the_target_exactly_wins(rules: Rules, target: int) -> None:
    # R-GAME-1 (and the R-GAME-2 variant target=2500): a total of exactly the target ends it
    mine, theirs = going_out_totals()
    match = going_out_from(rules, (target - mine, 0))
    assert match.over and match.winner == 0
    assert match.scores == (target, theirs)


def test_r_game_1_below_the_target_deals_again() -> None:
    # R-GAME-1 + R-OPEN-1: 4990 plays another deal, whose minimum follows the new score
    mine, _theirs = going_out_totals()
    match = going_out_from(Rules(), (4990 - mine, 0))
    assert not match.over and match.deal_number == 2 and match.deal.minimums[0] == 120


@pytest.mark.parametrize("seed", [40, 41, 42])
def test_r_game_deals_a_fixed_number_of_deals(seed: int) -> None:
    # R-GAME-DEALS: with deals=3 and no target the game is three deals, won on points
    match = Match.new(Rules(target=None, deals=3), first_dealer=2, seed=seed)
    play_match(match)
    assert [entry["number"] for entry in match.history] == [1, 2, 3]
    assert [entry["dealer"] for entry in match.history] == [2, 3, 0]
    assert match.winner == expected_winner(match.scores)


def test_r_game_deals_of_two_matches_with_one_seed_deal_the_same_cards() -> None:
    # R-GAME-DEALS: the duplicate tournaments' boards: deal k of each match, seat by seat
    rules = Rules(target=None, deals=2)
    first = Match.new(rules, first_dealer=1, seed=2026)
    second = Match.new(rules, first_dealer=1, seed=2026)
    for seat in range(4):
        assert first.deal.view(seat)["hand"] == second.deal.view(seat)["hand"]
    play_match(first)
    play_match(second)
    assert [entry["seed"] for entry in first.history] == [e["seed"] for e in second.history]


@pytest.mark.parametrize(
    "options",
    [{"deals": 0}, {"deals": 13}, {"deals": True}, {"deals": "2"}, {"deals": 2, "target": 5000}],
)
def test_r_game_deals_refuses_a_bad_count(options: dict[str, Any]) -> None:
    # R-GAME-DEALS: 1 to 12 deals, and no target beside them
    with pytest.raises(ValueError):
        Rules.from_options({"target": None, **options})


def test_r_game_deals_is_left_out_of_the_options_by_default() -> None:
    # Stored games read as before: no `deals` key unless set
    assert "deals" not in Rules().to_options()
    assert Rules(target=None, deals=4).to_options()["deals"] == 4
    assert Rules(game="samba", target=None, deals=2).deals == 2
