"""The API's shared parts: the JSON parser and renderer, the content negotiation, the
pagination."""

import json
from collections.abc import Iterable, Mapping
from typing import IO, Any

import orjson
from django.conf import settings
from rest_framework import negotiation, parsers, renderers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.utils.encoders import JSONEncoder

from club.i18n import text

# Moves nest a few levels; anything deeper is a mistake or an attack (and deep enough nesting
# exhausts Python's recursion limit in the decoder or in any code that walks the data).
MAX_JSON_DEPTH = 32
# No list a client sends needs more (a hand is at most a few dozen cards); a longer one would
# become that many SQL parameters or engine steps (PostgreSQL refuses over 65535 parameters).
# Fields bound their own lists tighter; this holds for free-form objects (rules, actions) too.
MAX_JSON_LIST_LENGTH = 1000
# Far beyond any table count, and small enough that OFFSET + LIMIT fits every database's integer.
MAX_OFFSET = 2**31 - 1


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"


def _malformed(where_ru: str = "", where_en: str = "") -> ParseError:
    return ParseError(
        text(f"Тело запроса — некорректный JSON{where_ru}.", f"Malformed JSON body{where_en}.")
    )


class _NotJsonConstant(ValueError):
    """NaN and Infinity, which Python's decoder accepts and JSON (RFC 8259) does not."""


def _reject_constant(name: str) -> object:
    raise _NotJsonConstant(name)


def _refusal_of(data: object) -> APIException | None:
    """Walks the decoded body iteratively (no recursion to exhaust): lists/objects nested deeper
    than MAX_JSON_DEPTH are `malformed_json`, a list longer than MAX_JSON_LIST_LENGTH is
    `request_too_large`."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, list) and len(value) > MAX_JSON_LIST_LENGTH:
            return RequestTooLarge(
                text(
                    f"В теле запроса список длиннее {MAX_JSON_LIST_LENGTH} элементов.",
                    f"The request body holds a list longer than {MAX_JSON_LIST_LENGTH} items.",
                )
            )
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            if depth > MAX_JSON_DEPTH:
                return _malformed(
                    f": вложенность глубже {MAX_JSON_DEPTH}",
                    f": nested deeper than {MAX_JSON_DEPTH}",
                )
            stack.extend((child, depth + 1) for child in value)
    return None


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser that answers 400 `malformed_json` (never a 500) for any body it cannot
    decode, nesting too deep included, and 413 `request_too_large` past
    DATA_UPLOAD_MAX_MEMORY_SIZE (Django checks that limit for forms, not for streamed bodies)."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise RequestTooLarge(
                text(
                    f"Тело запроса больше {limit} байт.",
                    f"The request body is larger than {limit} bytes.",
                )
            )
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(raw.decode(encoding), parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            raise _malformed(
                f" (строка {exc.lineno}, столбец {exc.colno})",
                f" ({exc.msg}: line {exc.lineno}, column {exc.colno})",
            ) from None
        except _NotJsonConstant as exc:
            raise _malformed(f": {exc} не бывает в JSON", f": {exc} is not JSON") from None
        except RecursionError:
            raise _malformed(": слишком глубокая вложенность", ": nested too deep") from None
        except (LookupError, ValueError):
            # An unknown charset, or bytes that are not in it.
            raise _malformed(f" в кодировке {encoding}", f" in {encoding}") from None
        refusal = _refusal_of(data)
        if refusal is not None:
            raise refusal
        return data


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer, the same bytes written by orjson: a game's answer in ~0.02 ms of
    CPU against ~0.12 (bench/trace.py). Dates and times, lazy texts and anything else orjson
    does not write itself go through DRF's encoder; an indented answer (`Accept:
    application/json; indent=4`) or what orjson refuses (an integer beyond 64 bits) is DRF's."""

    _encoder = JSONEncoder()
    _options = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if self.get_indent(accepted_media_type or "", renderer_context or {}) is None:
            try:
                body = orjson.dumps(data, default=self._encoder.default, option=self._options)
            except orjson.JSONEncodeError:
                pass
            else:
                # As DRF: U+2028 and U+2029 escaped, so the answer is also valid JavaScript.
                return body.replace(b"\xe2\x80\xa8", b"\\u2028").replace(
                    b"\xe2\x80\xa9", b"\\u2029"
                )
        return super().render(data, accepted_media_type, renderer_context)


class ContentNegotiation(negotiation.DefaultContentNegotiation):
    """DRF's choice of a renderer, made once per Accept header and set of renderers, not on every
    request: parsing and ranking the header took a third of DRF's steps before the view, ~0.035 ms
    of a request's CPU (bench/trace.py), and programs send the same header every time. A format
    asked for in the URL (`?format=`, a suffix) is chosen as DRF does; an answer refused (406) is
    never kept."""

    # (Accept header, renderer classes) -> (index of the renderer chosen, media type).
    _chosen: dict[tuple[str, tuple[type[BaseRenderer], ...]], tuple[int, str]] = {}
    CHOICES_KEPT = 1000  # distinct headers; beyond, the memory starts again

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        if format_suffix or self.settings.URL_FORMAT_OVERRIDE in request.query_params:
            return super().select_renderer(request, renderers, format_suffix)
        key = (request.headers.get("accept", "*/*"), tuple(map(type, renderers)))
        chosen = self._chosen.get(key)
        if chosen is None:
            renderer, media_type = super().select_renderer(request, renderers)
            if len(self._chosen) >= self.CHOICES_KEPT:
                self._chosen.clear()
            chosen = self._chosen[key] = (renderers.index(renderer), media_type)
        index, media_type = chosen
        return renderers[index], media_type


class Pagination(LimitOffsetPagination):
    """`?limit=` (default PAGE_SIZE, at most 200) and `?offset=`; out-of-range values are clamped,
    so no number in the query string can overflow the database."""

    max_limit = 200

    def get_offset(self, request: Request) -> int:
        return min(super().get_offset(request), MAX_OFFSET)
