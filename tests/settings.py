"""Test settings: the real PostgreSQL and Redis of the machine; one broker DB per xdist worker."""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/canasta")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
os.environ.setdefault("SECRET_KEY", "tests-only-not-a-secret")

from canasta_club.settings import *  # noqa: F403

_worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
# Separate Redis DBs per xdist worker (and per concurrent test run, via REDIS_TEST_DB_BASE).
_redis_db = int(os.environ.get("REDIS_TEST_DB_BASE", "1")) + int(_worker or 0)
CELERY_BROKER_URL = f"redis://127.0.0.1:6379/{_redis_db}"
# Pub/sub ignores DB numbers: the live pages' channels get the run's and worker's own prefix.
LIVE_CHANNEL_PREFIX = f"test{_redis_db}"
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# Per-process cache: concurrent test processes must not see each other's throttle counts.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Off, like the throttles; tests of the limits set their own.
LOGIN_LIMITS = None
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# Every throttle scope off (None = unlimited); tests that check throttling set their own rate.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": dict.fromkeys(REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]),  # noqa: F405
}
# The fake push service (tests/fake_push.py) listens on 127.0.0.1 over http; the tests of the
# endpoint checks switch this back off.
PUSH_ALLOW_LOOPBACK = True
# whitenoise serves STATIC_ROOT, which collectstatic fills in a deployment; tests use the finders.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # noqa: F405
