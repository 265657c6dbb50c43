"""The API's JSON renderer (orjson) writes what DRF's own wrote."""

import uuid
from datetime import UTC, date, datetime, time
from decimal import Decimal

from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ErrorDetail
from rest_framework.renderers import JSONRenderer as DrfRenderer

from club.api import JSONRenderer


def test_the_same_bytes_as_drf() -> None:
    data = {
        "text": "Ход «Сбросить» \u2028 line\u2029",
        "numbers": [1, -2, 3.5, 10**12, None, True],
        "when": datetime(2026, 12, 1, 8, 3, 1, 123456, tzinfo=UTC),
        "day": date(2026, 12, 1),
        "at": time(8, 3, 1, 500000),
        "id": uuid.UUID(int=7),
        "lazy": gettext_lazy("Invalid token."),
        "detail": ErrorDetail("Недействительный токен.", code="authentication_failed"),
        "amount": Decimal("1.50"),
        "nested": {"tuple": (1, 2), "empty": {}, 3: "int key"},
    }

    assert JSONRenderer().render(data) == DrfRenderer().render(data)
    beyond_orjson = {**data, "huge": 2**70}
    assert JSONRenderer().render(beyond_orjson) == DrfRenderer().render(beyond_orjson)


def test_an_indented_answer_is_drfs() -> None:
    data = {"a": [1, {"b": "c"}]}
    media = "application/json; indent=4"

    assert JSONRenderer().render(data, media) == DrfRenderer().render(data, media)
