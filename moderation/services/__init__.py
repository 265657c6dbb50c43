"""Moderation writes, the one way to call them: afterwords and kudos, Authority, reports and the
queue, moderators, the SLA sweep.

Every entry point runs its own durable transaction (the sweep one per batch), so none runs
inside another's; the helpers in `checks` and `authority.record_authority_change` run inside
their caller's.
"""

from moderation.services.afterwords import create_afterword
from moderation.services.authority import recompute_authority
from moderation.services.moderators import appoint_moderator, dismiss_moderator, set_on_duty
from moderation.services.reports import (
    claim_report,
    create_report,
    release_report,
    resolve_report,
    reveal_reporter,
)
from moderation.services.sla import SweepResult, sweep_report_deadlines

__all__ = [
    "SweepResult",
    "appoint_moderator",
    "claim_report",
    "create_afterword",
    "create_report",
    "dismiss_moderator",
    "recompute_authority",
    "release_report",
    "resolve_report",
    "reveal_reporter",
    "set_on_duty",
    "sweep_report_deadlines",
]
