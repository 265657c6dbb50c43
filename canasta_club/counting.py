"""Several counts in one query: each a scalar subquery, so a page's figures cost one round trip."""

from typing import Any

from django.db.models import F, Func, IntegerField, QuerySet, Subquery


def count_of(queryset: QuerySet[Any]) -> Subquery:
    """`SELECT COUNT(*)` of the queryset as an expression (e.g. in `.values(name=...)`)."""
    return Subquery(
        queryset.order_by().values(count=Func(F("pk"), function="COUNT")),
        output_field=IntegerField(),
    )
