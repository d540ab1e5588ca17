"""A deck's assumptions page: every value the whole game (or, for a game without one, the goldfish engine) still
lacks on the deck, grouped by card and by value
with counts, filled one by one, in bulk or by a sheet; the assumptions the database has since answered; the
deck's assumptions, each to drop."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.decorators import account_required
from cards.presentation import field_label, kind_label
from cardsite.errors import AppError
from cardsite.throttling import rate_limit
from decks.models import Deck
from decks.selectors import access_deck

from .. import inputs
from . import selectors, services
from .forms import ANY_KIND, AssumedCardsForm, BulkFillForm, DropForm, OneValueForm, SheetForm


def _deck(request: HttpRequest, pk: int) -> Deck:
    return access_deck(request.user, pk)


def _missing(deck: Deck, language: str) -> selectors.MissingList:
    return selectors.deck_missing_values(deck, language)


def _refuse(form: Any, error: AppError) -> None:
    if error.message:
        form.add_error(None, error.message)
    for where, problems in error.errors.items():
        for problem in problems:
            form.add_error(None, f"{where}: {problem}")


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def assumptions_page(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _deck(request, pk)
    language = inputs.language()
    missing = _missing(deck, language)
    game = deck.game
    field_choices = [(name, f"{label} ({count})") for name, label, count in missing.by_field]
    kinds = sorted({value.kind for value in missing.values if value.kind})
    kind_choices = [(kind, kind_label(game, kind, language)) for kind in kinds]
    lacking_kinds = sorted({value.kind for value in missing.cards if value.kind and not value.key})
    post = request.POST if request.method == "POST" else None
    action = post.get("action", "") if post is not None else ""
    forms = {
        "one": OneValueForm(post if action == "one" else None),
        "bulk": BulkFillForm(post if action == "bulk" else None, fields=field_choices, kinds=kind_choices),
        "cards": AssumedCardsForm(
            post if action == "cards" else None,
            kinds=[(kind, kind_label(game, kind, language)) for kind in lacking_kinds],
        ),
        "sheet": SheetForm(post if action == "sheet" else None, request.FILES if action == "sheet" else None),
        "drop": DropForm(post if action == "drop" else None),
    }
    if post is not None:
        form = forms.get(action)
        if form is None:
            return render(request, "refused.html", {"message": _("Unknown action.")}, status=400)
        if form.is_valid():
            try:
                done = _act(request, deck, action, form.cleaned_data, missing)
            except AppError as error:
                _refuse(form, error)
            else:
                messages.success(request, done)
                return redirect("assumptions:page", pk=deck.pk)
    status = 400 if post is not None else 200
    context = {
        "deck": deck,
        "missing": missing,
        "forms": forms,
        "lacking_kinds": lacking_kinds,
        "answered": selectors.answered(deck, language),
        "assumed": selectors.named(game, selectors.stored_copy(deck), language),
        "is_owner": deck.owner_id == request.user.pk,
        "kind_field_label": field_label(game, "kind", language),
    }
    return render(request, "simulator/assumptions/page.html", context, status=status)


def _act(request: HttpRequest, deck: Deck, action: str, data: dict[str, Any], missing: selectors.MissingList) -> str:
    user = request.user
    if action == "one":
        row = services.Row(data["key"], data["field"], data["value"], _("Assumed value"))
        services.set_values(user, deck, [row])
        return _("The value is assumed.")
    if action == "bulk":
        targets = [
            (value.key, data["field"])
            for value in missing.values
            if value.field == data["field"] and data["kind"] in (ANY_KIND, value.kind)
        ]
        count = services.fill_every(user, deck, targets, data["value"], _("Assumed value"))
        return _("%(count)s values are assumed.") % {"count": count}
    if action == "cards":
        keys = services.add_assumed_cards(user, deck, data["kind"], data["count"])
        return _("%(count)s assumed cards are added; their values are listed below.") % {"count": len(keys)}
    if action == "sheet":
        count = services.set_values(user, deck, services.rows_from_sheet(data["sheet"]))
        return _("%(count)s values are assumed.") % {"count": count}
    services.drop(user, deck, data["key"], data["field"])
    return _("The assumption is dropped.")


@account_required
@require_GET
def assumptions_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _deck(request, pk)
    text = selectors.sheet(_missing(deck, inputs.language()), deck)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="assumptions-{deck.pk}.csv"'
    return response


def assumptions_panel(request: Any, deck: Deck, token: str | None) -> str:
    """The deck page's panel (``decks.extensions``): "With N assumed values", each with the contribution form that
    would make it card data; read-only, for whoever sees the deck (by link too). For its owner, the link to the
    assumptions page where the goldfish reads values the cards lack. Nothing when neither."""
    language = inputs.language()
    assumed = selectors.named_of_deck(deck, language)
    owner = deck.owner_id == getattr(request.user, "pk", None)
    unknown = selectors.goldfish_unknown(deck, language) if owner else 0
    if not assumed and not unknown:
        return ""
    context = {"assumed": assumed, "deck": deck, "unknown_values": unknown}
    return render_to_string("simulator/_assumed_panel.html", context, request=request)
