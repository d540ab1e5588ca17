"""Reads of the card database for pages, the API and exports."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet

from .importing import CardBundle, CardRecord, RuleRecord, TermRecord
from .models import Card, CardText, Game, RuleSection, Term


def _texts(rows, parts: tuple[str, ...]) -> dict[str, dict[str, str]]:
    return {row.language: {part: getattr(row, part) for part in parts if getattr(row, part)} for row in rows}


def games_with_counts() -> QuerySet[Game]:
    return Game.objects.annotate(
        card_count=Count("cards", distinct=True),
        translated_count=Count(
            "cards",
            filter=Q(cards__texts__language="zh-hant"),
            distinct=True,
        ),
    )


def cards_of_game(game: Game, kind: str | None = None) -> QuerySet[Card]:
    cards = Card.objects.filter(game=game).select_related("game").prefetch_related("texts")
    if kind == "unknown":
        cards = cards.filter(kind__isnull=True)
    elif kind:
        cards = cards.filter(kind=kind)
    return cards.order_by("sort_key")


def card_detail(game: Game, key: str) -> Card:
    return Card.objects.select_related("game").prefetch_related("texts").get(game=game, key=key)


@dataclass(frozen=True)
class Neighbours:
    previous: Card | None
    next: Card | None


def card_neighbours(card: Card) -> Neighbours:
    siblings = Card.objects.filter(game=card.game)
    previous = siblings.filter(sort_key__lt=card.sort_key).order_by("-sort_key").first()
    following = siblings.filter(sort_key__gt=card.sort_key).order_by("sort_key").first()
    return Neighbours(previous, following)


def glossary(game: Game) -> QuerySet[Term]:
    return Term.objects.filter(game=game).prefetch_related("texts").order_by("category", "sort_order")


def rule_sections(game: Game) -> QuerySet[RuleSection]:
    return RuleSection.objects.filter(game=game).prefetch_related("texts").order_by("order", "id")


def export_bundle(game: Game) -> CardBundle:
    """Everything stored for a game, as the bundle ``import_bundle`` would write."""
    bundle = CardBundle(game=game.slug)
    cards = Card.objects.filter(game=game).prefetch_related(
        Prefetch("texts", queryset=CardText.objects.order_by("language"))
    )
    for card in cards.order_by("sort_key"):
        bundle.cards.append(
            CardRecord(
                key=card.key,
                number=card.number,
                kind=card.kind,
                fields=dict(card.fields),
                texts=_texts(card.texts.all(), ("name", "text", "notes", "source")),
                source=card.source,
            )
        )
    for term in glossary(game).order_by("sort_order"):
        bundle.terms.append(
            TermRecord(key=term.key, category=term.category, texts=_texts(term.texts.all(), ("name", "text", "source")))
        )
    for section in rule_sections(game):
        bundle.rules.append(
            RuleRecord(
                key=section.key, order=section.order, texts=_texts(section.texts.all(), ("title", "body", "source"))
            )
        )
    return bundle
