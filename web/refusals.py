"""The one place that turns a service's refusal into the message a page shows.

Services refuse with a ClubError: a machine-readable code and a message already in the
request's language; the pages show the message, with the status the API would answer.
"""

from dataclasses import dataclass

from club.errors import ClubError, status_of
from games.errors import IllegalMoveRefused


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str
    status: int
    # The rule id of an engine's refusal (the rules page's anchor, e.g. R-PILE-3), else "".
    rule: str = ""


def refusal_of(exc: ClubError) -> Refusal:
    rule = exc.rule if isinstance(exc, IllegalMoveRefused) else ""
    return Refusal(code=exc.code, message=exc.message, status=status_of(exc), rule=rule)
