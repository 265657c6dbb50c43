"""The previews' sentences: what selected cards or a move would do, as the engine judges it,
in the page's language."""

from typing import Any

from club.i18n import quantity, text
from games.engine.preview import Preview, Selection
from games.illegal_moves import words
from web.table.names import CANASTA_MARKS, meld_name, rank_name

_POINTS = (("очко", "очка", "очков"), ("point", "points"))


def preview_text(answer: Preview) -> str:
    """The engine's judgement as one sentence in the page's language."""
    if answer.refusal is not None:
        return text("Нельзя: ", "Not allowed: ") + text(*words(answer.refusal))
    parts = []
    for meld in answer.melds:
        star = CANASTA_MARKS.get(meld.canasta or "", "")
        name = meld_name(rank=meld.rank, kind=meld.kind, suit=meld.suit)
        if meld.new:
            parts.append(
                text(
                    f"новая комбинация: {name}, {meld.count} из 7{star}",
                    f"new meld: {name}, {meld.count} of 7{star}",
                )
            )
        else:
            parts.append(
                text(
                    f"к комбинации «{name}»: {meld.count} из 7{star}",
                    f"joins the {name}: {meld.count} of 7{star}",
                )
            )
    if answer.minimum and answer.points:
        points = quantity(answer.points, *_POINTS)
        parts.append(
            text(
                f"{points} к минимуму {answer.minimum}",
                f"{points} toward the minimum of {answer.minimum}",
            )
        )
    if answer.deal_over:
        parts.append(text("раздача закончится", "the deal ends"))
    sentence = "; ".join(parts) or text("ход возможен", "the move is allowed")
    return text("Можно: ", "Allowed: ") + sentence


def discard_text(answer: Preview) -> str:
    if answer.refusal is not None:
        return text("Сбросить нельзя: ", "You cannot discard it: ") + text(*words(answer.refusal))
    if answer.deal_over:
        return text("Можно сбросить: раздача закончится.", "You may discard it: the deal ends.")
    return text("Эту карту можно сбросить.", "You may discard this card.")


def selection_answer(selection: Selection, cards: list[str]) -> dict[str, Any]:
    """The page's answer to a selection: each move's verdict and a sentence for the player
    (the engine's judgement; for one card that may join a meld, where to tap)."""
    moves: dict[str, dict[str, Any]] = {
        kind: {
            "legal": answer.legal,
            "message": discard_text(answer) if kind == "discard" else preview_text(answer),
        }
        for kind, answer in selection.moves.items()
    }
    lines: list[str] = []
    primary = moves.get("take_pile") or moves.get("meld")
    if primary is not None and primary["legal"]:
        lines.append(primary["message"])
    elif selection.targets:
        names = ", ".join(f"«{rank_name(rank)}»" for rank in selection.targets)
        lines.append(
            text(
                f"Нажмите на комбинацию ({names}), чтобы добавить к ней эту карту.",
                f"Tap the meld ({names}) to add this card to it.",
            )
        )
    elif primary is not None and "discard" not in moves:
        lines.append(primary["message"])
    # Below the opening minimum the page already shows the progress and the ways on.
    if "discard" in moves and selection.moves["discard"].code != "below_minimum":
        lines.append(moves["discard"]["message"])
    return {
        "legal": any(move["legal"] for move in moves.values()) or bool(selection.targets),
        "message": " ".join(lines),
        "moves": moves,
        "targets": list(selection.targets),
        "cards": cards,
    }
