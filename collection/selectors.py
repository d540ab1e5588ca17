"""Reads of collections: what a user owns, the ``owned:`` search filter, a deck's want list and several decks
checked against one collection (RingsDB's fellowships).

A collection is its owner's alone: every function here takes the user whose collection it reads, and no page or
API view passes another user than the one asking.
"""

from __future__ import annotations

import operator as operator_module
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, QuerySet, Sum

from cards.models import Card, Game
from cards.search import ast
from cards.search.idsets import IdSet
from cards.search.normalize import fold
from cardsite.types import SiteUser, signed_in
from decks.models import Deck, DeckEntry

from .models import MAX_OWNED, OwnedCard


def owned_rows(user: SiteUser, game: Game) -> QuerySet[OwnedCard]:
    """The user's cards of ``game``, in the game's order, with the cards and their texts."""
    user = signed_in(user)
    return (
        OwnedCard.objects.filter(owner=user, card__game=game, count__gte=1)
        .select_related("card", "card__game")
        .prefetch_related("card__texts")
        .order_by("card__sort_key", "card_id")
    )


def owned_counts(
    user: SiteUser | None, cards: Iterable[Card | int] | None = None, game: Game | None = None
) -> dict[int, int]:
    """Card id -> copies the user owns (only cards owned at least once), of ``cards`` or of ``game``."""
    if user is None or not user.is_authenticated:
        return {}
    rows = OwnedCard.objects.filter(owner=user, count__gte=1)
    if cards is not None:
        rows = rows.filter(card_id__in=[card if isinstance(card, int) else card.pk for card in cards])
    if game is not None:
        rows = rows.filter(card__game=game)
    return dict(rows.values_list("card_id", "count"))


def owned_count(user: SiteUser | None, card: Card) -> int:
    return owned_counts(user, [card]).get(card.pk, 0)


def game_summary(user: SiteUser, game: Game) -> dict[str, int]:
    """How many different cards of ``game`` the user owns, and how many copies in all."""
    user = signed_in(user)
    totals = OwnedCard.objects.filter(owner=user, card__game=game, count__gte=1).aggregate(
        cards=Count("id"), copies=Sum("count")
    )
    return {"cards": totals["cards"] or 0, "copies": totals["copies"] or 0}


def summaries(user: SiteUser) -> list[tuple[Game, dict[str, int]]]:
    """Every game with what the user owns of it (games they own nothing of too, with zeros)."""
    user = signed_in(user)
    rows = (
        OwnedCard.objects.filter(owner=user, count__gte=1)
        .values("card__game")
        .annotate(cards=Count("id"), copies=Sum("count"))
    )
    by_game = {row["card__game"]: {"cards": row["cards"], "copies": row["copies"]} for row in rows}
    return [(game, by_game.get(game.pk, {"cards": 0, "copies": 0})) for game in Game.objects.all()]


def owned_card_ids(user: SiteUser) -> QuerySet[OwnedCard, Any]:
    """The ids of the cards the user owns (a subquery: ``cards.filter(pk__in=owned_card_ids(user))``); none for
    the anonymous user."""
    if not user.is_authenticated:
        return OwnedCard.objects.none().values("card_id")
    return OwnedCard.objects.filter(owner=user, count__gte=1).values("card_id")


# --- owned: in the search language

_YES = {"yes", "true", "y"}
_NO = {"no", "false", "n", "none"}
_COMPARE = {
    ast.Operator.COLON: (operator_module.eq, "count"),
    ast.Operator.EQ: (operator_module.eq, "count"),
    ast.Operator.NE: (operator_module.ne, None),
    ast.Operator.LT: (operator_module.lt, "count__lt"),
    ast.Operator.LE: (operator_module.le, "count__lte"),
    ast.Operator.GT: (operator_module.gt, "count__gt"),
    ast.Operator.GE: (operator_module.ge, "count__gte"),
}


def owned_filter(user: SiteUser, node: ast.FieldFilter) -> IdSet:
    """The cards ``owned:VALUE`` finds for ``user``: ``owned:yes`` (at least one copy), ``owned:no``, or a number of
    copies compared (``owned>=3``, ``owned<2``, ``owned=0``); a card not in the collection is owned 0 times.
    ``-owned:yes`` is the cards the user does not own."""
    user = signed_in(user)
    value = fold(node.value).strip()
    rows = OwnedCard.objects.filter(owner=user, count__gte=1)
    if value in _YES | _NO and not node.regex:
        if node.operator not in (ast.Operator.COLON, ast.Operator.EQ, ast.Operator.NE):
            raise ast.QuerySyntaxError("owned_value", node.span[0], value=node.value)
        owned = IdSet.of(rows, "card_id", distinct=True)
        wanted = (value in _YES) != (node.operator == ast.Operator.NE)
        return owned if wanted else ~owned
    try:
        number = int(value)
    except ValueError:
        raise ast.QuerySyntaxError("owned_value", node.span[0], value=node.value) from None
    if node.regex:
        raise ast.QuerySyntaxError("owned_value", node.span[0], value=node.value)
    number = max(-1, min(number, MAX_OWNED + 1))  # the same answers; never a number too large for a column
    compare, lookup = _COMPARE[node.operator]
    if node.operator == ast.Operator.NE:
        matching, failing = rows.exclude(count=number), rows.filter(count=number)
    else:
        assert lookup is not None  # only != has none, and is answered above
        matching, failing = rows.filter(**{lookup: number}), rows.exclude(**{lookup: number})
    if compare(0, number):
        # Cards not in the collection (0 copies) match: every card but the owned ones that do not.
        return ~IdSet.of(failing, "card_id", distinct=True)
    return IdSet.of(matching, "card_id", distinct=True)


# --- what decks need


@dataclass
class Need:
    """One card as decks need it: copies per deck (in the order of the decks asked about), in all, and owned."""

    card: Card
    owned: int
    per_deck: list[int] = field(default_factory=list)

    @property
    def needed(self) -> int:
        return sum(self.per_deck)

    @property
    def short(self) -> int:
        """Copies missing to build every deck at once."""
        return max(0, self.needed - self.owned)

    @property
    def most(self) -> int:
        return max(self.per_deck, default=0)

    @property
    def stretched(self) -> bool:
        """Enough copies for each deck alone, too few for all of them at once: copies have to move between decks."""
        return self.short > 0 and self.most <= self.owned


@dataclass
class NeedReport:
    decks: list[Deck]
    needs: list[Need]

    @property
    def missing(self) -> list[Need]:
        return [need for need in self.needs if need.short]

    @property
    def copies_short(self) -> int:
        return sum(need.short for need in self.needs)

    @property
    def copies_needed(self) -> int:
        return sum(need.needed for need in self.needs)

    @property
    def stretched(self) -> list[Need]:
        return [need for need in self.needs if need.stretched]


def needs(user: SiteUser, decks: Sequence[Deck]) -> NeedReport:
    """Every card of ``decks`` (all of one game): copies each deck needs (every zone a deck is built of, the game's
    fixed zones left out), in all, and owned by ``user``. Two queries, however many decks and cards."""
    decks = list(decks)
    position = {deck.pk: index for index, deck in enumerate(decks)}
    entries = (
        DeckEntry.objects.filter(deck__in=decks)
        .select_related("card", "card__game")
        .prefetch_related("card__texts")
        .order_by("card__sort_key", "card_id")
    )
    per_card: dict[int, list[int]] = defaultdict(lambda: [0] * len(decks))
    cards: dict[int, Card] = {}
    for entry in entries:
        cards[entry.card_id] = entry.card
        per_card[entry.card_id][position[entry.deck_id]] += entry.count
    owned = owned_counts(user, list(cards))
    found = [Need(card=cards[pk], owned=owned.get(pk, 0), per_deck=per_card[pk]) for pk in cards]
    return NeedReport(decks=decks, needs=found)
