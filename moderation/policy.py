"""The club's moderation numbers (RULES.md R-CLUB-3/4), in one place."""

from datetime import timedelta

AFTERWORD_MAX_LENGTH = 280
# Afterwords are written while the game is fresh; later words would read as a reply to a grudge.
AFTERWORD_WINDOW = timedelta(days=7)

KUDOS_POINTS = 1
# Kudos from accounts that are too young or have played too little are recorded with 0 points,
# so that farming with fresh accounts moves nothing (the row still says why).
KUDOS_GIVER_MIN_ACCOUNT_AGE = timedelta(days=7)
KUDOS_GIVER_MIN_FINISHED_GAMES = 5
# Two players (either direction) count for each other at most this often in the period.
KUDOS_PAIR_LIMIT = 3
KUDOS_PAIR_PERIOD = timedelta(days=30)
# Authority lost by the accused when a report is upheld, by decision.
UPHELD_REPORT_PENALTY = {"warn": 3, "mute": 5, "suspend": 10}

REPORT_TEXT_MAX_LENGTH = 1000
REPORTS_PER_DAY = 10
REPORT_SLA = timedelta(hours=4)
REPORT_DUE_SOON = timedelta(hours=1)
CLAIM_IDLE_TIMEOUT = timedelta(minutes=30)
MAX_SANCTION_DAYS = 365
MODERATOR_MESSAGE_MAX_LENGTH = 1000

MOOD_PERIOD = timedelta(days=7)
STATS_PERIODS_DAYS = (7, 30)
# Reports flagged per transaction by the SLA sweep: short locks, one notification per batch.
SWEEP_BATCH_SIZE = 500

MODERATORS_GROUP = "Moderators"
