"""GET /api/health/ (no auth): database, broker, cache and the age of the oldest overdue deadline.

200 when all is well, 503 otherwise, so a load balancer or uptime monitor can act on it. An old
overdue deadline means no worker or no beat is sweeping. A failure's own text (hosts, ports,
versions) goes to the log only: the endpoint answers anybody.
"""

import logging
from typing import Any

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Min
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club import clock
from club.cache import cache_is_up
from games.models import Game
from notifications.models import OutboxMessage

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 0.5
# Sweeps run every second; a deadline this late means the sweeping has stopped.
MAX_OVERDUE_SECONDS = 60.0
MAX_OUTBOX_AGE_SECONDS = 300.0


def _database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        logger.exception("Health: the database does not answer")
        return {"ok": False}
    return {"ok": True}


def _broker() -> dict[str, Any]:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return {"ok": True, "kind": url.split("://")[0]}
    client = redis.Redis.from_url(
        url, socket_timeout=BROKER_TIMEOUT_SECONDS, socket_connect_timeout=BROKER_TIMEOUT_SECONDS
    )
    try:
        client.ping()
    except redis.RedisError:
        logger.exception("Health: the broker does not answer")
        return {"ok": False, "kind": "redis"}
    finally:
        client.close()
    return {"ok": True, "kind": "redis"}


def _cache() -> dict[str, Any]:
    """Down: nobody is throttled and log-ins are not limited until it is back."""
    return {"ok": cache_is_up()}


def _backlog() -> dict[str, Any]:
    now = clock.now()
    oldest_deadline = Game.objects.filter(
        status=Game.Status.ACTIVE, turn_deadline__lte=now
    ).aggregate(oldest=Min("turn_deadline"))["oldest"]
    undelivered = (OutboxMessage.Status.PENDING, OutboxMessage.Status.EMAIL)
    oldest_email = OutboxMessage.objects.filter(status__in=undelivered).aggregate(
        oldest=Min("created_at")
    )["oldest"]
    overdue = (now - oldest_deadline).total_seconds() if oldest_deadline else 0.0
    outbox = max((now - oldest_email).total_seconds(), 0.0) if oldest_email else 0.0
    return {
        "ok": overdue <= MAX_OVERDUE_SECONDS and outbox <= MAX_OUTBOX_AGE_SECONDS,
        "oldest_overdue_deadline_seconds": round(overdue, 3),
        "oldest_pending_email_seconds": round(outbox, 3),
    }


class HealthSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    database = serializers.JSONField()
    broker = serializers.JSONField()
    cache = serializers.JSONField(help_text="The shared cache (throttles, log-in limits).")
    backlog = serializers.JSONField(
        help_text="oldest_overdue_deadline_seconds, oldest_pending_email_seconds"
    )


class HealthView(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema(
        tags=["operations"],
        summary="Health: database, broker, cache, deadline backlog",
        responses={200: HealthSerializer, 503: HealthSerializer},
    )
    def get(self, request: Request) -> Response:
        database = _database()
        checks = {"database": database, "broker": _broker(), "cache": _cache()}
        if database["ok"]:
            checks["backlog"] = _backlog()
        else:
            checks["backlog"] = {"ok": False}
        healthy = all(check["ok"] for check in checks.values())
        if not healthy:
            logger.warning("Health check failed: %s", checks)
        return Response({"ok": healthy, **checks}, status=200 if healthy else 503)
