#!/usr/bin/env bash
# The club on embedded defaults: SQLite and a file-system Celery broker; web + worker + beat.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
"$PY" manage.py migrate --noinput
.venv/bin/celery -A canasta_club worker --beat --loglevel=INFO --concurrency=1 \
  --schedule=var/celerybeat-schedule &
worker=$!
trap 'kill $worker 2>/dev/null || true' EXIT INT TERM
echo "Canasta Club: API docs at http://127.0.0.1:${PORT:-8000}/api/docs/"
"$PY" manage.py runserver "127.0.0.1:${PORT:-8000}"
