"""Reads of a deck's versions: the list, one version, and the diff between two."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from ..diff import DeckDiff, as_text, diff
from ..models import Deck, DeckVersion
from ..rules import get_rules


def versions_of(deck: Deck) -> list[DeckVersion]:
    return list(DeckVersion.objects.filter(deck=deck).order_by("number"))


def version(deck: Deck, number: Any) -> DeckVersion:
    """One version of the deck by number; 404 for a number it does not have (or not a number)."""
    try:
        return DeckVersion.objects.get(deck=deck, number=int(number))
    except (TypeError, ValueError, DeckVersion.DoesNotExist) as error:
        raise Http404("no such version") from error


def rows(version: DeckVersion | None) -> list[tuple[str, str, int]]:
    return [] if version is None else [(r["zone"], r["card"], r["count"]) for r in version.entries]


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
    return head + "\n" + as_text(compare(deck, a, b))
