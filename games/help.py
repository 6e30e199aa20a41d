"""Help pages: the rules of each game, the difference, tips, a glossary and an FAQ.

Each page is written separately in every site language (``templates/help/<lang>/<slug>.html``),
not machine-translated from one text; only the page chrome (headings, the table of contents)
goes through the translation catalogues. The active language (LocaleMiddleware) picks the
template; a language without its own text falls back to English.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

# The order of the table of contents. The slugs are part of the site's URLs (the table page
# and the create-table form link to /help/<game>/), so they do not change.
HELP_SLUGS: tuple[str, ...] = (
    "japanese_joker",
    "classic_joker",
    "japanese_whist",
    "difference",
    "tips",
    "glossary",
    "faq",
)

HELP_LANGUAGES: tuple[str, ...] = ("en", "ka", "ru")
DEFAULT_HELP_LANGUAGE = "en"


def help_language() -> str:
    """The language the page text is written in: the active one if we have it, else English."""
    code = (get_language() or DEFAULT_HELP_LANGUAGE).lower().split("-")[0]
    return code if code in HELP_LANGUAGES else DEFAULT_HELP_LANGUAGE


def _site_numbers() -> dict[str, int]:
    """Site settings the pages quote, so the text follows the settings if they change."""
    return {
        "turn_seconds": settings.TURN_SECONDS,
        "grace_seconds": settings.ABSENCE_GRACE_SECONDS,
        "timeouts_to_abandon": getattr(settings, "LIVE_TIMEOUTS_TO_ABANDON", 3),
        "signup_grant": settings.COIN_SIGNUP_GRANT,
        "daily_amount": settings.COIN_DAILY_TOPUP_AMOUNT,
        "daily_below": settings.COIN_DAILY_TOPUP_BELOW,
    }


@require_GET
def help_index(request: HttpRequest) -> HttpResponse:
    context = {"slug": "", "help_language": help_language(), **_site_numbers()}
    return render(request, "help/index.html", context)


@require_GET
def help_page(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in HELP_SLUGS:
        raise Http404("No such help page.")
    language = help_language()
    names = [f"help/{language}/{slug}.html"]
    if language != DEFAULT_HELP_LANGUAGE:
        names.append(f"help/{DEFAULT_HELP_LANGUAGE}/{slug}.html")
    template = select_template(names)
    context = {"slug": slug, "help_language": language, **_site_numbers()}
    return HttpResponse(template.render(context, request))
