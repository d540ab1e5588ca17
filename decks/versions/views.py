"""A deck's versions as pages: its history, the diff of two versions, restoring one, branching one off.

Who may see them: whoever may see the deck (``selectors.access_deck``; a deck shared by link with
``?token=``), so whoever has a shared deck's link sees its history. Restoring is for the owner only (403 for someone who
can see the deck, 404 for anyone else); branching a version into a new private deck is for any signed-in
user who may see the deck, as copying it is.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.decorators import account_required
from cardsite.labels import pick
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit

from .. import selectors, services
from ..rules import get_rules
from . import selectors as versions


def _token(request: HttpRequest) -> str | None:
    return request.GET.get("token") or request.POST.get("token") or None


def _zone_labels(deck) -> dict[str, str]:
    language = get_language() or "ja"
    return {zone.slug: pick(zone.labels, language) for zone in get_rules(deck.game.slug).zones}


def _named_zones(deck, zones) -> list[dict]:
    """The changed zones for the page: the zone's name, and each card as (key, copies, name in the reader's
    language); a card no longer stored shows its key only."""
    from cards.models import Card

    language = get_language() or "ja"
    labels = _zone_labels(deck)
    keys = {key for zone in zones for key, _n in (*zone.added, *zone.removed)}
    cards = Card.objects.filter(game=deck.game, key__in=keys).prefetch_related("texts")
    names = {card.key: card.display_name(language) for card in cards}

    def shown(key: str, n: int) -> tuple[str, int, str]:
        placeholder = versions.placeholder_label(deck, key, language)  # shown by its label alone, never a key
        return (placeholder, n, "") if placeholder is not None else (key, n, names.get(key, ""))

    return [
        {
            "label": labels.get(zone.zone, zone.zone),
            "added": [shown(key, n) for key, n in zone.added],
            "removed": [shown(key, n) for key, n in zone.removed],
        }
        for zone in zones
    ]


def _findings(version) -> list[str]:
    language = get_language() or "ja"
    return [pick(f["texts"], language) for f in version.verdict.get("findings", []) if f.get("kind") == "violation"]


@require_GET
def history(request: HttpRequest, pk: int) -> HttpResponse:
    token = _token(request)
    deck = selectors.access_deck(request.user, pk, token=token)
    rows = [{"version": v, "diff": d, "zones": _named_zones(deck, d.zones)} for v, d in versions.history(deck)]
    context = {"deck": deck, "rows": rows, "token": token, "is_owner": selectors.can_edit(request.user, deck)}
    return render(request, "decks/history.html", context)


@require_GET
def diff(request: HttpRequest, pk: int) -> HttpResponse:
    token = _token(request)
    deck = selectors.access_deck(request.user, pk, token=token)
    a, b = versions.version(deck, request.GET.get("a")), versions.version(deck, request.GET.get("b"))
    if request.GET.get("format") == "text":
        return HttpResponse(versions.text(deck, a, b), content_type="text/plain; charset=utf-8")
    result = versions.compare(deck, a, b)
    context = {
        "deck": deck,
        "a": a,
        "b": b,
        "a_findings": _findings(a),
        "b_findings": _findings(b),
        "zones": _named_zones(deck, result.zones),
        "token": token,
    }
    return render(request, "decks/diff.html", context)


@account_required
@require_POST
@rate_limit("deck_write")
def restore(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    deck = selectors.access_deck(request.user, pk, write=True)
    version = versions.version(deck, number)
    try:
        services.restore_version(deck, version)
    except services.DeckError as error:
        show_refusal(request, error)
    else:
        messages.success(request, _("Version %(number)s was restored as a new version.") % {"number": number})
    return redirect("decks:history", deck.pk)


@account_required
@require_POST
@rate_limit("deck_write")
def branch(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    try:
        copy = services.branch_version(request.user, pk, number, token=_token(request))
    except services.DeckError as error:
        show_refusal(request, error)
        return redirect("decks:history", pk)
    messages.success(request, _("This is a new deck made from version %(number)s.") % {"number": number})
    return redirect("decks:detail", copy.pk)
