"""Reads of what is missing of a game: its cards' gaps counted in a few aggregate queries whatever its size,
its stale translations, a card's completeness, and the map of what is missing that the page and the API show."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, FilteredRelation, Q

from ..gamedefs.base import ChoiceListType, Completeness
from ..models import Card, CardFieldValue, CardText, Game


@dataclass(frozen=True)
class GameGaps:
    """What a game's cards lack, counted (``game_gaps``); the map of what is missing reads it.

    ``known_values`` counts, per (kind, field), the cards of that kind whose value is known; ``texts`` the
    cards with a text per language. A stored kind the game does not declare counts as unknown (None).
    """

    cards: int
    by_kind: dict[str | None, int]
    known_values: dict[tuple[str | None, str], int]
    texts: dict[str, int]
    incomplete: int
    numbers_seen: frozenset[str]  # the game's cards' numbers within its declared runs of numbers
    stale: StaleTranslations = field(default_factory=lambda: StaleTranslations({}, ()))

    def unknown(self, kind: str | None, field_name: str) -> int:
        return self.by_kind.get(kind, 0) - self.known_values.get((kind, field_name), 0)

    def known(self, kinds: tuple[str, ...], field_name: str) -> tuple[int, int]:
        """(cards with a known ``field_name``, cards) over ``kinds``."""
        return (
            sum(self.known_values.get((kind, field_name), 0) for kind in kinds),
            sum(self.by_kind.get(kind, 0) for kind in kinds),
        )


def game_gaps(game: Game) -> GameGaps:
    """A game's gaps in a few aggregate queries, whatever its size (no query per card).

    Known values are counted from the field values the search keeps (one row per valid value,
    ``cards.search.indexing``), so "unknown" means here what it means on the card page: absent or invalid.
    """
    from ..search.backends import count_matching
    from ..search.idsets import facet_matches, intersect
    from ..search.tokens import INCOMPLETE

    definition = game.definition
    declared = {kind.slug for kind in definition.kinds}
    by_kind: dict[str | None, int] = {}
    for kind, count in Card.objects.filter(game=game).order_by().values_list("kind").annotate(Count("id")):
        key = kind if kind in declared else None
        by_kind[key] = by_kind.get(key, 0) + count
    known_values: dict[tuple[str | None, str], int] = {}
    # A card has one row per value: one for most fields, so its rows are counted as they are; a list
    # (ChoiceListType) has a row per item, so its cards are counted distinct, apart (a sort of those rows only).
    lists = [spec.name for spec in definition.fields if isinstance(spec.type, ChoiceListType)]
    values = CardFieldValue.objects.filter(card__game=game).order_by().values_list("card__kind", "field")
    counted = [
        *values.exclude(field__in=lists).annotate(Count("id")),
        *values.filter(field__in=lists).annotate(Count("card_id", distinct=True)),
    ]
    for kind, field_name, count in counted:
        key = (kind if kind in declared else None, field_name)
        known_values[key] = known_values.get(key, 0) + count
    texts = dict(
        CardText.objects.filter(card__game=game)
        .order_by()
        .values_list("language")
        .annotate(Count("card_id", distinct=True))
    )
    stale = stale_translations(game)
    incomplete_ids = intersect([facet_matches("game", [game.slug]), facet_matches("is", [INCOMPLETE])], [])
    numbers_seen: set[str] = set()
    for numbers in definition.number_ranges:
        seen = Card.objects.filter(game=game, number__startswith=numbers.prefix).values_list("number", flat=True)
        numbers_seen.update(seen)
    return GameGaps(
        cards=sum(by_kind.values()),
        by_kind=by_kind,
        known_values=known_values,
        texts=texts,
        incomplete=count_matching(incomplete_ids.expression),
        numbers_seen=frozenset(numbers_seen),
        stale=stale,
    )


@dataclass(frozen=True)
class StaleTranslation:
    """A translation whose original changed since it was made."""

    key: str
    number: str | None
    language: str
    track: str | None  # the name of its translation track (None: a text no track claims)
    main: bool  # the card's main text in its language, or another track's


@dataclass(frozen=True)
class StaleTranslations:
    counts: dict[str, int]  # by language
    listed: tuple[StaleTranslation, ...]  # the first ``STALE_LISTED``, in card order


STALE_LISTED = 200


def stale_translations(game: Game) -> StaleTranslations:
    """The game's translations whose original text changed since they were made (``cards.revisions.is_stale``),
    counted by language, the first ones listed: two queries, whatever the size of the game."""
    original = game.definition.original_language
    # A join with the card's original text (one index probe per text), not a subquery per text; "differs"
    # is spelled < or >, since a negated condition on a joined relation becomes a subquery per row again.
    stale = (
        CardText.objects.filter(card__game=game, pinned_revision__isnull=False)
        .exclude(language=original)
        .annotate(
            original_text=FilteredRelation(
                "card__texts", condition=Q(card__texts__language=original, card__texts__track__isnull=True)
            )
        )
        .filter(
            Q(original_text__pinned_revision__lt=F("pinned_revision"))
            | Q(original_text__pinned_revision__gt=F("pinned_revision"))
        )
    )
    counts = dict(stale.order_by().values_list("language").annotate(Count("id")))
    if not counts:
        return StaleTranslations({}, ())
    rows = stale.order_by("card__sort_key", "language", F("track_id").asc(nulls_first=True)).values_list(
        "card__key", "card__number", "language", "track__name", "track__main"
    )[:STALE_LISTED]
    listed = tuple(
        StaleTranslation(key, number, language, track, track is None or bool(main))
        for key, number, language, track, main in rows
    )
    return StaleTranslations(counts, listed)


def card_completeness(card: Card) -> Completeness:
    """Which of the values its game declares for the card are known, and which of its languages lack a text."""
    return card.game.definition.completeness(card.checked, [text.language for text in card.texts.all()])


def missing_map(game: Game) -> Any:
    """The map of what is missing of ``game`` (``cardsite.missing.MissingMap``), from its declarations (cards, deck
    rules, goldfish, and the whole game where it has one)."""
    from cardsite.missing import build_map

    from ..extensions import missing_part  # the apps that declare them register the parts (cards.extensions)

    slug = game.slug
    return build_map(
        game.definition,
        missing_part("rules", slug),
        missing_part("engine", slug),
        game_gaps(game),
        missing_part("fullgame", slug),
    )
