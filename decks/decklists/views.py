"""Decklist pages: import a pasted list (a new deck, or replacing a deck's cards) and export a deck.

Thin views over ``decks.decklists.services``. Permissions as everywhere for decks
(``decks.selectors``): exporting needs to see the deck (a deck shared by link is exported
through its share token), replacing needs to own it — 403 for someone who may see the deck,
404 for anyone else. Importing a new deck needs an account (the login page first).

A list with problems writes nothing: the form comes back with the text as it was and every
problem with its line number and, where there are some, the cards it may have meant.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from accounts.decorators import account_required
from cards.gamedefs import LANGUAGES
from cards.models import Game
from cardsite.text import plain_name
from cardsite.throttling import rate_limit

from .. import selectors
from ..models import Deck
from .services import (
    MAX_REPORTED,
    create_from_decklist,
    export_data,
    export_text,
    import_decklist,
    mended_text,
    problems,
    resolve_decklist,
)

MAX_LIST_LENGTH = 20_000  # characters: about 300 lines of long names


class DecklistForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Decklist"),
        max_length=MAX_LIST_LENGTH,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 20, "cols": 60, "spellcheck": "false"}),
        help_text=gettext_lazy(
            "One card a line: a count, then the card's name (in any language) or number, e.g. “3 林沖” "
            "or “2x Sub-Zero”. A line ending in a colon, such as “Deck:”, names the zone of the cards "
            "below it. Lines starting with # are comments."
        ),
    )


class GameChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, game: Game) -> str:
        return game.definition.name(get_language() or "ja")


class NewDecklistForm(DecklistForm):
    game = GameChoiceField(queryset=Game.objects.all(), to_field_name="slug", label=gettext_lazy("Game"))
    name = forms.CharField(max_length=120, label=gettext_lazy("Deck name"), validators=[plain_name()])

    field_order = ["game", "name", "text"]


def _language(request: HttpRequest) -> str:
    wanted = request.GET.get("lang")
    return wanted if wanted in LANGUAGES else (get_language() or "ja")


def _render(request: HttpRequest, form: forms.Form, *, deck: Deck | None = None, found: list | None = None):
    # A suggestion taken answers 200 (htmx swaps only those): the mended list is shown, nothing was refused.
    game = deck.game if deck is not None else (form.cleaned_data.get("game") if form.is_bound else None)
    found = found or []
    context = {
        "form": form,
        "deck": deck,
        "problems": found[:MAX_REPORTED],
        "more_problems": max(0, len(found) - MAX_REPORTED),
        "problem_count": len(found),
        "problem_game": game,
    }
    return render(request, "decks/import.html", context, status=400 if found and not _mending(request) else 200)


def _mending(request: HttpRequest) -> bool:
    """Whether the post takes one of the page's suggestions (``use``, ``move``) rather than importing."""
    return bool(request.POST.get("use") or request.POST.get("move"))


def _mended(request: HttpRequest, game: Game | None = None) -> QueryDict:
    """The posted form, its list mended as the suggestion taken asks (``decklist_resolve.mended_text``)."""
    data = request.POST.copy()
    if not _mending(request):
        return data
    game = game or Game.objects.filter(slug=data.get("game", "")).first()
    if game is not None:
        data["text"] = mended_text(
            game, data.get("text", ""), use=data.get("use", ""), move=data.get("move", ""), language=_language(request)
        )
    return data


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def import_new(request: HttpRequest) -> HttpResponse:
    """A new deck from a pasted list."""
    if request.method == "GET":
        initial_game = Game.objects.filter(slug=request.GET.get("game", "")).first()
        return _render(request, NewDecklistForm(initial={"game": initial_game}))
    form = NewDecklistForm(_mended(request))
    if not form.is_valid():
        return _render(request, form)
    game = form.cleaned_data["game"]
    if _mending(request):  # a suggestion taken: the list again, mended, and what is left to mend; nothing saved
        resolved = resolve_decklist(game, form.cleaned_data["text"])
        return _render(request, form, found=problems(resolved.errors, game.slug))
    deck, resolved = create_from_decklist(
        owner=request.user, game=game, name=form.cleaned_data["name"], text=form.cleaned_data["text"]
    )
    if deck is None:
        return _render(request, form, found=problems(resolved.errors, game.slug))
    _report_imported(request, resolved)
    return redirect("decks:detail", deck.pk)


def _report_imported(request: HttpRequest, resolved) -> None:
    count = sum(n for _zone, _card, n in resolved.entries)
    text = ngettext("Imported %(count)s card.", "Imported %(count)s cards.", count) % {"count": count}
    messages.success(request, text)


@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def import_replace(request: HttpRequest, pk: int) -> HttpResponse:
    """Replace a deck's cards by a pasted list (the form starts with the deck's own list)."""
    deck = selectors.access_deck(request.user, pk, write=True)
    if request.method == "GET":
        return _render(request, DecklistForm(initial={"text": export_text(deck, _language(request))}), deck=deck)
    form = DecklistForm(_mended(request, deck.game))
    if not form.is_valid():
        return _render(request, form, deck=deck)
    if _mending(request):
        resolved = resolve_decklist(deck.game, form.cleaned_data["text"])
        return _render(request, form, deck=deck, found=problems(resolved.errors, deck.game.slug))
    resolved = import_decklist(deck, form.cleaned_data["text"])
    if not resolved.ok:
        return _render(request, form, deck=deck, found=problems(resolved.errors, deck.game.slug))
    _report_imported(request, resolved)
    return redirect("decks:detail", deck.pk)


def _filename(deck: Deck, extension: str) -> str:
    return f"{slugify(deck.name, allow_unicode=True) or 'deck'}.{extension}"


def _text_response(request: HttpRequest, deck: Deck) -> HttpResponse:
    response = HttpResponse(export_text(deck, _language(request)), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, _filename(deck, "txt"))
    return response


def _json_response(request: HttpRequest, deck: Deck) -> HttpResponse:
    body = json.dumps(export_data(deck, _language(request)), ensure_ascii=False, indent=2) + "\n"
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = content_disposition_header(True, _filename(deck, "json"))
    return response


@require_GET
def export_text_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The deck as a list (text/plain), in ``?lang=`` or the page's language."""
    return _text_response(request, selectors.access_deck(request.user, pk))


@require_GET
def export_json_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The deck as JSON: game, name, mode, options, and per zone [{key, number, name, count}]."""
    return _json_response(request, selectors.access_deck(request.user, pk))


@require_GET
def shared_export_text(request: HttpRequest, token: str) -> HttpResponse:
    return _text_response(request, selectors.access_deck(request.user, token=token))


@require_GET
def shared_export_json(request: HttpRequest, token: str) -> HttpResponse:
    return _json_response(request, selectors.access_deck(request.user, token=token))
