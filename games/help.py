"""Help pages: the rules of each game, the difference, tips, a glossary and an FAQ.

Each page is written separately in every site language (``templates/help/<lang>/<slug>.html``),
not machine-translated from one text; only the page chrome (headings, the table of contents)
goes through the translation catalogues. The active language (LocaleMiddleware) picks the
template; a language without its own text falls back to English. The games' pages are those of
the registry (each game's ``help_slug``, its template found by the loaders wherever the game
keeps it); the guides after them are the site's own.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

from .models import Table
from .rules import game_specs
from .services.clock import speed_limits

# The guides, after the games' rules in the table of contents. The slugs are part of the site's
# URLs (as the games' are: the table page and the create-table form link to /help/<slug>/), so
# they do not change.
GUIDE_SLUGS: tuple[str, ...] = ("difference", "tips", "glossary", "faq")

HELP_LANGUAGES: tuple[str, ...] = ("en", "ka", "ru")
DEFAULT_HELP_LANGUAGE = "en"


def help_language() -> str:
    """The language the page text is written in: the active one if we have it, else English."""
    code = (get_language() or DEFAULT_HELP_LANGUAGE).lower().split("-")[0]
    return code if code in HELP_LANGUAGES else DEFAULT_HELP_LANGUAGE


def help_slugs() -> tuple[str, ...]:
    """Every help page, in the order of the table of contents: the games', then the guides."""
    return (*(spec.help_slug for spec in game_specs()), *GUIDE_SLUGS)


def _help_games() -> list[dict[str, str]]:
    """The games' pages for the index and the table of contents, in the reader's language."""
    return [
        {"slug": spec.help_slug, "title": gettext(spec.title), "summary": gettext(spec.summary)}
        for spec in game_specs()
    ]


def _speeds() -> list[dict[str, Any]]:
    """Each speed's clocks, as the pages quote them (whole seconds)."""
    speeds = []
    for speed in Table.Speed:
        limits = speed_limits(speed.value)
        speeds.append(
            {
                "id": speed.value,
                "label": speed.label,
                "turn_seconds": round(limits.turn_seconds),
                "bank_seconds": round(limits.bank_seconds),
            }
        )
    return speeds


def _site_numbers() -> dict[str, Any]:
    """Site settings the pages quote, so the text follows the settings if they change. The
    single numbers are the Normal speed's; ``speeds`` has all three."""
    normal = speed_limits(Table.Speed.NORMAL)
    return {
        "speeds": _speeds(),
        "turn_seconds": round(normal.turn_seconds),
        "bank_seconds": round(normal.bank_seconds),
        "grace_seconds": round(normal.bank_seconds),
        "timeouts_to_abandon": getattr(settings, "LIVE_TIMEOUTS_TO_ABANDON", 3),
        "signup_grant": settings.COIN_SIGNUP_GRANT,
        "daily_amount": settings.COIN_DAILY_TOPUP_AMOUNT,
        "daily_below": settings.COIN_DAILY_TOPUP_BELOW,
    }


@require_GET
def help_index(request: HttpRequest) -> HttpResponse:
    context = {
        "slug": "",
        "help_language": help_language(),
        "help_games": _help_games(),
        **_site_numbers(),
    }
    return render(request, "help/index.html", context)


@require_GET
def help_page(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in help_slugs():
        raise Http404("No such help page.")
    language = help_language()
    names = [f"help/{language}/{slug}.html"]
    if language != DEFAULT_HELP_LANGUAGE:
        names.append(f"help/{DEFAULT_HELP_LANGUAGE}/{slug}.html")
    template = select_template(names)
    if template.origin.template_name != names[0]:  # a page not written in this language
        language = DEFAULT_HELP_LANGUAGE
    context = {
        "slug": slug,
        "help_language": language,
        "help_games": _help_games(),
        **_site_numbers(),
    }
    return HttpResponse(template.render(context, request))
