"""The ASGI entry point: `uvicorn canasta_club.asgi:application`, for the live pages' event
streams (/games/{id}/events/), which hold a connection each (thousands per process, where a
WSGI worker would hold a thread). Pages and the API are gunicorn's (canasta_club.wsgi)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "canasta_club.settings")

application = get_asgi_application()
