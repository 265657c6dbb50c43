#!/usr/bin/env bash
# The club on embedded defaults: SQLite and a file-system Celery broker; web + worker + beat.
# The web server is a deployment's: uvicorn serving the ASGI app (pages, API and, with Redis,
# the live pages' event streams), static files from whitenoise (collected into var/static).
# PORT (default 8000) is the web server's port; LOG_LEVEL (default WARNING here) the worker's.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
PORT=${PORT:-8000}
export PORT
"$PY" manage.py migrate --noinput
"$PY" manage.py collectstatic --noinput --link --verbosity 0
# Beat's schedule lives in the database (django-celery-beat), so no --schedule file.
.venv/bin/celery -A canasta_club worker --beat --loglevel="${LOG_LEVEL:-WARNING}" --concurrency=1 &
worker=$!
.venv/bin/uvicorn canasta_club.asgi:application --host 127.0.0.1 --port "$PORT" \
  --timeout-graceful-shutdown 2 &
web=$!
trap 'kill $worker $web 2>/dev/null || true' EXIT INT TERM
echo "Canasta Club at http://127.0.0.1:${PORT}/ (API docs at /api/docs/)"
# Whichever stops first stops the other (the trap).
wait -n
