#!/usr/bin/env bash
# The club on embedded defaults: SQLite and a file-system Celery broker; web + worker + beat.
# PORT (default 8000) is the web server's port; LOG_LEVEL (default WARNING here) the worker's.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
PORT=${PORT:-8000}
export PORT
"$PY" manage.py migrate --noinput
# Beat's schedule lives in the database (django-celery-beat), so no --schedule file.
.venv/bin/celery -A canasta_club worker --beat --loglevel="${LOG_LEVEL:-WARNING}" --concurrency=1 &
worker=$!
trap 'kill $worker 2>/dev/null || true' EXIT INT TERM
echo "Canasta Club at http://127.0.0.1:${PORT}/ (API docs at /api/docs/)"
# --insecure: serve static files (Swagger UI, admin, browsable API) although DEBUG is off.
"$PY" manage.py runserver --insecure "127.0.0.1:${PORT}"
