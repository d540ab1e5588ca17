"""A deck's picture (PNG) and its registration sheet and proxies (PDF), for whoever may see the deck
(``selectors.access_deck``; a deck shared by link with ``?token=``). Thin: the deck's cards as the deck page
shows them turned into ``printing.PrintedDeck`` (``printouts.printed_deck``); ``decks.printing`` draws."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from cardsite.pagecache import cached_for_readers
from cardsite.refusals import refused_page
from cardsite.throttling import rate_limit

from .. import selectors
from ..models import Deck
from . import drawing as printing
from .selectors import printed_deck, proxies_refused


def _language() -> str:
    return get_language() or "ja"


def _deck(request: HttpRequest, pk: int) -> Deck:
    return selectors.access_deck(request.user, pk, token=request.GET.get("token") or None)


def _file(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@cached_for_readers("cards", "decks")
@require_GET
@rate_limit("search", methods=("GET",))
def deck_picture(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _deck(request, pk)
    picture = printing.deck_picture(printed_deck(deck, _language(), thumbnails=True))
    return _file(picture, "image/png", f"deck-{deck.pk}.png")


@cached_for_readers("cards", "decks")
@require_GET
@rate_limit("search", methods=("GET",))
def registration_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _deck(request, pk)
    sheet = printing.registration_sheet(printed_deck(deck, _language(), thumbnails=True))
    return _file(sheet, "application/pdf", f"deck-{deck.pk}-registration.pdf")


@cached_for_readers("cards", "decks")
@require_GET
@rate_limit("search", methods=("GET",))
def proxies(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _deck(request, pk)
    try:
        sheet = printing.proxy_sheet(printed_deck(deck, _language(), thumbnails=False))
    except printing.TooManyProxies as error:
        return refused_page(
            request, proxies_refused(error), 400, back_url=reverse("decks:my_decks"), back_label=_("My decks")
        )
    return _file(sheet, "application/pdf", f"deck-{deck.pk}-proxies.pdf")
