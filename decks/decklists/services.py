"""Decklists against the database: find each line's card, check its zone, then write all or nothing.

``decks.decklist`` reads the text; here each line's card is looked up among the cards of
the deck's game, in this order (the first step that finds anything decides):

1. the card's key or printed number, exactly, then compared with ``fold()`` (eb1-008);
2. a name in any language (``CardText.name``) equal under ``fold()`` — so 林冲 finds 林沖,
   ひらがな finds カタカナ, ＡＢＣ finds abc — then equal with spaces and punctuation dropped
   (Sub Zero finds Sub-Zero);
3. a printed number followed by a name (``4 EB1-008 居合い斬り``, as exported): the number
   decides, and the name must be one of that card's names (a typo in the number is reported,
   not guessed).

Several cards found by one step: the line is ambiguous and they are listed. Nothing found:
the line is unknown, with up to 5 candidates — names containing the text (or contained in
it, by ``fold()``), then the most similar names. A candidate is never taken on its own.

Zones: a line under a heading goes in that zone, and its card must be of a kind the zone
takes (``Zone.kinds``; a card of unknown kind is let through, and the deck's verdict
reports it). A line before any heading goes in the first editable zone that takes the
card's kind; a card of unknown kind goes in the editable zone that takes the most kinds
(Shadow Era and Epic Battles: the deck rather than the hero or character; Endbreaker: the
supply; Suikoden: the characters).

Nothing is written until every line resolves: ``import_decklist`` and ``create_from_decklist``
then write all entries at once through ``decks.services``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from cards.gamedefs import get_game
from cards.models import Card, Game
from cards.search.normalize import fold
from cardsite.labels import pick

from .. import decklist, services
from ..decklist import (
    Candidate,
    DecklistError,
    DecklistLine,
    ListedCard,
    format_decklist,
    loose,
    parse_decklist,
)
from ..models import Deck
from ..rules import get_rules
from ..rules.base import DeckRules, Zone
from ..selectors import deck_entries

MAX_CANDIDATES = 5
# The problems a list's answer lists (the rest are counted): each costs a look for similar names.
MAX_REPORTED = 50


def _language(language: str | None) -> str:
    return language or get_language() or "ja"


def split_number(text: str) -> tuple[str, str]:
    """``("EB1-008", "居合い斬り")`` from ``EB1-008 居合い斬り``: the first word and the rest."""
    parts = text.split(None, 1)
    return (parts[0], parts[1].strip()) if len(parts) == 2 else (text, "")


class CardIndex:
    """The cards of one game, indexed by key, number and every name (folded), for resolving lines."""

    def __init__(self, game: Game, language: str | None = None) -> None:
        self.game = game
        self.language = _language(language)
        self.cards = list(Card.objects.filter(game=game).select_related("game").prefetch_related("texts"))
        self.exact: dict[str, dict[int, Card]] = defaultdict(dict)
        self.folded_ids: dict[str, dict[int, Card]] = defaultdict(dict)
        self.names: dict[str, dict[int, Card]] = defaultdict(dict)
        self.loose_names: dict[str, dict[int, Card]] = defaultdict(dict)
        self.numbers: dict[str, dict[int, Card]] = defaultdict(dict)
        self.card_names: dict[int, set[str]] = defaultdict(set)  # pk -> folded names and identifiers
        for card in self.cards:
            if card.number:
                self.numbers[fold(card.number)][card.pk] = card
            for identifier in filter(None, (card.key, card.number)):
                self.exact[identifier][card.pk] = card
                self.folded_ids[fold(identifier)][card.pk] = card
                self.card_names[card.pk].add(fold(identifier))
            for text in card.texts.all():
                if text.name:
                    self.names[fold(text.name)][card.pk] = card
                    if loose(text.name):
                        self.loose_names[loose(text.name)][card.pk] = card
                    self.card_names[card.pk].add(fold(text.name))

    def candidate(self, card: Card) -> Candidate:
        return Candidate(key=card.key, name=card.display_name(self.language), number=card.number)

    def _identified(self, text: str) -> list[Card]:
        return list((self.exact.get(text) or self.folded_ids.get(fold(text)) or {}).values())

    def _named(self, text: str) -> list[Card]:
        found = self.names.get(fold(text)) or (self.loose_names.get(loose(text)) if loose(text) else None)
        return list((found or {}).values())

    def _has_name(self, card: Card, name: str) -> bool:
        names = self.card_names[card.pk]
        return fold(name) in names or (bool(loose(name)) and loose(name) in {loose(n) for n in names})

    def lookup(self, text: str) -> tuple[list[Card], str]:
        """The cards ``text`` names, and how: "found", "number+name", "none", or "mismatch" (a number's card,
        with a name that is not one of its names)."""
        found = self._identified(text) or self._named(text)
        if found:
            return sorted(found, key=lambda card: card.sort_key), "found"
        number, name = split_number(text)
        if name:
            numbered = list(self.numbers.get(fold(number), {}).values())
            if len(numbered) == 1:
                card = numbered[0]
                return [card], ("number+name" if self._has_name(card, name) else "mismatch")
        return [], "none"

    def similar(self, text: str, limit: int = MAX_CANDIDATES) -> list[Card]:
        """Up to ``limit`` cards whose names contain ``text`` (or are contained in it), then the most similar."""
        wanted = fold(text)
        if not wanted:
            return []
        matcher = SequenceMatcher()
        matcher.set_seq2(wanted)  # the matcher caches what it knows of its second sequence
        scores: dict[int, float] = {}
        for card in self.cards:
            best = 0.0
            for name in self.card_names[card.pk]:
                matcher.set_seq1(name)
                contained = wanted in name or (len(name) >= 2 and name in wanted)
                if not contained and (matcher.real_quick_ratio() < 0.5 or matcher.quick_ratio() < 0.5):
                    continue  # upper bounds of ratio(): cannot reach the threshold
                best = max(best, matcher.ratio() + (1 if contained else 0))
            if best >= 0.5:
                scores[card.pk] = best
        by_pk = {card.pk: card for card in self.cards}
        ranked = sorted(scores, key=lambda pk: (-scores[pk], by_pk[pk].sort_key))
        return [by_pk[pk] for pk in ranked[:limit]]


def zone_takes(zone: Zone, card: Card) -> bool:
    """Whether the zone takes the card: any card if it names no kinds; a card of unknown kind may be one."""
    return not zone.kinds or card.checked.kind is None or card.checked.kind in zone.kinds


def default_zone(rules: DeckRules, card: Card) -> Zone | None:
    """Where a card listed before any heading goes (see the module's docstring)."""
    editable = [zone for zone in rules.zones if not zone.fixed]
    if card.checked.kind is None:
        return max(editable, key=lambda zone: (not zone.kinds, len(zone.kinds)), default=None)
    return next((zone for zone in editable if not zone.kinds or card.checked.kind in zone.kinds), None)


@dataclass
class Resolved:
    """A resolved list: the entries to write (zone, card, count) or the problems, in line order."""

    entries: list[tuple[str, Card, int]] = field(default_factory=list)
    errors: list[DecklistError] = field(default_factory=list)
    lines: list[tuple[DecklistLine, Card, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _resolve_line(
    line: DecklistLine, rules: DeckRules, index: CardIndex, suggest: bool = True
) -> tuple[Card, Zone | None] | DecklistError:
    cards, how = index.lookup(line.name)
    if how == "mismatch":
        card = cards[0]
        number, name = split_number(line.name)
        similar = [*index.similar(name), *index.similar(line.name)] if suggest else []
        others = {other.pk: other for other in similar if other != card}
        candidates = tuple(index.candidate(c) for c in [card, *others.values()][:MAX_CANDIDATES])
        params: dict[str, Any] = {"number": number, "name": name, "card": card.display_name(index.language)}
        return DecklistError(line.line, "number-mismatch", params, candidates)
    if not cards:
        candidates = tuple(index.candidate(card) for card in index.similar(line.name)) if suggest else ()
        return DecklistError(line.line, "unknown-card", {"name": line.name}, candidates)
    if len(cards) > 1:
        candidates = tuple(index.candidate(card) for card in cards)
        return DecklistError(line.line, "ambiguous", {"name": line.name}, candidates)
    card = cards[0]
    if line.zone_failed:
        return card, None
    name = card.display_name(index.language)
    if line.zone is not None:
        zone = rules.zone(line.zone)
        assert zone is not None  # the parser only gives zones of the game
        if not zone_takes(zone, card):
            suggested = default_zone(rules, card)
            params = {
                "card": name,
                "kind": card.checked.kind,
                "zone": zone.slug,
                "suggested": suggested and suggested.slug,
            }
            # The card is found: offering it as "did you mean" would refuse it and then suggest it (the import
            # page offers to move the line to the zone that takes it instead).
            return DecklistError(line.line, "wrong-zone", params)
        return card, zone
    zone = default_zone(rules, card)
    if zone is None:
        return DecklistError(line.line, "no-zone", {"card": name, "kind": card.checked.kind})
    return card, zone


def resolve_decklist(game: Game, text: str, language: str | None = None) -> Resolved:
    """Every line of ``text`` resolved to a card and zone of ``game``, or every problem found."""
    rules = get_rules(game.slug)
    parsed = parse_decklist(text, rules)
    index = CardIndex(game, language)
    result = Resolved(errors=list(parsed.errors))
    totals: dict[tuple[str, int], int] = defaultdict(int)
    for line in parsed.lines:
        outcome = _resolve_line(line, rules, index, suggest=len(result.errors) < MAX_REPORTED)
        if isinstance(outcome, DecklistError):
            result.errors.append(outcome)
            continue
        card, zone = outcome
        if zone is None:
            continue
        totals[(zone.slug, card.pk)] += line.count
        if totals[(zone.slug, card.pk)] > services.MAX_COPIES_PER_ENTRY:
            params = {"count": totals[(zone.slug, card.pk)], "maximum": services.MAX_COPIES_PER_ENTRY}
            result.errors.append(DecklistError(line.line, "count-too-large", params))
            continue
        result.entries.append((zone.slug, card, line.count))
        result.lines.append((line, card, zone.slug))
    if not parsed.lines and not result.errors:
        result.errors.append(DecklistError(None, "empty"))
    result.errors.sort(key=lambda error: error.line or 0)
    return result


def import_decklist(deck: Deck, text: str, language: str | None = None) -> Resolved:
    """Replace the deck's cards by the list's, if every line resolves; otherwise write nothing.

    The lines are resolved before anything is written, outside any transaction: a long list never
    holds the database's write lock while its cards are looked up.
    """
    resolved = resolve_decklist(deck.game, text, language)
    if resolved.ok:
        services.replace_entries(deck, resolved.entries)
    return resolved


def create_from_decklist(
    *, owner, game: Game, name: str, text: str, language: str | None = None, **deck_fields
) -> tuple[Deck | None, Resolved]:
    """A new deck holding the list's cards, if every line resolves; otherwise no deck, and the problems."""
    resolved = resolve_decklist(game, text, language)
    if not resolved.ok:
        return None, resolved
    deck = services.create_deck(owner=owner, game=game, name=name, entries=resolved.entries, **deck_fields)
    return deck, resolved


# --- export


def listed_cards(deck: Deck, language: str | None = None) -> dict[str, list[ListedCard]]:
    """The deck's entries per zone as a list writes them, each written so that it reads back as the same card.

    A card with a number is written as number and name; without one, by its name in
    ``language`` when that name finds only this card, else by its key (always unique).
    """
    language = _language(language)
    index = CardIndex(deck.game, language)
    zones: dict[str, list[ListedCard]] = defaultdict(list)
    for entry in deck_entries(deck):
        card = entry.card
        name = card.display_name(language)
        listed = ListedCard(entry.count, name, card.number)
        found, _how = index.lookup(listed.text)
        if [c.pk for c in found] != [card.pk]:
            listed = ListedCard(entry.count, card.key)
        zones[entry.zone].append(listed)
    return dict(zones)


def export_text(deck: Deck, language: str | None = None) -> str:
    language = _language(language)
    game = get_game(deck.game.slug).name(language)
    return format_decklist(
        get_rules(deck.game.slug), listed_cards(deck, language), language, title=[f"{deck.name} ({game})"]
    )


def export_data(deck: Deck, language: str | None = None) -> dict:
    """The deck as JSON data: game, name, mode, options, and per zone the cards (key, number, name, count)."""
    language = _language(language)
    rules = get_rules(deck.game.slug)
    zones: dict[str, list[dict]] = {zone.slug: [] for zone in rules.zones if not zone.fixed}
    for entry in deck_entries(deck):
        card = entry.card
        zones.setdefault(entry.zone, []).append(
            {"key": card.key, "number": card.number, "name": card.display_name(language), "count": entry.count}
        )
    return {
        "format": "cardsite-deck/1",
        "game": deck.game.slug,
        "name": deck.name,
        "description": deck.description,
        "mode": deck.mode,
        "options": dict(deck.options),
        "language": language,
        "zones": zones,
    }


# --- messages in the reader's language


def _zone_label(rules: DeckRules, slug: str | None, language: str) -> str:
    zone = rules.zone(slug) if slug else None
    return pick(zone.labels, language) if zone else (slug or "")


def _kind_label(game: str, kind: str | None) -> str:
    spec = get_game(game).kind(kind) if kind else None
    return spec.label(_language(None)) if spec else (kind or _("unknown"))


def describe(error: DecklistError, game: str) -> str:
    """The problem in the active language, without its line number (see ``describe_line``)."""
    language = _language(None)
    rules = get_rules(game)
    params = dict(error.params)
    code = error.code
    if code == "too-many-lines":
        return _("A list may have at most %(maximum)s card lines; this one has more.") % params
    if code == "bad-count":
        return _("“%(count)s” is not a number of copies.") % params
    if code == "zero-count":
        return _("A count of 0 adds nothing: leave the line out or write at least 1.")
    if code == "count-too-large":
        return _("At most %(maximum)s copies of a card in one zone (here %(count)s).") % params
    if code == "unknown-heading":
        separator = ", " if language == "en" else "、"
        zones = separator.join(pick(z.labels, language) for z in rules.zones if not z.fixed)
        return _("No zone called “%(heading)s” in this game. Zones: %(zones)s.") % {
            "heading": params["heading"],
            "zones": zones,
        }
    if code == "fixed-zone":
        return _("“%(heading)s” is fixed by the game: its cards are not part of a list.") % params
    if code == "unknown-card":
        return _("No card named “%(name)s”.") % params
    if code == "ambiguous":
        return _("“%(name)s” names several cards: write the number or the full name of one of them.") % params
    if code == "number-mismatch":
        return _("%(number)s is “%(card)s”, not “%(name)s”.") % params
    if code == "wrong-zone":
        message = _("%(card)s is a card of kind %(kind)s and cannot go in %(zone)s.") % {
            "card": params["card"],
            "kind": _kind_label(game, params.get("kind")),
            "zone": _zone_label(rules, params.get("zone"), language),
        }
        if params.get("suggested"):
            message += " " + _("It goes in %(zone)s.") % {"zone": _zone_label(rules, params["suggested"], language)}
        return message
    if code == "no-zone":
        return _("No zone of this game takes %(card)s (a card of kind %(kind)s).") % {
            "card": params["card"],
            "kind": _kind_label(game, params.get("kind")),
        }
    if code == "empty":
        return _("The list names no cards.")
    return error.message()


def describe_line(error: DecklistError, game: str) -> str:
    """``Line 7: No card named “X”.`` in the active language."""
    message = describe(error, game)
    if error.line is None:
        return message
    return _("Line %(line)s: %(message)s") % {"line": error.line, "message": message}


def problems(errors: Iterable[DecklistError], game: str) -> list[dict]:
    """The errors for a template or a JSON answer: line, code, message (active language), candidates."""
    return [
        {
            "line": error.line,
            "code": error.code,
            "message": describe(error, game),
            "text": describe_line(error, game),
            "candidates": list(error.candidates),
            "move_to": _move_to(error, game),
        }
        for error in errors
    ]


def _move_to(error: DecklistError, game: str) -> dict | None:
    """Where a card listed under the wrong zone goes (the import page offers to move its line there)."""
    suggested = error.params.get("suggested") if error.code == "wrong-zone" else None
    if not suggested or error.line is None:
        return None
    return {"zone": suggested, "label": _zone_label(get_rules(game), suggested, _language(None))}


def mended_text(game: Game, text: str, *, use: str = "", move: str = "", language: str | None = None) -> str:
    """``text`` with one line mended as the import page's buttons ask: ``use`` "LINE|KEY" puts the card KEY on
    line LINE (a "did you mean" taken), ``move`` "LINE|ZONE" moves line LINE under the zone's heading. A request
    that names no line of the text, or a card or zone the game lacks, leaves the text as it was."""
    rules = get_rules(game.slug)
    raw_line, _bar, target = (use or move).partition("|")
    if not raw_line.isascii() or not raw_line.isdigit() or len(raw_line) > 6:
        return text
    line = int(raw_line)
    if use:
        if not Card.objects.filter(game=game, key=target).exists():
            return text
        return decklist.replace_card(text, rules, line, target)
    zone = rules.zone(target)
    if zone is None or zone.fixed:
        return text
    return decklist.move_to_zone(text, rules, line, zone, _language(language))
