"""games.engine.preview: what an action would do, judged by the engine on a copy of the deal."""

from games.engine import Deal
from games.engine.preview import (
    MOVES,
    Opening,
    opening_progress,
    preview,
    preview_selection,
    refusals,
)
from games.illegal_moves import message
from tests.engine.decks import new_deal, state

KINGS = ["KS", "KH", "KD"]


def opening_deal() -> Deal:
    deal = new_deal(dealer=3, hands={0: [*KINGS, "5S", "5H", "5D", "KC"]}, stock=["9S"])
    deal.apply(0, {"type": "draw"})
    return deal


def test_R_MELD_1_a_refused_meld_answers_the_engines_code_and_reason_and_changes_nothing() -> None:
    deal = opening_deal()
    before = state(deal)
    answer = preview(deal, 0, {"type": "meld", "melds": [{"cards": ["5S", "5H"]}]})
    assert not answer.legal and answer.code == "meld_too_small"
    assert answer.refusal is not None
    assert message(answer.refusal, "ru") != message(answer.refusal, "en")
    assert state(deal) == before


def test_R_OPEN_2_a_new_meld_counts_toward_the_opening_minimum() -> None:
    deal = opening_deal()
    answer = preview(deal, 0, {"type": "meld", "melds": [{"cards": ["5S", "5H", "5D"]}]})
    assert answer.legal
    assert [(m.rank, m.new, m.count) for m in answer.melds] == [("5", True, 3)]
    assert (answer.points, answer.minimum, answer.opened) == (15, 50, False)


def test_R_MELD_1_cards_of_a_rank_the_team_has_join_its_meld_and_R_OPEN_2_add_up() -> None:
    deal = opening_deal()
    deal.apply(0, {"type": "meld", "melds": [{"cards": KINGS}, {"cards": ["5S", "5H", "5D"]}]})
    answer = preview(deal, 0, {"type": "meld", "melds": [{"cards": ["KC"]}]})
    assert answer.legal
    assert [(m.rank, m.new, m.count) for m in answer.melds] == [("K", False, 4)]
    # 45 points laid earlier this turn, 10 more: the opening minimum is reached.
    assert (answer.points, answer.minimum, answer.opened) == (55, 50, True)


def test_R_OPEN_2_the_turns_melds_below_the_minimum_are_its_opening_progress() -> None:
    deal = opening_deal()
    assert opening_progress(deal, 0) is None  # nothing melded yet
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["5S", "5H", "5D"]}]})
    assert opening_progress(deal, 0) == Opening(points=15, minimum=50)
    assert opening_progress(deal, 1) is None  # another seat's turn
    deal.apply(0, {"type": "meld", "melds": [{"cards": [*KINGS, "KC"]}]})
    assert opening_progress(deal, 0) is None  # opened


def test_R_OPEN_2_a_discard_below_the_minimum_is_refused_in_the_engines_words() -> None:
    deal = opening_deal()
    deal.apply(0, {"type": "meld", "melds": [{"cards": ["5S", "5H", "5D"]}]})
    found = refusals(deal, 0)
    assert found["discard"].code == "below_minimum"
    assert "15" in message(found["discard"], "ru") and "50" in message(found["discard"], "en")
    assert found["draw"].code == "wrong_phase" and found["take_pile"].code == "wrong_phase"
    assert "meld" not in found and "undo" not in found


def test_R_TURN_1_another_seats_moves_are_refused_as_not_its_turn() -> None:
    deal = opening_deal()
    found = refusals(deal, 1)
    assert set(found) == set(MOVES)
    assert {refusal.code for refusal in found.values()} == {"not_your_turn"}


def test_R_FRZ_2_the_draw_phase_names_why_each_other_move_waits() -> None:
    deal = new_deal(dealer=3, hands={0: ["2S", "5H", "5D"]}, upcards=["7S"])
    found = refusals(deal, 0)
    assert "draw" not in found
    assert found["take_pile"].code == "pile_frozen"
    assert found["meld"].code == "wrong_phase" and found["discard"].code == "wrong_phase"


def test_R_MELD_2_one_selected_wild_may_join_the_teams_melds_and_a_lone_card_may_go() -> None:
    deal = new_deal(dealer=3, hands={0: [*KINGS, "5S", "5H", "5D", "2C", "9H"]}, stock=["9S"])
    deal.apply(0, {"type": "draw"})
    deal.apply(0, {"type": "meld", "melds": [{"cards": KINGS}, {"cards": ["5S", "5H", "5D"]}]})
    chosen = preview_selection(deal, 0, ["2C"], [])
    assert set(chosen.targets) == {"K", "5"}
    assert chosen.moves["meld"].code == "wild_only"
    # 45 of 50 melded: no card may be discarded, in the engine's words with the numbers.
    assert chosen.moves["discard"].code == "below_minimum"
    drawing = new_deal(dealer=3, hands={0: ["KS", "KH"]}, upcards=["7S"])
    taking = preview_selection(drawing, 0, ["KH"], [])
    assert set(taking.moves) == {"take_pile"} and not taking.moves["take_pile"].legal
