"""Authority: each change a row (AuthorityChange), the user's total kept beside it."""

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import F, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce

from accounts.models import User
from moderation.models import AuthorityChange


def record_authority_change(
    *, user_id: int, amount: int, now: datetime, **fields: object
) -> AuthorityChange:
    change = AuthorityChange.objects.create(
        user_id=user_id, amount=amount, created_at=now, **fields
    )
    if amount:
        User.objects.filter(pk=user_id).update(authority=F("authority") + amount)
    return change


def recompute_authority(*, user_ids: Iterable[int] | None = None) -> int:
    """Set User.authority to the sum of its change rows; returns how many users were off."""
    totals = (
        AuthorityChange.objects.filter(user=OuterRef("pk"))
        .order_by()
        .values("user")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    expected = Coalesce(Subquery(totals), 0)
    users = User.objects.all() if user_ids is None else User.objects.filter(pk__in=list(user_ids))
    with transaction.atomic(durable=True):
        return users.exclude(authority=expected).update(authority=expected)
