"""The rules page (/rules/, and /help/ leads there)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from club.i18n import current_language


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The club's rules for players (RULES.md as prose, each rule at its id's anchor), with the
    tips and the frequent questions; a refusal at the table links to its rule here."""
    return render(request, "web/rules.html", {"language": current_language()})
