"""Properties of random legal play (hypothesis), through the public engine API only.

Each example deals with a random seed and plays random actions picked from `legal_actions`;
after every step: all 108 cards (162 at six) are accounted for (R-CARD-1, R-TABLE-6), no view
shows another seat's hand, the state round-trips through to_dict/from_dict, random refused
actions change nothing, and `autoplay` finishes the current turn legally. The four-handed club
game and every other table (two, three, six; two canastas to go out) are played. Examples are
bounded to keep the file fast.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Deal, IllegalMove, Rules, legal_actions
from games.engine.seating import Seating
from games.engine.variants.classic.moves import opening_melds
from games.players import autoplay
from tests.engine.decks import (
    FULL_DECK,
    assert_view_hides_others,
    build_deck,
    cards_on_table,
    is_natural,
    is_wild,
    iter_card_codes,
    public_cards,
    state,
    team_view,
    value,
)
from tests.engine.sequence_checks import check_sequence_result

MAX_STEPS = 3000  # actions; a deal has a 63-card stock, so a few hundred at most are expected

RULES = st.sampled_from(
    [
        Rules(),
        Rules(wild_limit="half"),
        Rules(stock_out="classic"),
        Rules(upcard_stops_on_black_three=True, concealed_out_skips_minimum=True),
        Rules(wild_limit="half", stock_out="classic", concealed_out_skips_minimum=True),
        # The classic article's options and British «Acaba» (issue 24)
        Rules(hand_of_twelve=True, canasta_in_hand_opens=True, red_threes="going_out"),
        Rules(target=7000, minimums_7000=True, acaba=True),
    ]
)
# Samba and Bolivia (issue 24), with scores across every opening band (R-SAMBA-OPEN, R-BOL-OPEN)
SEQUENCE_RULES = st.sampled_from([Rules(game="samba"), Rules(game="bolivia")])
SEQUENCE_SCORES = st.sampled_from([(0, 0), (-40, 1500), (3000, 7000), (6995, 14_000)])
SCORES = st.sampled_from([(0, 0), (-40, 1500), (3000, 2995), (1495, -5)])
# The other tables (issue 13), with variants; scores for up to three teams, cut to the table's.
TABLE_RULES = st.sampled_from(
    [
        Rules(players=2),
        Rules(players=2, wild_limit="half", stock_out="classic"),
        Rules(players=3),
        Rules(players=3, upcard_stops_on_black_three=True, concealed_out_skips_minimum=True),
        Rules(players=6),
        Rules(players=6, stock_out="classic", wild_limit="half"),
        Rules(players=6, teams=2),
        Rules(canastas_to_go_out=2),
    ]
)
TABLE_SCORES = st.sampled_from([(0, 0, 0), (-40, 1500, 7500), (3000, 7495, -5), (7500, 9000, 0)])
PROPERTY_SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)

CODES = sorted(set(FULL_DECK))
CONTRACT_CODES = {
    "not_your_turn",
    "wrong_phase",
    "unknown_card",
    "card_not_in_hand",
    "meld_too_small",
    "mixed_ranks",
    "too_many_wilds",
    "wild_only",
    "threes_not_allowed",
    "below_minimum",
    "minimum_unreachable",
    "pile_blocked",
    "pile_frozen",
    "cannot_take_pile",
    "undo_not_allowed",
    "must_keep_card",
    "no_canasta",
    "deal_over",
    "bad_action",
    # Samba and Bolivia (R-SAMBA-SEQ, R-BOL-WILD) and the answer about «Acaba» (R-ACABA-ASK)
    "meld_closed",
    "must_go_out",
    "may_not_go_out",
    "awaiting_partner",
}


def random_action(rng: random.Random, hand: list[str]) -> Any:
    """A random, mostly wrong action: plausible shapes with cards from the hand or anywhere,
    and plain junk."""
    pool = hand + CODES if hand else CODES

    def cards(n: int) -> list[str]:
        return [rng.choice(pool) for _ in range(n)]

    kind = rng.randrange(9)
    if kind == 0:
        return {"type": "draw"}
    if kind == 1:
        melds = [{"cards": cards(rng.randrange(0, 4))} for _ in range(rng.randrange(0, 2))]
        return {"type": "take_pile", "cards": cards(rng.randrange(0, 3)), "melds": melds}
    if kind == 2:
        entries: list[dict[str, Any]] = [
            {"cards": cards(rng.randrange(1, 5))} for _ in range(rng.randrange(1, 3))
        ]
        if rng.random() < 0.3:
            entries[0]["rank"] = rng.choice("AKQJT98765432")
        return {"type": "meld", "melds": entries}
    if kind == 3:
        return {"type": "undo"}
    if kind == 4:
        return {"type": "discard", "card": rng.choice(pool)}
    if kind == 5:
        return {"type": "discard", "card": rng.choice(["XX", "", None, 3, "10H"])}
    if kind == 6:
        return {"type": rng.choice(["meld", "take_pile", "discard", "fly"])}
    if kind == 7:
        return rng.choice([None, [], "draw", 0, {"melds": []}])
    return {"type": "meld", "melds": [{"cards": cards(3), "rank": rng.choice([None, 5, "Z"])}]}


def check_counts(deal: Deal) -> None:
    """R-CARD-1 at every table: every card of the table's packs is somewhere, for every seat."""
    spectator = deal.view(None)
    cards = 54 * deal.rules.packs
    assert cards_on_table(spectator) == cards
    for seat in deal.rules.seating.seats:
        view = deal.view(seat)
        assert view["hand_counts"] == spectator["hand_counts"]
        assert cards_on_table(view) == cards


def check_round_trip(deal: Deal) -> None:
    data = deal.to_dict()
    text = json.dumps(data)
    copy = Deal.from_dict(json.loads(text))
    assert copy.to_dict() == data
    assert json.dumps(copy.to_dict()) == text


def check_refusals(deal: Deal, rng: random.Random, tries: int) -> None:
    before = state(deal)
    for _ in range(tries):
        copy = Deal.from_dict(json.loads(before))
        seat = rng.choice([*deal.rules.seating.seats, deal.turn, deal.turn])
        action = random_action(rng, copy.view(seat)["hand"])
        try:
            copy.apply(seat, action)
        except IllegalMove as exc:
            assert exc.code in CONTRACT_CODES, exc.code
            assert state(copy) == before, f"refused {action!r} by seat {seat} changed the deal"
    assert state(deal) == before


def check_autoplay(deal: Deal) -> None:
    if deal.phase == "over":
        return
    seat = deal.to_act  # the partner while a question waits (R-HOUSE-ASK, R-ACABA-ASK)
    before = state(deal)
    actions = autoplay(deal, seat)
    assert state(deal) == before, "autoplay must not mutate the deal"
    assert actions, "autoplay returned nothing for the seat to move"
    copy = Deal.from_dict(json.loads(before))
    for action in actions:
        json.dumps(action)
        copy.apply(seat, action)  # raises IllegalMove if autoplay proposes an illegal action
    next_seat = deal.rules.seating.next_seat(seat)
    if seat != deal.turn:  # an answer: the asker acts next
        assert copy.to_act == deal.turn
        return
    assert copy.phase == "over" or (copy.turn == next_seat and copy.phase == "draw")


def red_three_points(count: int, players: int) -> int:
    """R-RED-1: 100 each, all four 800; at six (R-TABLE-6-RED) five 1,000, six 1,200."""
    if players == 6:
        return {5: 1000, 6: 1200}.get(count, 100 * count)
    return 800 if count == 4 else 100 * count


def check_result(deal: Deal) -> None:
    """R-SCORE-1, R-CAN-1/2, R-RED-1/2, R-OUT-1/3, R-END-1: the result recomputed from the
    final views (Samba and Bolivia: sequence_checks.py; «Acaba»: R-ACABA-1)."""
    if deal.rules.game != "classic":  # Samba, Bolivia
        check_sequence_result(deal)
        return
    result = deal.result
    assert result is not None and deal.phase == "over"
    if any(line.get("acaba") for line in result):
        assert sorted(line["total"] for line in result) == [0, 1500]
        assert all(line["total"] == line["acaba"] for line in result)
        return
    spectator = deal.view(None)
    seating = deal.rules.seating
    hands = [deal.view(seat)["hand"] for seat in seating.seats]
    out_seats = [seat for seat in seating.seats if not hands[seat]]
    assert len(out_seats) <= 1
    assert len(result) == len(seating.teams)
    for t, seats in enumerate(seating.teams):
        team, line = spectator["teams"][t], result[t]
        melds = team["melds"]
        assert line["cards"] == sum(value(c) for m in melds for c in m["cards"])
        bonus = {None: 0, "natural": 500, "mixed": 300}
        assert line["canastas"] == sum(bonus[m["canasta"]] for m in melds)
        for m in melds:
            wilds = sum(1 for c in m["cards"] if is_wild(c))
            expected_kind = None if len(m["cards"]) < 7 else ("mixed" if wilds else "natural")
            assert m["canasta"] == expected_kind
        red_points = red_three_points(len(team["red_threes"]), deal.rules.players)
        plus = bool(melds)
        if deal.rules.red_threes == "going_out" and out_seats:  # R-ART-RED
            plus = seating.team_of(out_seats[0]) == t
        assert line["red_threes"] == (red_points if plus else -red_points)
        assert line["hand"] == -sum(value(c) for seat in seats for c in hands[seat])
        if out_seats and seating.team_of(out_seats[0]) == t:
            assert line["going_out"] in (100, 200)
            canastas = sum(1 for m in melds if m["canasta"])
            assert canastas >= deal.rules.canastas_to_go_out, "went out without the canastas"
        else:
            assert line["going_out"] == 0
        parts = ("cards", "canastas", "red_threes", "going_out", "hand")
        assert line["total"] == sum(line[k] for k in parts) + line.get("acaba", 0)


def check_public_event(
    event: dict[str, Any], before: dict[str, Any], after: dict[str, Any]
) -> None:
    """interfaces.md apply(): the "public" part of an event shows no card that was hidden before
    and after the action (a drawn card, a replacement, the rest of a taken pile's hand...)."""
    assert set(event) >= {"public", "private"}
    visible = public_cards(before) | public_cards(after)
    shown = set(iter_card_codes(event["public"]))
    assert shown <= set(visible), f"public event shows hidden cards {shown - set(visible)}"


def check_opening(
    before: dict[str, Any], after: dict[str, Any], seating: Seating, *, canasta_opens: bool = False
) -> None:
    """R-OPEN-1..3 between two spectator views around one action: a team that has not opened
    only holds this turn's melds, worth less than its minimum; when it opens, its melds (all
    laid this turn, pile cards other than the top never among them) reach the minimum."""
    if after["phase"] == "over":
        return
    for t, team in enumerate(after["teams"]):
        points = sum(value(c) for m in team["melds"] for c in m["cards"])
        if not team["opened"] and team["melds"]:
            assert t == seating.team_of(after["turn"]) and after["phase"] == "play"
            assert points < team["minimum"]
        if team["opened"] and not before["teams"][t]["opened"]:
            canasta = any(len(m["cards"]) >= 7 for m in team["melds"])  # R-ART-CANASTA
            assert points >= team["minimum"] or (canasta_opens and canasta), f"team {t} opened"


class OutTracker:
    """Follows the actions of a deal to predict the going-out bonus (R-OUT-3): 200 when the
    player who goes out melded nothing in an earlier turn, touched only melds created this turn
    and one of them is a canasta; 100 otherwise."""

    def __init__(self, seating: Seating, *, concealed: bool = True) -> None:
        self.seating = seating
        self.concealed = concealed  # Samba and Bolivia have no concealed bonus (R-SAMBA-OUT)
        self.melded_before = [False] * seating.players
        self.turn_ranks: set[str] = set()
        self.ranks_at_start: set[str] = set()
        self.seat: int | None = None

    def before(self, deal: Deal, seat: int) -> None:
        if seat != deal.turn:  # a partner's answer is no part of the turn
            return
        if self.seat != seat or deal.phase == "draw":
            self.seat = seat
            self.turn_ranks = set()
            team = deal.view(None)["teams"][self.seating.team_of(seat)]
            self.ranks_at_start = {m["rank"] for m in team["melds"]}

    def after(self, deal: Deal, seat: int, action: dict[str, Any], top: str | None) -> None:
        if not self.concealed:
            return
        kind = action["type"]
        if kind == "undo":
            self.turn_ranks = set()
        elif kind in ("meld", "take_pile"):
            if kind == "take_pile" and top:
                self.turn_ranks.add(top[0])
            for entry in action.get("melds", []):
                naturals = [c for c in entry["cards"] if not is_wild(c)]
                self.turn_ranks.add(naturals[0][0] if naturals else entry["rank"])
        if deal.phase == "over":
            self.check(deal, seat)
        elif kind == "discard" and self.turn_ranks:
            self.melded_before[seat] = True

    def check(self, deal: Deal, seat: int) -> None:
        result = deal.result
        assert result is not None
        if deal.view(seat)["hand"]:
            return  # the stock ran out: no going out
        team_number = self.seating.team_of(seat)
        team = deal.view(None)["teams"][team_number]
        sizes = {m["rank"]: len(m["cards"]) for m in team["melds"]}
        concealed = (
            not self.melded_before[seat]
            and not (self.turn_ranks & self.ranks_at_start)
            and any(sizes.get(rank, 0) >= 7 for rank in self.turn_ranks)
        )
        assert result[team_number]["going_out"] == (200 if concealed else 100)


def random_legal_play(deal: Deal, rng: random.Random, *, every_step: Any) -> int:
    steps = 0
    seating = deal.rules.seating
    tracker = OutTracker(seating, concealed=deal.rules.game == "classic")
    canasta_opens = deal.rules.canasta_in_hand_opens
    while deal.phase != "over":
        seat = deal.to_act
        actions = legal_actions(deal, seat)
        assert actions, "no legal action for the seat to move"
        for other in seating.seats:
            if other != seat:
                assert legal_actions(deal, other) == []
        action = rng.choice(actions)
        before = deal.view(None)
        tracker.before(deal, seat)
        event = deal.apply(seat, action)
        tracker.after(deal, seat, action, before["pile"]["top"])
        check_opening(before, deal.view(None), seating, canasta_opens=canasta_opens)
        check_public_event(event, before, deal.view(None))
        steps += 1
        every_step(deal, steps)
        assert steps < MAX_STEPS, "the deal does not end"
    return steps


@PROPERTY_SETTINGS
@given(
    seed=st.integers(0, 2**48),
    play_seed=st.integers(0, 2**32),
    rules=RULES,
    dealer=st.integers(0, 3),
    scores=SCORES,
)
def test_random_legal_play_keeps_every_invariant(
    seed: int, play_seed: int, rules: Rules, dealer: int, scores: tuple[int, int]
) -> None:
    # R-CARD-1, CONTRACT §2 (view, round trip, refusals), interfaces.md legal_actions/autoplay
    deal = Deal.new(rules, dealer=dealer, team_scores=scores, seed=seed)
    play_checking_every_invariant(deal, random.Random(play_seed))


@PROPERTY_SETTINGS
@given(
    seed=st.integers(0, 2**48),
    play_seed=st.integers(0, 2**32),
    rules=TABLE_RULES,
    dealer_step=st.integers(0, 5),
    scores=TABLE_SCORES,
)
def test_every_table_keeps_every_invariant_in_random_legal_play(
    seed: int, play_seed: int, rules: Rules, dealer_step: int, scores: tuple[int, ...]
) -> None:
    # R-TABLE-2/3/6, R-HOUSE-TWO: the same invariants at every table (108 or 162 cards)
    deal = Deal.new(
        rules,
        dealer=dealer_step % rules.players,
        team_scores=scores[: rules.teams],
        seed=seed,
    )
    play_checking_every_invariant(deal, random.Random(play_seed))


@PROPERTY_SETTINGS
@given(
    seed=st.integers(0, 2**48),
    play_seed=st.integers(0, 2**32),
    rules=SEQUENCE_RULES,
    dealer=st.integers(0, 3),
    scores=SEQUENCE_SCORES,
)
def test_samba_and_bolivia_keep_every_invariant_in_random_legal_play(
    seed: int, play_seed: int, rules: Rules, dealer: int, scores: tuple[int, int]
) -> None:
    # R-SAMBA-*, R-BOL-*: every card of 162 accounted for, no hidden card in a view, exact round
    # trips, refusals changing nothing, every offered action accepted, every deal ends, the
    # result recomputed from the views
    deal = Deal.new(rules, dealer=dealer, team_scores=scores, seed=seed)
    play_checking_every_invariant(deal, random.Random(play_seed))


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**48), rules=SEQUENCE_RULES, scores=SEQUENCE_SCORES)
def test_autoplay_alone_finishes_every_samba_and_bolivia_deal(
    seed: int, rules: Rules, scores: tuple[int, int]
) -> None:
    # R-SAMBA-*, R-BOL-*: autoplay is legal and every deal ends
    autoplay_to_the_end(Deal.new(rules, dealer=seed % 4, team_scores=scores, seed=seed))


@settings(PROPERTY_SETTINGS, max_examples=10)
@given(seed=st.integers(0, 2**48), play_seed=st.integers(0, 2**32), rules=SEQUENCE_RULES)
def test_samba_and_bolivia_legal_actions_are_legal_and_list_every_discard_draw_and_undo(
    seed: int, play_seed: int, rules: Rules
) -> None:
    # R-SAMBA-ENTRY/PILE: every action offered is legal; discards, draw and undo exactly
    deal = Deal.new(rules, dealer=1, team_scores=(-10, 0), seed=seed)
    check_legal_actions_through_a_deal(deal, random.Random(play_seed), sample=None)


def play_checking_every_invariant(deal: Deal, rng: random.Random) -> None:
    """Random legal play to the end: cards accounted for, views hiding the other hands, exact
    round trips, refusals changing nothing, autoplay finishing turns, the result adding up."""
    check_counts(deal)
    assert_view_hides_others(deal)

    def every_step(current: Deal, step: int) -> None:
        check_counts(current)
        check_round_trip(current)
        if step % 3 == 0:
            assert_view_hides_others(current)
            check_refusals(current, rng, tries=4)
        if step % 5 == 0:
            check_autoplay(current)

    random_legal_play(deal, rng, every_step=every_step)
    check_result(deal)
    check_refusals(deal, rng, tries=10)


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**48), rules=RULES, dealer=st.integers(0, 3), scores=SCORES)
def test_autoplay_alone_finishes_every_deal(
    seed: int, rules: Rules, dealer: int, scores: tuple[int, int]
) -> None:
    # interfaces.md autoplay: legal, never stuck; every deal ends within a bounded number of moves
    autoplay_to_the_end(Deal.new(rules, dealer=dealer, team_scores=scores, seed=seed))


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**48), rules=TABLE_RULES, scores=TABLE_SCORES)
def test_autoplay_alone_finishes_every_deal_at_every_table(
    seed: int, rules: Rules, scores: tuple[int, ...]
) -> None:
    # R-TABLE-2/3/6, R-HOUSE-TWO: autoplay is legal and every deal ends at every table
    dealer = seed % rules.players
    autoplay_to_the_end(
        Deal.new(rules, dealer=dealer, team_scores=scores[: rules.teams], seed=seed)
    )


def autoplay_to_the_end(deal: Deal) -> None:
    rules = deal.rules
    tracker = OutTracker(rules.seating, concealed=rules.game == "classic")
    steps = 0
    while deal.phase != "over":
        seat = deal.turn
        actions = autoplay(deal, seat)
        assert actions
        for action in actions:
            before = deal.view(None)
            tracker.before(deal, seat)
            deal.apply(seat, action)
            tracker.after(deal, seat, action, before["pile"]["top"])
            check_opening(
                before, deal.view(None), rules.seating, canasta_opens=rules.canasta_in_hand_opens
            )
            steps += 1
        assert deal.phase == "over" or deal.turn == rules.seating.next_seat(seat)
        check_counts(deal)
        assert steps < MAX_STEPS
    check_result(deal)


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**48), play_seed=st.integers(0, 2**32), rules=RULES)
def test_autoplay_finishes_a_turn_from_mid_turn_states(
    seed: int, play_seed: int, rules: Rules
) -> None:
    # interfaces.md autoplay "from ANY state": after random melds / an undo in the middle of a turn
    deal = Deal.new(rules, dealer=0, team_scores=(-10, -10), seed=seed)
    rng = random.Random(play_seed)
    steps = 0
    while deal.phase != "over" and steps < MAX_STEPS:
        seat = deal.turn
        actions = legal_actions(deal, seat)
        non_discards = [a for a in actions if a.get("type") != "discard"]
        if deal.phase == "play" and non_discards and rng.random() < 0.7:
            deal.apply(seat, rng.choice(non_discards))
            steps += 1
            check_autoplay(deal)
            continue
        for action in autoplay(deal, seat):
            deal.apply(seat, action)
            steps += 1
    assert deal.phase == "over"


def accepted(before: str, seat: int, action: Any) -> bool:
    copy = Deal.from_dict(json.loads(before))
    try:
        copy.apply(seat, action)
    except IllegalMove:
        return False
    return True


@settings(PROPERTY_SETTINGS, max_examples=12)
@given(seed=st.integers(0, 2**48), play_seed=st.integers(0, 2**32), rules=RULES)
def test_legal_actions_are_legal_and_list_every_discard_draw_and_undo(
    seed: int, play_seed: int, rules: Rules
) -> None:
    # interfaces.md legal_actions: "legal draws/pile takes, a useful set of legal melds, every
    # legal discard, undo" - every listed action is accepted; none of the simple ones is missing
    deal = Deal.new(rules, dealer=1, team_scores=(0, 0), seed=seed)
    check_legal_actions_through_a_deal(deal, random.Random(play_seed), sample=6)


@settings(PROPERTY_SETTINGS, max_examples=10)
@given(seed=st.integers(0, 2**48), play_seed=st.integers(0, 2**32), rules=TABLE_RULES)
def test_legal_actions_at_every_table_are_legal_and_list_every_discard_draw_and_undo(
    seed: int, play_seed: int, rules: Rules
) -> None:
    # R-TABLE-2/3/6, R-HOUSE-TWO: every action offered is legal (the canastas the table needs
    # to go out included), none of the simple ones is missing
    scores = (-10, 0, 1500)[: rules.teams]
    deal = Deal.new(rules, dealer=1, team_scores=scores, seed=seed)
    check_legal_actions_through_a_deal(deal, random.Random(play_seed), sample=None)


def check_legal_actions_through_a_deal(deal: Deal, rng: random.Random, sample: int | None) -> None:
    """At each step of random legal play: `sample` of the listed actions (None: all) are
    accepted, the listed discards are exactly the legal ones, draw and undo are listed exactly
    when legal, and a pile take is listed whenever the simplest one is legal."""
    steps = 0
    while deal.phase != "over" and steps < 400:
        seat = deal.turn
        actions = legal_actions(deal, seat)
        before = state(deal)
        checked = actions if sample is None else rng.sample(actions, min(len(actions), sample))
        for action in checked:
            assert accepted(before, seat, action), action
        listed_discards = {a["card"] for a in actions if a["type"] == "discard"}
        legal_discards = {
            card
            for card in set(deal.view(seat)["hand"])
            if accepted(before, seat, {"type": "discard", "card": card})
        }
        assert listed_discards == legal_discards
        for simple in ({"type": "draw"}, {"type": "undo"}):
            assert (simple in actions) == accepted(before, seat, simple), simple
        if not any(a["type"] == "take_pile" for a in actions):
            assert not accepted(before, seat, {"type": "take_pile", "cards": []})
        deal.apply(seat, rng.choice(actions))
        steps += 1


# --- R-UNDO-3 against an independent brute force -----------------------------------------------

MINIMUM_BY_SCORES = {(-5, 0): 15, (0, 0): 50, (1500, 0): 90, (3000, 0): 120}


def minimum_reachable(
    hand: list[str], laid: dict[str, list[str]], points: int, minimum: int, *, strict: bool
) -> bool:
    """Can melds from `hand` (joining this turn's `laid` melds) bring `points` to `minimum`,
    keeping two cards unless the team then has a canasta (R-OUT-2), black threes only going out
    (R-MELD-4)? An independent dynamic programme over ranks: state (wilds used, cards used,
    canasta) -> best natural points."""
    naturals = Counter(card[0] for card in hand if is_natural(card))
    wild_values = sorted((value(card) for card in hand if is_wild(card)), reverse=True)
    blacks = sum(1 for card in hand if card in ("3S", "3C"))
    shapes = {}
    for rank, cards in laid.items():
        wilds = sum(1 for card in cards if is_wild(card))
        shapes[rank] = (len(cards) - wilds, wilds, len(cards))
    start_canasta = any(size >= 7 for _, _, size in shapes.values())
    states: dict[tuple[int, int, bool], int] = {(0, 0, start_canasta): 0}
    for rank in set(naturals) | {r for r in shapes if r != "3"}:
        on_nat, on_wild, size = shapes.get(rank, (0, 0, 0))
        rank_value = value(rank + "S")
        options = []
        for n in range(naturals[rank] + 1):
            for w in range(4):
                if n == 0 and w == 0:
                    continue
                nat, wild = on_nat + n, on_wild + w
                if size == 0 and (n < 1 or n + w < 3):
                    continue
                if wild > 3 or (wild >= nat if strict else wild > nat):
                    continue
                options.append((n, w, size + n + w >= 7))
        new_states = dict(states)
        for (w_used, used, canasta), pts in states.items():
            for n, w, makes_canasta in options:
                if w_used + w > len(wild_values):
                    continue
                key = (w_used + w, used + n + w, canasta or makes_canasta)
                new_states[key] = max(new_states.get(key, -1), pts + n * rank_value)
        states = new_states
    for (w_used, used, canasta), pts in states.items():
        total = points + pts + sum(wild_values[:w_used])
        left = len(hand) - used
        if total >= minimum and (left >= 2 or canasta):
            return True
        if canasta and blacks >= 3:
            for b in range(3, blacks + 1):
                if left - b <= 1 and left - b >= 0 and total + 5 * b >= minimum:
                    return True
    return False


def biased_hand(rng: random.Random) -> list[str]:
    """Twelve cards rich in pairs, triples and wilds (an opening hand worth thinking about)."""
    pool = Counter(FULL_DECK)
    for red in ("3H", "3D"):
        del pool[red]
    cards: list[str] = []

    def take(code: str) -> bool:
        if pool[code] > 0 and len(cards) < 12:
            pool[code] -= 1
            cards.append(code)
            return True
        return False

    for rank in rng.sample("AKQJT987654", rng.randint(2, 5)):
        wanted = rng.randint(2, 5)
        for suit in rng.sample("SHDC" * 2, 8):
            if wanted and take(rank + suit):
                wanted -= 1
    for _ in range(rng.randint(0, 4)):
        take(rng.choice(["JK", "2S", "2H", "2D", "2C"]))
    for _ in range(rng.choice([0, 0, 3])):
        take(rng.choice(["3S", "3C"]))
    while len(cards) < 12:
        take(rng.choice(sorted(pool.elements())))
    return cards


def candidate_melds(hand: list[str]) -> list[list[dict[str, Any]]]:
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        if is_natural(card):
            by_rank.setdefault(card[0], []).append(card)
    wilds = [card for card in hand if is_wild(card)]
    found: list[list[dict[str, Any]]] = []
    for cards in by_rank.values():
        for n in range(2, len(cards) + 1):
            for w in range(0, min(2, len(wilds)) + 1):
                if n + w >= 3:
                    found.append([{"cards": cards[:n] + wilds[:w]}])
    return found


def after_an_undo(hand_seed: int, scores: tuple[int, int]) -> tuple[str, list[str]] | None:
    """Seat 0 of an unopened team drew, melded part of a biased hand and undid it: the state
    and the hand, or None when no part of the hand could be melded."""
    rng = random.Random(hand_seed)
    cards = biased_hand(rng)
    deck = build_deck(hands={0: cards[:11]}, stock=[cards[11]])
    base = Deal.new(Rules(), dealer=3, team_scores=scores, deck=deck)
    base.apply(0, {"type": "draw"})
    hand0 = base.view(0)["hand"]
    first = next(
        (
            m
            for m in candidate_melds(hand0)
            if accepted(state(base), 0, {"type": "meld", "melds": m})
        ),
        None,
    )
    if first is None:
        return None
    base.apply(0, {"type": "meld", "melds": first})
    base.apply(0, {"type": "undo"})
    return state(base), hand0


@settings(PROPERTY_SETTINGS, max_examples=100)
@given(hand_seed=st.integers(0, 2**32), scores=st.sampled_from(sorted(MINIMUM_BY_SCORES)))
def test_r_undo_3_minimum_unreachable_exactly_when_no_melds_can_reach_it(
    hand_seed: int, scores: tuple[int, int]
) -> None:
    # R-UNDO-3: after an undo a meld is refused with `minimum_unreachable` exactly when the
    # minimum can no longer be reached; an accepted meld never leaves the player stuck
    minimum = MINIMUM_BY_SCORES[scores]
    undone = after_an_undo(hand_seed, scores)
    if undone is None:
        return
    before, hand0 = undone
    for melds in candidate_melds(hand0):
        deal = Deal.from_dict(json.loads(before))
        try:
            deal.apply(0, {"type": "meld", "melds": melds})
        except IllegalMove as exc:
            if exc.code != "minimum_unreachable":
                continue
            meld_cards = melds[0]["cards"]
            after = Counter(hand0) - Counter(meld_cards)
            laid = {next(c[0] for c in meld_cards if is_natural(c)): meld_cards}
            points = sum(value(card) for card in meld_cards)
            assert not minimum_reachable(
                list(after.elements()), laid, points, minimum, strict=True
            ), f"hand {sorted(hand0)}: {melds} refused although {minimum} is reachable"
            continue
        view = deal.view(0)
        if deal.phase == "over" or team_view(deal, 0)["opened"]:
            continue
        laid = {m["rank"]: m["cards"] for m in view["teams"][0]["melds"]}
        points = sum(value(card) for cards_ in laid.values() for card in cards_)
        assert minimum_reachable(view["hand"], laid, points, minimum, strict=True), (
            f"hand {sorted(hand0)}: {melds} accepted after an undo but {minimum} is out of reach"
        )


@settings(PROPERTY_SETTINGS, max_examples=100)
@given(hand_seed=st.integers(0, 2**32), scores=st.sampled_from(sorted(MINIMUM_BY_SCORES)))
def test_r_undo_3_no_part_of_a_hand_that_cannot_reach_the_minimum_may_be_melded(
    hand_seed: int, scores: tuple[int, int]
) -> None:
    # R-UNDO-3 as legal_actions reads it: when no plan of the whole hand reaches the minimum
    # after an undo, the engine refuses every meld that keeps cards, and none is offered
    undone = after_an_undo(hand_seed, scores)
    if undone is None:
        return
    before, hand0 = undone
    deal = Deal.from_dict(json.loads(before))
    if opening_melds(deal, 0) is not None:
        return
    assert not [action for action in legal_actions(deal, 0) if action["type"] == "meld"]
    for melds in candidate_melds(hand0):
        if len(melds[0]["cards"]) < len(hand0):
            assert not accepted(before, 0, {"type": "meld", "melds": melds}), melds


# --- taking the pile against an independent oracle ---------------------------------------------


def take_pile_oracle(view: dict[str, Any], cards: list[str], red_threes_in_pile: int) -> bool:
    """Whether seat `view["seat"]` may take the pile with `cards` (no extra melds), decided from
    RULES.md alone: R-PILE-1/3/4/5, R-FRZ-1..4, R-MELD-2, R-OPEN-1/4."""
    top = view["pile"]["top"]
    if view["phase"] != "draw" or view["turn"] != view["seat"] or top is None:
        return False
    if is_wild(top) or top[0] == "3":
        return False
    if Counter(cards) - Counter(view["hand"]):
        return False
    rank = top[0]
    team = view["teams"][view["seat"] % 2]
    meld = next((m for m in team["melds"] if m["rank"] == rank), None)
    naturals = [c for c in cards if is_natural(c)]
    wilds = [c for c in cards if is_wild(c)]
    if len(naturals) + len(wilds) != len(cards) or any(c[0] != rank for c in naturals):
        return False
    if view["pile"]["frozen"] or not team["opened"]:
        if len(naturals) < 2:  # wilds beside the natural pair join the meld (README DECIDED)
            return False
    elif meld is None and (len(naturals) < 1 or len(cards) < 2):
        return False
    on_table = meld["cards"] if meld else []
    all_naturals = 1 + len(naturals) + sum(1 for c in on_table if is_natural(c))
    all_wilds = len(wilds) + sum(1 for c in on_table if is_wild(c))
    if all_wilds > 3 or all_wilds >= all_naturals:
        return False
    hand_size = len(view["hand"])
    if hand_size == 1 and view["pile"]["count"] == 1:
        return False
    left = hand_size - len(cards) + view["pile"]["count"] - 1 - red_threes_in_pile
    canasta = (
        any(len(m["cards"]) >= 7 for m in team["melds"]) or len(on_table) + 1 + len(cards) >= 7
    )
    if left < 2 and not canasta:
        return False
    if not team["opened"]:
        return value(top) + sum(value(c) for c in cards) >= team["minimum"]
    return True


def take_candidates(hand: list[str], top: str) -> list[list[str]]:
    naturals = [c for c in hand if c[0] == top[0]]
    wilds = [c for c in hand if is_wild(c)]
    others = [c for c in hand if c not in naturals and c not in wilds]
    found: list[list[str]] = [[], naturals[:1], naturals[:2], naturals[:3], wilds[:2]]
    if naturals and wilds:
        found += [[naturals[0], wilds[0]], naturals[:2] + wilds[:1]]
    if others:
        found.append([others[0], *naturals[:1]])
    return found


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**48), play_seed=st.integers(0, 2**32))
def test_take_pile_decisions_match_the_rules(seed: int, play_seed: int) -> None:
    # R-PILE-*, R-FRZ-*: in every draw-phase state of autoplayed deals, each simple take_pile is
    # accepted exactly when the rules allow it. The pile's red threes (covered at the deal, only
    # until the first take) are not in the view; states where they could decide are skipped.
    deal = Deal.new(Rules(), dealer=0, team_scores=(-10, 1500), seed=seed)
    rng = random.Random(play_seed)
    reds_unknown = True  # until someone takes the pile, it may hold red threes from the deal
    while deal.phase != "over":
        seat = deal.turn
        view = deal.view(seat)
        if deal.phase == "draw" and view["pile"]["top"]:
            before = state(deal)
            for cards in take_candidates(view["hand"], view["pile"]["top"]):
                verdicts = {
                    take_pile_oracle(view, cards, reds) for reds in range(5 if reds_unknown else 1)
                }
                if len(verdicts) > 1:
                    continue
                action = {"type": "take_pile", "cards": cards}
                assert accepted(before, seat, action) == verdicts.pop(), (
                    f"take_pile {cards} by seat {seat}: view {json.dumps(view)}"
                )
        actions = autoplay(deal, seat)
        if rng.random() < 0.3 and deal.phase == "draw":
            actions = [rng.choice(legal_actions(deal, seat))]
        for action in actions:
            if action["type"] == "take_pile":
                reds_unknown = False
            deal.apply(seat, action)


# --- melds of an opened team against an independent oracle -------------------------------------


def meld_oracle(view: dict[str, Any], entries: list[dict[str, Any]]) -> bool:
    """Whether an OPENED team's player may lay `entries` now, from RULES.md alone: R-MELD-1..4,
    R-CAN-2, R-OUT-1/2 (no minimum applies once the team has opened)."""
    hand = Counter(view["hand"])
    used = Counter(card for entry in entries for card in entry["cards"])
    if used - hand:
        return False
    team = view["teams"][view["seat"] % 2]
    table: dict[str, tuple[int, int, int]] = {}
    for meld in team["melds"]:
        on_wilds = sum(1 for card in meld["cards"] if is_wild(card))
        table[meld["rank"]] = (len(meld["cards"]) - on_wilds, on_wilds, len(meld["cards"]))
    black = False
    for entry in entries:
        cards, hint = entry["cards"], entry.get("rank")
        naturals = [c for c in cards if is_natural(c)]
        wilds = [c for c in cards if is_wild(c)]
        threes = [c for c in cards if c[0] == "3"]
        if threes:
            if naturals or wilds or any(c in ("3H", "3D") for c in threes) or "3" in table:
                return False
            if len(threes) < 3:
                return False
            table["3"] = (len(threes), 0, len(threes))
            black = True
            continue
        if len({c[0] for c in naturals}) > 1:
            return False
        if naturals:
            rank = naturals[0][0]
            if hint is not None and hint != rank:
                return False
        else:
            if hint is None or hint not in table or hint == "3":  # R-MELD-4: no wild with threes
                return False
            rank = hint
        on_nat, on_wild, size = table.get(rank, (0, 0, 0))
        if size == 0 and len(cards) < 3:
            return False
        nat, wild = on_nat + len(naturals), on_wild + len(wilds)
        if wild > 3 or wild >= nat:
            return False
        table[rank] = (nat, wild, size + len(cards))
    left = sum(hand.values()) - sum(used.values())
    canasta = any(size >= 7 for _, _, size in table.values())
    if black and not (left <= 1 and canasta):
        return False
    return left >= 2 or canasta


def meld_candidates(view: dict[str, Any]) -> list[list[dict[str, Any]]]:
    hand = view["hand"]
    by_rank: dict[str, list[str]] = {}
    for card in hand:
        if is_natural(card):
            by_rank.setdefault(card[0], []).append(card)
    wilds = [c for c in hand if is_wild(c)]
    blacks = [c for c in hand if c in ("3S", "3C")]
    singles: list[dict[str, Any]] = []
    for cards in by_rank.values():
        for n in range(1, min(4, len(cards) + 1)):
            for w in range(0, min(2, len(wilds)) + 1):
                singles.append({"cards": cards[:n] + wilds[:w]})
        singles.append({"cards": cards})
    for meld in view["teams"][view["seat"] % 2]["melds"]:
        for w in range(1, min(2, len(wilds)) + 1):
            singles.append({"rank": meld["rank"], "cards": wilds[:w]})
    if len(blacks) >= 2:
        singles.append({"cards": blacks})
    ranks = list(by_rank)
    if len(ranks) >= 2:
        singles.append(
            {"cards": [by_rank[ranks[0]][0], by_rank[ranks[1]][0], by_rank[ranks[0]][0]]}
        )
    found = [[entry] for entry in singles]
    found += [[a, b] for a, b in zip(singles, singles[1:] + singles[:1], strict=True)]
    return found


@settings(PROPERTY_SETTINGS, max_examples=6)
@given(seed=st.integers(0, 2**48))
def test_opened_team_meld_decisions_match_the_rules(seed: int) -> None:
    # R-MELD-1..4, R-CAN-2, R-OUT-1/2: every candidate meld of an opened team is accepted exactly
    # when the rules allow it, in every play-phase state of autoplayed deals
    deal = Deal.new(Rules(), dealer=2, team_scores=(-10, -10), seed=seed)
    while deal.phase != "over":
        seat = deal.turn
        for action in autoplay(deal, seat):
            deal.apply(seat, action)
            view = deal.view(seat)
            if deal.phase != "play" or not view["teams"][seat % 2]["opened"]:
                continue
            before = state(deal)
            for entries in meld_candidates(view):
                expected = meld_oracle(view, entries)
                action_ = {"type": "meld", "melds": entries}
                assert accepted(before, seat, action_) == expected, (
                    f"meld {entries} by seat {seat}: expected {expected}, view {json.dumps(view)}"
                )
