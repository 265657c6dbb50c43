"""The table's move log: the last moves grouped into turns, each said in the page's language
with the cards it showed to everyone."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from canasta_club.i18n import russian_form, text
from games.engine.seating import Seating
from web.shared import player_name
from web.table.names import meld_name, rank_name, rank_name_dative


@dataclass
class MovePhrase:
    """One thing a move did, as the log says it: words, and the cards it showed to everyone
    (`cards_first`: "2♣ к шестёркам", the cards before the words)."""

    what: str
    cards: list[str] = field(default_factory=list)
    cards_first: bool = False


@dataclass(frozen=True)
class SaidPhrase:
    """One of the table's phrases as the page shows it: by the speaker's seat until `until`,
    in the strip, and in the log after the move the game was at (`version`)."""

    seat: int
    who: str
    player: dict[str, Any] | None  # the speaker, for `{% person %}`
    key: str
    text: str
    at: datetime
    until: datetime
    version: int


@dataclass
class LoggedTurn:
    """A seat's consecutive moves in one deal, as one entry of the log; what the table shows
    of them (the melds that grew, the pile) is data for the page to highlight."""

    seat: int
    who: str
    player: dict[str, Any] | None  # the seat's player, for `{% person %}`
    team: int
    first_seq: int
    last_seq: int
    phrases: list[MovePhrase] = field(default_factory=list)
    automatic: bool = False
    went_out: bool = False
    melds: list[str] = field(default_factory=list)  # the ranks of the seat's team's melds touched
    pile: str = ""  # "took" | "discarded" | ""
    # The table's phrases said after this turn's last move and before the next turn, newest
    # first (the log lists them above the turn).
    said_after: list[SaidPhrase] = field(default_factory=list)

    @property
    def meld_keys(self) -> str:
        """`team:rank` of each meld the turn touched (the table's `[data-meld][data-team]`)."""
        return " ".join(f"{self.team}:{rank}" for rank in self.melds)


def logged_turns(
    moves: Sequence[dict[str, Any]],
    players: dict[int, dict[str, Any]],
    seating: Seating,
    *,
    cut: bool,
) -> list[LoggedTurn]:
    """The moves (oldest first) grouped into turns, newest turn first; `cut`: earlier moves
    exist, so the oldest turn may have begun before them and is left out."""
    turns: list[LoggedTurn] = []
    deal = None
    for move in moves:
        seat = move["seat"]
        current = turns[-1] if turns else None
        if current is None or current.seat != seat or move["deal_number"] != deal:
            player = players.get(seat)
            current = LoggedTurn(
                seat=seat,
                who=player_name(player),
                player=player,
                team=seating.team_of(seat),
                first_seq=move["seq"],
                last_seq=move["seq"],
            )
            turns.append(current)
            deal = move["deal_number"]
        _log_move(current, move)
    if cut and len(turns) > 1:
        turns.pop(0)
    return turns[::-1]


def _log_move(turn: LoggedTurn, move: dict[str, Any]) -> None:
    """Adds a move's phrases to its turn; cards only where the move shows them to everyone."""
    action, public = move["action"], move["public"] or {}
    kind = action.get("type")
    turn.last_seq = move["seq"]
    turn.automatic = turn.automatic or move["automatic"]
    turn.went_out = turn.went_out or bool(public.get("went_out"))
    phrases = turn.phrases
    if kind == "draw":
        phrases.append(MovePhrase(text("взял(а) из колоды", "drew from the stock")))
        if public.get("red_threes"):
            phrases.append(
                MovePhrase(text("красная тройка:", "a red three:"), public["red_threes"])
            )
        if public.get("deal_over") and not public.get("stock_count"):
            phrases.append(MovePhrase(text("колода кончилась", "the stock ran out")))
    elif kind == "take_pile":
        count = int(public.get("count", 0))
        phrases.append(
            MovePhrase(
                text(
                    f"взял(а) стопку ({count} {russian_form(count, 'карта', 'карты', 'карт')}) с",
                    f"took the pile ({count} {'card' if count == 1 else 'cards'}) with",
                ),
                [public["top"]] if public.get("top") else [],
            )
        )
        turn.pile = "took"
    elif kind == "undo":
        phrases.append(MovePhrase(text("вернул(а) как было", "took the meld back (undo)")))
    elif kind == "ask_to_go_out":
        phrases.append(
            MovePhrase(text("спросил(а) партнёра: можно выходить?", "asked: may I go out?"))
        )
    elif kind == "answer_go_out":
        phrases.append(
            MovePhrase(
                text("ответил(а): да, выходи", "answered: yes, go out")
                if action.get("yes")
                else text("ответил(а): нет, не выходи", "answered: no, do not go out")
            )
        )
    elif kind == "lay_down":
        phrases.append(MovePhrase(text("выложил(а) все карты вслед за партнёром", "laid down too")))
    elif kind == "pass":
        phrases.append(MovePhrase(text("не стал(а) выкладываться", "passed (kept the cards)")))
    elif kind == "discard":
        phrases.append(MovePhrase(text("сбросил(а)", "discarded"), [action["card"]]))
        turn.pile = "discarded"
    for meld in public.get("melds", []):
        rank = meld.get("rank")
        if rank is None:  # Samba, Bolivia: a sequence's event names its suit, not a rank
            name = meld_name(rank=None, kind="sequence", suit=meld["suit"])
            phrases.append(
                MovePhrase(
                    text(f"в {name}", f"to the {name}"), list(meld["cards"]), cards_first=True
                )
            )
            continue
        if rank not in turn.melds:
            turn.melds.append(rank)
        if meld.get("new"):
            phrases.append(
                MovePhrase(
                    text(
                        f"новая комбинация «{rank_name(rank)}»:",
                        f"a new meld of {rank_name(rank)}:",
                    ),
                    list(meld["cards"]),
                )
            )
        else:
            phrases.append(
                MovePhrase(
                    text(f"к {rank_name_dative(rank)}", f"to the {rank_name(rank)}"),
                    list(meld["cards"]),
                    cards_first=True,
                )
            )


def place_said(turns: list[LoggedTurn], said: Sequence[SaidPhrase]) -> None:
    """Each phrase (oldest first) into the turn (newest first) whose moves the game had made
    when it was said; phrases said before the turns shown stay out of the log."""
    for phrase in said:
        turn = next((turn for turn in turns if turn.first_seq <= phrase.version), None)
        if turn is not None:
            turn.said_after.insert(0, phrase)
