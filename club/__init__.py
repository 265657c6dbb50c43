"""The base every app builds on: the API's error shape, parser, renderer and pagination, the two
languages, the database's clock, the shared cache and throttles, OpenAPI and admin pieces, the
Content-Security-Policy's exceptions. It imports no app (tests/architecture/test_layers.py)."""
