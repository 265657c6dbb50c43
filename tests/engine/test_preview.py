"""games.engine.preview: what an action would do, judged by the engine on a copy of the deal."""

from games.engine import Deal
from games.engine.preview import preview
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
    assert answer.reason("ru") and answer.reason("en") != answer.reason("ru")
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
