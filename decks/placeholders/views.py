"""The deck page's placeholder cards: the owner adds one (kind, stated values, name, count), removes one, or
replaces one by a real card in one step. Each answers by going back to the deck page, a refusal as its message;
an addition from the builder (htmx) answers with the builder's placeholders and the server's verdict, a refusal
in the builder's message area."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.decorators import account_required
from cards.models import Card
from cardsite.errors import AppError
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest

from .. import presentation
from .. import selectors as deck_selectors
from ..models import DeckPlaceholder
from . import services
from .forms import PlaceholderForm


def _builder_refusal(request: HtmxRequest, message: str) -> HttpResponse:
    response = render(request, "decks/_builder_message.html", {"message": message}, status=400)
    response["HX-Retarget"] = "#builder-message"
    response["HX-Reswap"] = "innerHTML"
    return response


@account_required
@require_POST
@rate_limit("deck_write")
def add(request: HtmxRequest, pk: int) -> HttpResponse:
    deck = deck_selectors.access_deck(request.user, pk, write=True)
    language = get_language() or "ja"
    form = PlaceholderForm(request.POST, deck=deck, language=language)
    back = "decks:edit" if request.POST.get("from") == "builder" else "decks:detail"
    if not form.is_valid():
        problems = []
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            problems += [f"{label}: {error}" if label else str(error) for error in errors]
        if request.htmx:
            return _builder_refusal(request, " ".join(problems))
        for problem in problems:
            show_refusal(request, problem)
        return redirect(back, deck.pk)
    try:
        services.add_placeholder(
            deck, form.cleaned_data["kind"], form.values(), form.cleaned_data["count"], form.cleaned_data["name"]
        )
    except AppError as refusal:
        if request.htmx:
            return _builder_refusal(request, str(refusal))
        show_refusal(request, refusal)
    else:
        if request.htmx:
            change = presentation.placeholders_change_view(deck, language)
            fresh = PlaceholderForm(deck=deck, language=language)
            context = {"deck": deck, "change": change, "placeholder_form": fresh}
            return render(request, "decks/_placeholders_added.html", context)
        messages.success(request, _("The placeholder cards were added."))
    return redirect(back, deck.pk)


@account_required
@require_POST
@rate_limit("deck_write")
def remove(request: HttpRequest, pk: int, placeholder_pk: int) -> HttpResponse:
    deck = deck_selectors.access_deck(request.user, pk, write=True)
    services.remove_placeholder(get_object_or_404(DeckPlaceholder, deck=deck, pk=placeholder_pk))
    messages.success(request, _("The placeholder cards were removed."))
    return redirect("decks:detail", deck.pk)


@account_required
@require_POST
@rate_limit("deck_write")
def replace(request: HttpRequest, pk: int, placeholder_pk: int) -> HttpResponse:
    """Replace the placeholder by the card whose key or number the owner gives, with the same count."""
    deck = deck_selectors.access_deck(request.user, pk, write=True)
    placeholder = get_object_or_404(DeckPlaceholder, deck=deck, pk=placeholder_pk)
    wanted = request.POST.get("card", "").strip()
    card = Card.objects.filter(game=deck.game, key=wanted).first() if wanted else None
    if card is None:
        show_refusal(request, _("No card of this game has the key “%(key)s”.") % {"key": wanted})
        return redirect("decks:detail", deck.pk)
    try:
        services.replace_placeholder(placeholder, card)
    except AppError as refusal:
        show_refusal(request, refusal)
    else:
        messages.success(request, _("The placeholder cards were replaced by %(card)s.") % {"card": card.key})
    return redirect("decks:detail", deck.pk)
