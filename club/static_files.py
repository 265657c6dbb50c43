"""What whitenoise adds to every static file's answer (WHITENOISE_ADD_HEADERS_FUNCTION).

whitenoise answers static files before django-csp's middleware sees them, so it adds the
pages' Content-Security-Policy itself: a file opened by itself, such as an SVG card, is a
document the policy holds too. It is called once per file, when whitenoise finds the file.
"""

from wsgiref.headers import Headers

from csp.utils import build_policy


def add_headers(headers: Headers, path: str, url: str) -> None:
    headers["Content-Security-Policy"] = build_policy()
