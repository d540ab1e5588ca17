"""Collection pages: thin views over ``collection.selectors`` (reads), ``collection.services`` (writes) and
``collection.importing`` (lists and CSV). A collection is its owner's alone: every page reads the collection of the
user asking, and needs an account (the login page first). A deck's want list is computed for any deck the user may
see (``decks.selectors.access_deck``: 404 otherwise), against the user's own collection.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required, same_site_path
from cards.gamedefs import get_game
from cards.models import Card, Game
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest
from decks.decklists.services import MAX_REPORTED
from decks.models import Deck
from decks.selectors import access_deck, decks_of

from . import importing, selectors, services
from .forms import ChangeForm, CsvForm, PasteForm
from .rules import CollectionError

PAGE_SIZE = 100
MAX_SHARED_DECKS = 10


def _language() -> str:
    return get_language() or "ja"


def _game(slug: str) -> Game:
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise Http404
    return game


def _game_name(game: Game) -> str:
    return get_game(game.slug).name(_language())


@account_required
@require_GET
def overview(request: HttpRequest) -> HttpResponse:
    """What the user owns, game by game."""
    return render(request, "collection/overview.html", {"summaries": selectors.summaries(request.user)})


def _collection_context(request: HttpRequest, game: Game) -> dict:
    page = Paginator(selectors.owned_rows(request.user, game), PAGE_SIZE).get_page(request.GET.get("page"))
    return {
        "game": game,
        "search_game": game,
        "game_name": _game_name(game),
        "page": page,
        "rows": [(row.card, row.card.display_name(_language()), row.count) for row in page],
        "counts": {row.card_id: row.count for row in page},
        "summary": selectors.game_summary(request.user, game),
        "language": _language(),
    }


@account_required
@require_GET
def game_collection(request: HttpRequest, game: str) -> HttpResponse:
    """The user's cards of one game, with +/- per card, the import forms, the export."""
    game_row = _game(game)
    context = {**_collection_context(request, game_row), "paste_form": PasteForm(), "csv_form": CsvForm()}
    return render(request, "collection/game.html", context)


def _import_page(request: HttpRequest, game: Game, paste_form, csv_form, found: list, status: int) -> HttpResponse:
    context = {
        "game": game,
        "search_game": game,
        "game_name": _game_name(game),
        "paste_form": paste_form,
        "csv_form": csv_form,
        "problems": found[:MAX_REPORTED],
        "more_problems": max(0, len(found) - MAX_REPORTED),
        "problem_count": len(found),
    }
    return render(request, "collection/import.html", context, status=status)


def _imported(request: HttpRequest, game: Game, resolved: importing.Resolved, mode: str) -> HttpResponse:
    try:
        totals = services.import_counts(request.user, game, resolved.counts, mode)
    except CollectionError as error:
        return _import_page(request, game, PasteForm(), CsvForm(), [{"text": error.message}], 400)
    copies = resolved.copies
    text = ngettext("Imported %(count)s copy.", "Imported %(count)s copies.", copies) % {"count": copies}
    text += " " + _("Your collection of %(game)s now holds %(cards)s cards, %(copies)s copies in all.") % {
        "game": _game_name(game),
        **totals,
    }
    messages.success(request, text)
    return redirect("collection:game", game.slug)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("collection_write")
def import_list(request: HttpRequest, game: str) -> HttpResponse:
    """Fill the collection from a pasted list (add to it, or replace the game's collection)."""
    game_row = _game(game)
    if request.method == "GET":
        return _import_page(request, game_row, PasteForm(), CsvForm(), [], 200)
    form = PasteForm(request.POST)
    if not form.is_valid():
        return _import_page(request, game_row, form, CsvForm(), [], 400)
    resolved = importing.resolve_list(game_row, form.cleaned_data["text"])
    if not resolved.ok:
        found = importing.problems(resolved.errors, game_row.slug)
        return _import_page(request, game_row, form, CsvForm(), found, 400)
    return _imported(request, game_row, resolved, form.cleaned_data["mode"])


@account_required
@require_POST
@rate_limit("collection_write")
def import_csv(request: HttpRequest, game: str) -> HttpResponse:
    """Fill the collection from a CSV file."""
    game_row = _game(game)
    form = CsvForm(request.POST, request.FILES)
    if not form.is_valid():
        return _import_page(request, game_row, PasteForm(), form, [], 400)
    resolved = importing.resolve_csv(game_row, form.cleaned_data["file"].read())
    if not resolved.ok:
        found = importing.problems(resolved.errors, game_row.slug)
        return _import_page(request, game_row, PasteForm(), form, found, 400)
    return _imported(request, game_row, resolved, form.cleaned_data["mode"])


def _download(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = content_disposition_header(True, filename)
    response["Cache-Control"] = "private, no-store"
    return response


@account_required
@require_GET
def export(request: HttpRequest, game: str) -> HttpResponse:
    game_row = _game(game)
    body = importing.export_csv(request.user, game_row, _language())
    return _download(body, "text/csv; charset=utf-8", f"collection-{game_row.slug}.csv")


@account_required
@require_POST
@rate_limit("collection_write")
def change(request: HtmxRequest, card: int) -> HttpResponse:
    """+1 / −1 on a card (``delta``), or a count to set (``count``); answers the control with the server's count."""
    card_row = Card.objects.select_related("game").filter(pk=card).first()
    if card_row is None:
        raise Http404
    form = ChangeForm(request.POST)
    try:
        if not form.is_valid() or (form.cleaned_data["delta"] is None) == (form.cleaned_data["count"] is None):
            raise CollectionError(_("Send +1 or −1, or a number of copies."))
        if form.cleaned_data["delta"] is not None:
            count = services.change_count(request.user, card_row, form.cleaned_data["delta"])
        else:
            count = services.set_count(request.user, card_row, form.cleaned_data["count"])
    except CollectionError as error:
        if request.htmx:
            return HttpResponse(error.message, status=400, content_type="text/plain; charset=utf-8")
        show_refusal(request, error)
        back = same_site_path(request, request.headers.get("Referer"))
        return redirect(back) if back else redirect("collection:game", card_row.game.slug)
    if request.htmx:
        return render(request, "collection/_owned.html", {"card": card_row, "owned": count, "changed": True})
    back = same_site_path(request, request.headers.get("Referer"))
    return redirect(back) if back else redirect("collection:game", card_row.game.slug)


@account_required
@require_GET
def wants(request: HttpRequest, pk: int) -> HttpResponse:
    """A deck's cards against the user's collection: per card how many copies short; ``?format=text`` (a list in the
    decklist format) or ``?format=csv``. Any deck the user may see (``?token=`` for one shared by link)."""
    deck = access_deck(request.user, pk, token=request.GET.get("token") or None)
    report = selectors.needs(request.user, [deck])
    language = _language()
    export_format = request.GET.get("format", "")
    name = slugify(deck.name, allow_unicode=True) or "deck"
    if export_format == "text":
        title = _("Want list for %(deck)s") % {"deck": deck.name}
        body = importing.want_list_text(deck.game, [(n.card, n.short) for n in report.missing], language, title)
        return _download(body, "text/plain; charset=utf-8", f"{name}-wants.txt")
    if export_format == "csv":
        return _download(
            importing.want_list_csv(report.missing, language), "text/csv; charset=utf-8", f"{name}-wants.csv"
        )
    context = {
        "deck": deck,
        "report": report,
        "game_name": _game_name(deck.game),
        "rows": [(need, need.card.display_name(language)) for need in report.needs],
        "token": request.GET.get("token", ""),
    }
    return render(request, "collection/wants.html", context)


@account_required
@require_GET
def shared(request: HttpRequest, game: str) -> HttpResponse:
    """Several of the user's decks of a game against one collection: per card, copies needed in all and owned, and
    where the copies are stretched too thin (enough for each deck alone, not for all at once)."""
    game_row = _game(game)
    mine = list(decks_of(request.user).filter(game=game_row).order_by("name", "id"))
    chosen_ids: list[int] = []
    for raw in request.GET.getlist("deck"):
        if not raw.isascii() or not raw.isdigit():
            raise Http404
        if int(raw) not in chosen_ids:
            chosen_ids.append(int(raw))
    by_pk = {deck.pk: deck for deck in mine}
    error = ""
    if len(chosen_ids) > MAX_SHARED_DECKS:
        error = _("Choose at most %(maximum)s decks.") % {"maximum": MAX_SHARED_DECKS}
        chosen_ids = []
    if any(pk not in by_pk for pk in chosen_ids):
        raise Http404  # not a deck of the user's of this game
    chosen: list[Deck] = [by_pk[pk] for pk in chosen_ids]
    report = selectors.needs(request.user, chosen) if chosen else None
    language = _language()
    context = {
        "game": game_row,
        "search_game": game_row,
        "game_name": _game_name(game_row),
        "decks": mine,
        "chosen": chosen_ids,
        "report": report,
        "rows": [(need, need.card.display_name(language)) for need in report.needs] if report else [],
        "error": error,
        "max_decks": MAX_SHARED_DECKS,
    }
    return render(request, "collection/shared.html", context, status=400 if error else 200)
