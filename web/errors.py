"""Error answers: a page in the club's layout for a person, the API's JSON shape for programs.

Django has one handler per status for the whole site; the API's paths (and the admin's and the
browsable API's log-in) keep `club.errors`' JSON answers, every other path is a page.
"""

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render

from club import errors
from club.i18n import text
from web.middleware import activate_page_language

_PROGRAM_PATHS = ("/api/", "/api-auth/", "/admin/")


def _for_programs(request: HttpRequest) -> bool:
    return request.path.startswith(_PROGRAM_PATHS)


def _error_page(
    request: HttpRequest, status: int, title: tuple[str, str], message: tuple[str, str]
) -> HttpResponse:
    """The page in the club's layout; `title` and `message` as (Russian, English), shown in the
    page's language (an error may come before any page view has set it)."""
    activate_page_language(request)
    context = {"title": text(*title), "message": text(*message)}
    return render(request, "web/error.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    answer = errors.json_bad_request(request, exception)
    if _for_programs(request):
        return answer
    return _error_page(
        request,
        answer.status_code,
        ("Неверный запрос", "Bad request"),
        (
            "Страница не поняла запрос. Вернитесь и попробуйте ещё раз.",
            "The page could not understand the request. Go back and try again.",
        ),
    )


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _for_programs(request):
        return errors.json_forbidden(request, exception)
    return _error_page(
        request,
        403,
        ("Нет доступа", "Not allowed"),
        ("Эта страница вам недоступна.", "This page is not open to you."),
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: usually a form from a page opened before a log-in or log-out."""
    if _for_programs(request):
        return errors.json_csrf_failure(request, reason)
    return _error_page(
        request,
        403,
        ("Страница устарела", "The page is out of date"),
        (
            "Форма была открыта до входа или выхода. Обновите страницу и повторите — "
            "ничего не отправлено.",
            "The form was opened before a log-in or log-out. Reload the page and try again — "
            "nothing was sent.",
        ),
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _for_programs(request):
        return errors.json_not_found(request, exception)
    activate_page_language(request)
    return render(request, "web/not_found.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if _for_programs(request):
        return errors.json_server_error(request)
    # No template: whatever failed may fail again while rendering the layout.
    return HttpResponseServerError(
        '<!doctype html><html lang="ru"><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>Канаста-клуб</title><h1>Что-то сломалось · Something broke</h1>"
        "<p>Мы уже знаем. Попробуйте через минуту. · We know. Try again in a minute.</p>"
        '<p><a href="/">В лобби · To the lobby</a></p></html>'
    )
