"""Settings from environment variables; defaults run the club embedded (SQLite, file broker)."""

import contextlib
import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from club import static_files

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CANASTA_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).lower() in {"1", "true", "yes", "on"}


def embedded_secret_key(path: Path) -> str:
    """The embedded default's own key, made once per installation (never a key in the source,
    which anybody could read to forge sessions and password reset links)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f"{path.name}.{os.getpid()}")
        draft.write_text(secrets.token_urlsafe(50), encoding="utf-8")
        draft.chmod(0o600)
        # link() fails if another process (web and worker start together) made it first.
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
        draft.unlink()
    return path.read_text(encoding="utf-8").strip()


DEBUG = env_bool("DEBUG", False)
# A deployment (any database but the embedded SQLite) must set SECRET_KEY: it signs sessions,
# CSRF tokens and password reset links. The embedded default keeps a key of its own in var/.
EMBEDDED = os.environ.get("DATABASE_URL", "sqlite:").startswith("sqlite:")
if "SECRET_KEY" in os.environ:
    SECRET_KEY = os.environ["SECRET_KEY"]
elif EMBEDDED:
    SECRET_KEY = embedded_secret_key(VAR_DIR / "secret_key")
else:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set: a deployment on a database server needs its own secret key "
        '(e.g. python -c "import secrets; print(secrets.token_urlsafe(50))").'
    )
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "django_celery_beat",
    "accounts",
    "social",
    "games",
    "notifications",
    "moderation",
    "tournaments",
    "ratings",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files (the pages', the admin's, Swagger UI's) from STATIC_ROOT (collectstatic) by
    # the app servers themselves, WSGI and ASGI alike, so no web server is needed for them.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # django-csp's, the everyday policy built once (canasta_club/middleware.py).
    "canasta_club.middleware.ContentSecurityPolicyMiddleware",
    "canasta_club.middleware.PrivateAnswersMiddleware",
    # An ETag on every GET answer; If-None-Match with it answers 304 with no body (polling).
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Django's and the pages' own, skipped for a program's API request (a token, no cookie),
    # for which they do nothing (canasta_club.middleware.pages_only).
    "canasta_club.middleware.CsrfViewMiddleware",
    "canasta_club.middleware.AuthenticationMiddleware",
    # Who is online: each signed-in request (a token's too, found by DRF in the view) marks
    # its player seen, at most once a minute.
    "accounts.middleware.LastSeenMiddleware",
    # After authentication: the pages speak the signed-in user's language.
    "canasta_club.middleware.PageLanguageMiddleware",
    "canasta_club.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# A URL without its trailing slash is the API's JSON 404, not a redirect (a client library follows
# a 301 to a POST with a GET, silently).
APPEND_SLASH = False
CSRF_FAILURE_VIEW = "web.errors.csrf_failure"
ROOT_URLCONF = "canasta_club.urls"
WSGI_APPLICATION = "canasta_club.wsgi.application"
# The live pages' event streams (web/table/events.py) are served by uvicorn from this entry point.
ASGI_APPLICATION = "canasta_club.asgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE: the pages' <html lang> and their language switch.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context_processors.club",
            ]
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves web, worker and beat from one file. WAL lets readers run beside
    # the writer; BEGIN IMMEDIATE takes the write lock when a transaction starts, so a transaction
    # that read first never fails to upgrade ("database is locked"); writers queue up to 20 s.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
else:
    # Server-side binding, and the game store's statements prepared on each connection, planned
    # once (a generic plan) instead of on every game read and move; every other statement is
    # planned for its own values, as skew needs (club/prepared.py). prepare_threshold must be a
    # number (None turns preparing off): the cursor decides for each statement. DATABASE_URL's
    # query string can turn both off (`?server_side_binding=false`).
    from club.prepared import Cursor

    options = DATABASES["default"].setdefault("OPTIONS", {})
    options.setdefault("server_side_binding", True)
    if options["server_side_binding"] is True:  # as Django's backend reads it
        options.setdefault("cursor_factory", Cursor)
    options.setdefault("prepare_threshold", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
# Django's database sessions, read from the database on every request (no cache in front, which
# could not see a row deleted or expired by SQL), each row naming its user (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"
# After the browsable API's session log-in (/api-auth/login/) without a ?next= page.
LOGIN_REDIRECT_URL = "/api/me/"
# The pages' log-in (also where the password reset page sends a person afterwards).
LOGIN_URL = "web:login"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", "Русский"), ("en", "English")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# The club's static files are its own pages' only: no other origin needs them.
WHITENOISE_ALLOW_ALL_ORIGINS = False
# whitenoise answers before the CSP middleware: it sends the same policy with every static file.
WHITENOISE_ADD_HEADERS_FUNCTION = static_files.add_headers

# How many reverse proxies of ours stand in front of the app, each appending the address it saw
# to X-Forwarded-For; 0 (the default) trusts no such header: the socket's peer is the client.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))
# Failed log-ins (accounts/login_limits.py), checked in every authenticate(): per address, and
# per account with a short backoff that a known address skips.
AUTHENTICATION_BACKENDS = ["accounts.backends.LimitedModelBackend"]
LOGIN_LIMITS: dict[str, int] | None = {
    "address_failures": 20,
    "account_failures": 5,
    "window_seconds": 15 * 60,
    "backoff_max_seconds": 5 * 60,
    "known_address_days": 30,
}

# How long an API token works after it was made (accounts/authentication.py).
TOKEN_LIFETIME = timedelta(days=int(os.environ.get("TOKEN_LIFETIME_DAYS", "30")))

REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "club.errors.api_exception_handler",
    # JSON only: moves nest, which forms cannot carry (the browsable API's raw form still works).
    "DEFAULT_PARSER_CLASSES": ["club.api.JSONParser"],
    # DRF's, its choice kept per Accept header (club/api.py).
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "club.api.ContentNegotiation",
    # JSON written by orjson (club/api.py); the browsable API's pages take the inline
    # styles of DRF's templates (content_security).
    "DEFAULT_RENDERER_CLASSES": [
        "club.api.JSONRenderer",
        "club.content_security.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "club.api.Pagination",
    "PAGE_SIZE": 50,
    # Every view: `anon` per client address, `user` per account (club/throttling.py). A
    # table page reading once a second is 60/min; a program playing fast stays well under `user`.
    "DEFAULT_THROTTLE_CLASSES": [
        "club.throttling.AnonRateThrottle",
        "club.throttling.UserRateThrottle",
    ],
    # Scopes, per address: "auth" (log-in, password change, reset confirm), "register" and
    # "password_reset" (each tells something about an email: SECURITY.md).
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_RATE_ANON", "60/min"),
        "user": os.environ.get("API_RATE_USER", "300/min"),
        "auth": "20/min",
        "register": "10/hour",
        "password_reset": "5/hour",
    },
    # DRF's own reading of X-Forwarded-For (club/client.py is ours): the same count.
    "NUM_PROXIES": NUM_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Canasta Club API",
    # How to play through the API and every error code, for whoever reads only the schema.
    "DESCRIPTION": (BASE_DIR / "canasta_club" / "api_description.md").read_text(encoding="utf-8"),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc from the pinned drf-spectacular-sidecar package: no CDN, works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "club.openapi.document_request_too_large",
    ],
}

# Celery: Redis in production; a file-system broker on the embedded default (no server needed).
REDIS_URL = os.environ.get("REDIS_URL", "")
# Throttles, the log-in limiter and cached figures must count across all web processes: Redis
# when there is one (degrading to "no cache" while it is down: club/cache.py, with short
# timeouts so a dead Redis costs a request little); the embedded default is a single process,
# where local memory is enough.
CACHES = {
    "default": (
        {
            "BACKEND": "club.cache.DegradingRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# Live pages: moves are announced on Redis pub/sub channels named with this prefix (pub/sub
# ignores Redis DB numbers, so concurrent runs on one Redis need their own). Without Redis the
# pages poll their ETag'd table fragment instead of holding an event stream.
LIVE_CHANNEL_PREFIX = os.environ.get("LIVE_CHANNEL_PREFIX", "canasta")
LIVE_EVENTS = bool(REDIS_URL) and env_bool("LIVE_EVENTS", True)
# (The host part is ignored; naming one spares a warning from kombu.)
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL or "filesystem://localhost")
BROKER_DIR = VAR_DIR / "broker"
if CELERY_BROKER_URL.startswith("filesystem://"):
    # Every process that publishes (web, shell, worker) needs the folders, not only `make run`.
    (BROKER_DIR / "control").mkdir(parents=True, exist_ok=True)
    # kombu's transport with atomic message writes (club/filesystem_transport.py).
    CELERY_BROKER_TRANSPORT = "club.filesystem_transport:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # Files are polled (kombu's default: once a second); a tenth keeps live turns on time.
        "polling_interval": 0.1,
        "data_folder_in": str(BROKER_DIR),
        "data_folder_out": str(BROKER_DIR),
        "processed_folder": str(BROKER_DIR),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
else:
    # Short socket timeouts: a web request publishing after commit must not hang on a dead Redis.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": 3600,
        "socket_connect_timeout": 2,
        "socket_timeout": 5,
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Notifications have a queue of their own, so a burst of emails never delays a turn deadline.
# A worker started without -Q consumes both; larger sites run `-Q celery` and `-Q notifications`
# workers apart.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue("celery"), Queue("notifications")]
CELERY_TASK_ROUTES = {"notifications.tasks.*": {"queue": "notifications"}}
# One quick retry, then the publisher logs and gives up: every task below is also run by beat.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# Deadlines and the outbox are database rows swept by these periodic tasks (the guarantee);
# `expire_seconds` drops ticks that waited in a queue while workers were busy or down: several
# intervals, so a busy moment or a slow broker poll never skips a sweep (each one is idempotent,
# and an expired tick is a sweep lost until the next).
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": timedelta(seconds=1),
        "options": {"expire_seconds": 10},
    },
    "drain-outbox": {
        "task": "notifications.tasks.drain_outbox",
        "schedule": timedelta(seconds=10),
        "options": {"expire_seconds": 30},
    },
    # Invitations last a table's turn limit (30 s live): a few seconds late at most.
    "lapse-invitations": {
        "task": "games.tasks.lapse_invitations",
        "schedule": timedelta(seconds=5),
        "options": {"expire_seconds": 30},
    },
    # Tournaments: starts due, rounds whose last game ended (paired within seconds), rounds
    # past their deadline (played out by bots).
    "sweep-tournaments": {
        "task": "tournaments.tasks.sweep_tournaments",
        "schedule": timedelta(seconds=2),
        "options": {"expire_seconds": 20},
    },
    "sweep-turn-reminders": {
        "task": "games.tasks.sweep_turn_reminders",
        "schedule": timedelta(seconds=30),
        "options": {"expire_seconds": 60},
    },
    "send-daily-digests": {
        "task": "notifications.tasks.send_daily_digests",
        "schedule": crontab(hour=7, minute=0),
        "options": {"expire_seconds": 3600},
    },
    "purge-expired-tokens": {
        "task": "accounts.tasks.purge_expired_tokens",
        "schedule": timedelta(hours=1),
        "options": {"expire_seconds": 600},
    },
    # Django leaves expired sessions' rows in place (they no longer work): clearsessions, hourly.
    "purge-expired-sessions": {
        "task": "accounts.tasks.purge_expired_sessions",
        "schedule": timedelta(hours=1),
        "options": {"expire_seconds": 600},
    },
    "purge-idempotency-keys": {
        "task": "games.tasks.purge_idempotency_keys",
        "schedule": timedelta(hours=1),
        "options": {"expire_seconds": 600},
    },
    # The leaderboards' places (ratings.services): those of pools where a game was rated since
    # the last refresh, or where a player turned provisional after a long pause.
    "refresh-leaderboards": {
        "task": "ratings.tasks.refresh_leaderboards",
        "schedule": timedelta(seconds=10),
        "options": {"expire_seconds": 60},
    },
    "sweep-report-deadlines": {
        "task": "moderation.tasks.sweep_report_deadlines",
        "schedule": timedelta(minutes=1),
        "options": {"expire_seconds": 180},
    },
}

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Canasta Club <noreply@canasta.club>")
SITE_URL = os.environ.get("SITE_URL", f"http://127.0.0.1:{os.environ.get('PORT', '8000')}")

# TLS (SECURITY.md): SECURE=true, or a SITE_URL on https, says that clients reach the club over
# https through the reverse proxy: cookies only over https, HSTS, and the proxy's
# X-Forwarded-Proto believed. That header is trusted because the app servers listen on loopback
# behind our proxy, which sets it itself (deploy/nginx.conf: `X-Forwarded-Proto $scheme`,
# overwriting whatever a client sent); an app server that clients can reach directly must not
# run with SECURE on.
SECURE = env_bool("SECURE", SITE_URL.startswith("https://"))
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600))) if SECURE else 0
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
# The proxy answers plain http with a redirect; the app never sees it (health probes on loopback
# stay plain).
SECURE_SSL_REDIRECT = False

# Content-Security-Policy (django-csp) on every answer: the club's own origin only, no inline
# script or style, no plugins, no framing, forms posting only here. The pages load nothing but
# their own static files; data reaches scripts in data- attributes or json_script. Swagger UI
# and DRF's browsable API also take inline styles (club/content_security.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # data: for the pages' empty favicon and Swagger UI's icons.
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Web push (VAPID). Without VAPID_PRIVATE_KEY the club generates a key once into VAPID_KEY_FILE,
# so the embedded default needs nothing; servers that share one site must share one key.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_KEY_FILE = Path(os.environ.get("VAPID_KEY_FILE", VAR_DIR / "vapid_private.pem"))
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:noreply@canasta.club")
# Push endpoints are public https push services only (notifications/push_endpoints.py). True
# lets in loopback addresses over http too: for the tests' fake push service on 127.0.0.1, never
# for a deployment (so it is not read from the environment).
PUSH_ALLOW_LOOPBACK = False

# Club timing (RULES.md R-CLUB-1/2).
TURN_LIMIT = {"async": timedelta(hours=24), "live": timedelta(seconds=30)}
ABSENCE_GRACE = {"async": timedelta(days=1), "live": timedelta(seconds=60)}
# A bot's turn is played this long after it starts: a human-like pause at a live table, soon at
# an async one (the deadline sweep, every second, plays it).
BOT_PAUSE = {"async": timedelta(seconds=1), "live": timedelta(seconds=2)}
# A live game's break between two deals: the next deal's clock starts once every person at the
# table has closed the finished deal's summary («Дальше»), or after this long.
DEAL_BREAK = timedelta(seconds=30)
# Correspondence time off (games.services.time_off, games.services.pauses): vacation days a
# player may spend each calendar year (UTC), the longest agreed pause of a game, and how long a
# pause asked waits for the table's answers.
CORRESPONDENCE_VACATION_DAYS = int(os.environ.get("CORRESPONDENCE_VACATION_DAYS", "14"))
CORRESPONDENCE_PAUSE_DAYS = int(os.environ.get("CORRESPONDENCE_PAUSE_DAYS", "14"))
CORRESPONDENCE_PAUSE_ASK_HOURS = int(os.environ.get("CORRESPONDENCE_PAUSE_ASK_HOURS", "24"))
# A tournament round's time for each deal of its games, unless its creator chose another: past
# the round's deadline the club's bots play out what is left (tournaments.services).
TOURNAMENT_ROUND_PER_DEAL = {"async": timedelta(days=7), "live": timedelta(minutes=30)}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
