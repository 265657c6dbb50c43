"""The one place that turns a service's refusal into the message a page shows.

Services refuse with a ClubError: a machine-readable code and a message already in the
request's language; the pages show the message, with the status the API would answer.
"""

from dataclasses import dataclass

from canasta_club.errors import ClubError, status_of


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str
    status: int


def refusal_of(exc: ClubError) -> Refusal:
    return Refusal(code=exc.code, message=exc.message, status=status_of(exc))
