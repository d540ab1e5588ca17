"""Writes to the card database. Every write of cards goes through here."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import transaction

from cardsite import pagecache

from .gamedefs import all_games
from .importing import CardBundle, CardRecord, ImportProblem, RuleRecord, TermRecord, parse_file
from .models import Card, CardText, Game, RuleSection, RuleText, Term, TermText
from .search.indexing import index_cards


class ImportRejected(Exception):
    """A file had problems; nothing was written."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = problems


@dataclass(frozen=True)
class ImportSummary:
    game: str
    created: int
    updated: int
    terms: int
    rule_sections: int


def card_sort_key(number: str | None, key: str) -> str:
    """Printed numbers in natural order (EB1-9 before EB1-10), then unnumbered cards by key."""
    if number:
        return "0" + re.sub(r"\d+", lambda match: match.group().zfill(6), number)
    return "1" + key


def sync_games() -> list[Game]:
    """Make sure every registered game has its row."""
    games = []
    for definition in all_games():
        game, _ = Game.objects.update_or_create(slug=definition.slug, defaults={"sort_order": definition.sort_order})
        games.append(game)
    return games


def _replace_texts(owner_field: str, owner, model, texts: dict[str, dict[str, str]]) -> None:
    model.objects.filter(**{owner_field: owner}).exclude(language__in=texts).delete()
    for language, parts in texts.items():
        model.objects.update_or_create(**{owner_field: owner, "language": language}, defaults=parts)


def _write_card(game: Game, record: CardRecord) -> bool:
    card, created = Card.objects.update_or_create(
        game=game,
        key=record.key,
        defaults={
            "number": record.number,
            "kind": record.kind,
            "fields": record.fields,
            "source": record.source,
            "sort_key": card_sort_key(record.number, record.key),
        },
    )
    _replace_texts("card", card, CardText, record.texts)
    return created


def _write_terms(game: Game, terms: list[TermRecord]) -> None:
    for position, record in enumerate(terms):
        term, _ = Term.objects.update_or_create(
            game=game, key=record.key, defaults={"category": record.category, "sort_order": position}
        )
        _replace_texts("term", term, TermText, record.texts)


def _write_rules(game: Game, rules: list[RuleRecord]) -> None:
    RuleSection.objects.filter(game=game).delete()
    for record in rules:
        section = RuleSection.objects.create(game=game, key=record.key, order=record.order)
        RuleText.objects.bulk_create(
            RuleText(section=section, language=language, **parts) for language, parts in record.texts.items()
        )


@transaction.atomic
def import_bundle(bundle: CardBundle) -> ImportSummary:
    """Write a checked bundle: cards are matched by game and key and replaced whole.

    Terms present in the bundle are replaced by key; when the bundle has rules,
    they replace the game's rules. Cards, terms and rules the bundle does not
    name are left alone.
    """
    sync_games()
    game = Game.objects.get(slug=bundle.game)
    created = sum(_write_card(game, record) for record in bundle.cards)
    index_cards(
        Card.objects.filter(game=game, key__in=[record.key for record in bundle.cards]).values_list("pk", flat=True)
    )
    if bundle.terms:
        _write_terms(game, bundle.terms)
    if bundle.rules:
        _write_rules(game, bundle.rules)
    pagecache.bump("cards")  # bulk writes send no model signals
    return ImportSummary(
        game=bundle.game,
        created=created,
        updated=len(bundle.cards) - created,
        terms=len(bundle.terms),
        rule_sections=len(bundle.rules),
    )


def import_files(paths: list[str]) -> list[ImportSummary]:
    """Check every file first; write all of them in one transaction, or none."""
    bundles: list[CardBundle] = []
    problems: list[ImportProblem] = []
    for path in paths:
        bundle, file_problems = parse_file(path)
        problems.extend(file_problems)
        if bundle is not None:
            bundles.append(bundle)
    if problems:
        raise ImportRejected(problems)
    with transaction.atomic():
        return [import_bundle(bundle) for bundle in bundles]


def reindex_card(card: Card) -> None:
    """Bring one card's search index and list order up to date after an edit (e.g. in the admin)."""
    Card.objects.filter(pk=card.pk).update(sort_key=card_sort_key(card.number, card.key))
    index_cards([card.pk])
    pagecache.bump("cards")


def reindex_all_cards() -> int:
    """Rebuild every card's search document and field values; returns how many cards."""
    count = index_cards()
    pagecache.bump("cards")
    return count
