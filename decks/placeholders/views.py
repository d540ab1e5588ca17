"""The deck page's placeholder cards: the owner adds one (kind, stated values, name, count), removes one, or
replaces one by a real card in one step; the builder also steps a placeholder's count by one. Each answers by
going back to the page it came from, a refusal as its message; from the builder (htmx) a change answers with the
builder's placeholders and the server's verdict, a refusal in the builder's message area."""

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
from ..models import Deck, DeckPlaceholder
from . import services
from .forms import PlaceholderForm


def _builder_refusal(request: HtmxRequest, message: str, status: int = 400) -> HttpResponse:
    response = render(request, "decks/_builder_message.html", {"message": message}, status=status)
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
            return _builder_placeholders(request, deck)
        messages.success(request, _("The placeholder cards were added."))
    return redirect(back, deck.pk)


def _builder_placeholders(request: HtmxRequest, deck: Deck) -> HttpResponse:
    """The builder's placeholders redrawn, with the server's verdict (out of band) and its message area cleared."""
    language = get_language() or "ja"
    change = presentation.placeholders_change_view(deck, language)
    fresh = PlaceholderForm(deck=deck, language=language)
    context = {"deck": deck, "change": change, "placeholder_form": fresh}
    return render(request, "decks/_placeholders_added.html", context)


@account_required
@require_POST
@rate_limit("deck_write")
def remove(request: HtmxRequest, pk: int, placeholder_pk: int) -> HttpResponse:
    """Remove a placeholder (the owner alone: checked by the service); from the builder (htmx) the answer is the
    builder's placeholders and verdict, else the page it came from."""
    deck = services.placeholder_delete(user=request.user, deck_pk=pk, placeholder_pk=placeholder_pk)
    if request.htmx:
        return _builder_placeholders(request, deck)
    messages.success(request, _("The placeholder cards were removed."))
    return redirect("decks:edit" if request.POST.get("from") == "builder" else "decks:detail", deck.pk)


@account_required
@require_POST
@rate_limit("deck_write")
def step(request: HtmxRequest, pk: int, placeholder_pk: int) -> HttpResponse:
    """One copy more or fewer of a placeholder (``delta`` 1 or -1; at 0 it is removed), as the builder's − and +
    buttons do for a card; a refusal goes to the builder's message area."""
    try:
        delta = int(request.POST.get("delta", ""))
    except ValueError:
        delta = 0
    if delta not in (-1, 1):
        message = _("Give one more (1) or one fewer (-1).")
        if request.htmx:
            return _builder_refusal(request, message)
        show_refusal(request, message)
        return redirect("decks:edit", pk)
    try:
        deck, _placeholder = services.placeholder_add_copies(
            user=request.user, deck_pk=pk, placeholder_pk=placeholder_pk, delta=delta
        )
    except AppError as refusal:
        if request.htmx:
            return _builder_refusal(request, str(refusal), refusal.status)
        show_refusal(request, refusal)
        return redirect("decks:edit", pk)
    if request.htmx:
        return _builder_placeholders(request, deck)
    return redirect("decks:edit", deck.pk)


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
