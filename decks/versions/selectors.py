"""Reads of a deck's versions: the list, one version, and the diff between two."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from django.http import Http404
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..diff import DeckDiff, as_text, diff
from ..models import Deck, DeckPlaceholder, DeckVersion
from ..placeholders import selectors as placeholder_selectors
from ..rules import get_rules

# A placeholder card in a diff: never a card's key. Its kind, stated values and name, so that the same placeholder
# in two versions is the same row and a changed value shows as one removed and one added.
PLACEHOLDER_KEY = "placeholder:"


def versions_of(deck: Deck) -> list[DeckVersion]:
    return list(DeckVersion.objects.filter(deck=deck).order_by("number"))


def version(deck: Deck, number: Any) -> DeckVersion:
    """One version of the deck by number; 404 for a number it does not have (or not a number)."""
    try:
        return DeckVersion.objects.get(deck=deck, number=int(number))
    except (TypeError, ValueError, DeckVersion.DoesNotExist) as error:
        raise Http404("no such version") from error


def placeholder_key(row: dict[str, Any]) -> str:
    described = [row["kind"], row.get("values") or {}, row.get("name") or ""]
    return PLACEHOLDER_KEY + json.dumps(described, sort_keys=True, ensure_ascii=False)


def placeholder_in(key: str) -> DeckPlaceholder | None:
    """The placeholder a diff's key stands for (unsaved, to be shown), or None for a card's key."""
    if not key.startswith(PLACEHOLDER_KEY):
        return None
    kind, values, name = json.loads(key.removeprefix(PLACEHOLDER_KEY))
    return DeckPlaceholder(kind=kind, values=values, name=name)


def placeholder_label(deck: Deck, key: str, language: str | None = None) -> str | None:
    """How a placeholder of a diff is shown ("Big ally [placeholder: Ally (Cost 3)]"); None for a card."""
    placeholder = placeholder_in(key)
    if placeholder is None:
        return None
    return placeholder_selectors.label(deck.game, placeholder, language or get_language() or "ja")


def rows(version: DeckVersion | None) -> list[tuple[str, str, int]]:
    """A version's cards, then its placeholder cards (``placeholder_key``), as ``diff`` reads them."""
    if version is None:
        return []
    cards = [(r["zone"], r["card"], r["count"]) for r in version.entries]
    return cards + [(p["zone"], placeholder_key(p), p["count"]) for p in version.placeholders]


def zone_order(deck: Deck) -> list[str]:
    return [zone.slug for zone in get_rules(deck.game.slug).zones]


def compare(deck: Deck, a: DeckVersion | None, b: DeckVersion) -> DeckDiff:
    return diff(rows(a), rows(b), zone_order(deck))


def history(deck: Deck) -> list[tuple[DeckVersion, DeckDiff]]:
    """Each version, newest first, with what changed since the one before it."""
    result, previous = [], None
    for current in versions_of(deck):
        result.append((current, compare(deck, previous, current)))
        previous = current
    return result[::-1]


def text(deck: Deck, a: DeckVersion, b: DeckVersion) -> str:
    """The diff as text/plain: a heading line, then ``zone:`` and ``+n key`` / ``-n key`` lines."""
    verdict = {True: _("Legal"), False: _("Not legal")}
    head = _("%(name)s: version %(a)s → %(b)s (%(before)s → %(after)s)") % {
        "name": deck.name,
        "a": a.number,
        "b": b.number,
        "before": verdict[a.legal],
        "after": verdict[b.legal],
    }
    result = compare(deck, a, b)

    def shown(pairs: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
        return tuple((placeholder_label(deck, key) or key, n) for key, n in pairs)

    labelled = DeckDiff(tuple(replace(z, added=shown(z.added), removed=shown(z.removed)) for z in result.zones))
    return head + "\n" + as_text(labelled)
