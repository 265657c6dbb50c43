"""What the games tell the apps built on them, without knowing those apps: the games never
import an event (tournaments) that arranges their tables; the event listens here instead."""

from django.dispatch import Signal

# A game is over (played out or abandoned), sent inside the transaction that ended it, with
# `game` (its status, scores and winner set). A receiver's work joins that transaction; what
# it announces waits for the commit.
game_over = Signal()
