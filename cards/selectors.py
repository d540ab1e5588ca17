"""Reads of the card database for pages, the API and exports."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.core.paginator import Paginator
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import BooleanField, Count, Model, Prefetch, Q, QuerySet
from django.db.models.base import ModelState
from django.db.models.expressions import RawSQL

from cardsite.db import id_in, prepared_cursor
from cardsite.types import SiteUser

from .importing import CardBundle, CardRecord, RuleRecord, TermRecord, TrackRecord
from .models import Card, CardText, Game, RuleSection, Term, TrackPreference, TranslationTrack
from .search.backends import CardRows


def _texts(rows, parts: tuple[str, ...]) -> dict[str, dict[str, str]]:
    return {row.language: {part: getattr(row, part) for part in parts if getattr(row, part)} for row in rows}


def games_with_counts() -> QuerySet[Game]:
    # order_by again: Django drops Meta.ordering from aggregate queries.
    return Game.objects.order_by("sort_order", "slug").annotate(
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


def card_counts_by_kind(game: Game) -> dict[str | None, int]:
    """How many cards of each kind the game's database holds (None: of unknown kind)."""
    rows = Card.objects.filter(game=game).values("kind").annotate(count=Count("pk")).order_by()
    return {row["kind"]: row["count"] for row in rows}


def card_keys(game: Game) -> list[str]:
    """The keys of the game's cards in card order."""
    return list(Card.objects.filter(game=game).order_by("sort_key").values_list("key", flat=True))


def keys_by_number(game: Game) -> dict[str, str]:
    """The key of each of the game's numbered cards, by its printed number (the first entered, should two share
    one): a sheet's correction row may name a card by its number alone."""
    keys: dict[str, str] = {}
    for number, key in Card.objects.filter(game=game, number__isnull=False).order_by("pk").values_list("number", "key"):
        keys.setdefault(number, key)
    return keys


def card_by_number(game: Game, number: str) -> Card | None:
    """The card printed with ``number`` in ``game`` (the first one entered, should two share it), or None."""
    return Card.objects.filter(game=game, number=number).order_by("pk").first()


@dataclass(frozen=True)
class Neighbours:
    previous: Card | None
    next: Card | None


def card_neighbours(card: Card) -> Neighbours:
    siblings = Card.objects.filter(game=card.game)
    previous = siblings.filter(sort_key__lt=card.sort_key).order_by("-sort_key").first()
    following = siblings.filter(sort_key__gt=card.sort_key).order_by("sort_key").first()
    return Neighbours(previous, following)


# --- translation tracks ----------------------------------------------------------------------------------

TRACK_COOKIE = "tracks"


def tracks_of(game: Game, language: str | None = None) -> QuerySet[TranslationTrack]:
    """The game's translation tracks (of ``language``), main tracks first, then oldest first."""
    tracks = TranslationTrack.objects.filter(game=game)
    return tracks.filter(language=language) if language else tracks


def cookie_tracks(cookie: str) -> list[int]:
    """The track ids a reader's cookie holds (``TRACK_COOKIE``: ids joined by "."); anything else is ignored."""
    return [int(part) for part in cookie.split(".")[:50] if part.isdigit() and len(part) < 19]


def preferred_tracks(user: SiteUser, cookie: str, game: Game) -> dict[str, int]:
    """The translation track the reader chose for each language of ``game``: kept in the database for a signed-in
    reader, in a cookie (``TRACK_COOKIE``) for others. A language without a choice shows its main text."""
    if user is not None and user.is_authenticated:
        return dict(TrackPreference.objects.filter(user=user, game=game).values_list("language", "track_id"))
    ids = cookie_tracks(cookie)
    if not ids:
        return {}
    return dict(tracks_of(game).filter(pk__in=ids).values_list("language", "pk"))


def glossary(game: Game) -> QuerySet[Term]:
    return Term.objects.filter(game=game).prefetch_related("texts").order_by("category", "sort_order")


def rule_sections(game: Game) -> QuerySet[RuleSection]:
    return RuleSection.objects.filter(game=game).prefetch_related("texts").order_by("order", "id")


def export_bundle(game: Game) -> CardBundle:
    """Everything stored for a game, as the bundle ``import_bundle`` would write."""
    bundle = CardBundle(game=game.slug)
    bundle.tracks = [
        TrackRecord(language=t.language, name=t.name, credits=t.credits, status=t.status, main=t.main)
        for t in tracks_of(game)
    ]
    cards = Card.objects.filter(game=game).prefetch_related(
        Prefetch("texts", queryset=CardText.objects.order_by("language"))
    )
    parts = ("name", "text", "notes", "source")
    for card in cards.order_by("sort_key"):
        translations: dict[str, dict[str, dict[str, str]]] = {}
        for text in card.texts.all():
            if not text.is_main:
                translations.setdefault(text.language, {})[text.track.name] = _texts([text], parts)[text.language]
        bundle.cards.append(
            CardRecord(
                key=card.key,
                number=card.number,
                kind=card.kind,
                fields=dict(card.fields),
                texts=_texts([text for text in card.texts.all() if text.is_main], parts),
                source=card.source,
                translations=translations,
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


@dataclass
class SearchOutcome:
    """The cards a query finds, or the error that points into the query (``cards.search.selectors``)."""

    query: str
    cards: QuerySet[Card] | None = None
    ordered_cards: QuerySet[Card] | None = None  # every card, in the search's order
    ids: Any = None  # the matching ids (cards.search.idsets.IdSet), for counting without the cards table
    error: str | None = None
    error_position: int | None = None
    error_code: str | None = None  # what is wrong with the query (a code of ``cards.search.messages``)
    error_params: dict[str, Any] = field(default_factory=dict)  # what its message names
    also_searched: list[str] = field(default_factory=list)
    highlight_terms: list[str] = field(default_factory=list)
    order: str = "number"
    descending: bool = False


def query_error_message(error: Any) -> str:
    """A query's syntax error in the active language (``cards.search.messages`` has every code)."""
    from django.utils.translation import gettext

    from cardsite.errors import render

    from .search.messages import MESSAGES

    return render(gettext(MESSAGES[error.code]), error.params)


def count_matches(outcome: SearchOutcome) -> int:
    """How many cards a search found, counted on the id sets alone."""
    from .search.backends import count_matching

    if outcome.ids is None or outcome.ids.everything:
        return Card.objects.count()
    if outcome.ids.expression is not None:
        return count_matching(outcome.ids.expression)
    with connection.cursor() as cursor:
        counted = "*" if outcome.ids.distinct else "DISTINCT match_id"
        cursor.execute(f"SELECT COUNT({counted}) FROM ({outcome.ids.sql}) AS matched", outcome.ids.params)
        return cursor.fetchone()[0]


class _RowReader:
    """Instances of ``model`` from its columns in a row, every field loaded, converted as the ORM would.

    For the hot path of a results page: instances are made without ``Model.__init__``
    (whose per-field work is most of the page's Python time), so they send no
    pre_init/post_init signals; nothing in this project listens for those on cards.
    A reader belongs to one database connection (``_page_readers``): its converters are that
    connection's, and it is made once per connection and thread rather than once per page.
    """

    def __init__(self, model: type[Model], alias: str, database: Any) -> None:
        self.model = model
        self.database = database
        fields = model._meta.concrete_fields
        self.converters = []
        for index, model_field in enumerate(fields):
            column = model_field.get_col(alias)
            functions = [*database.ops.get_db_converters(column), *column.get_db_converters(database)]
            if functions:
                self.converters.append((index, functions, column))
        quoted = database.ops.quote_name
        self.columns = ", ".join(f"{quoted(alias)}.{quoted(model_field.column)}" for model_field in fields)
        self.names = [model_field.attname for model_field in fields]
        self.width = len(fields)

    def read(self, values: Any) -> Any:
        if self.converters:
            values = list(values)
            database = self.database
            for index, functions, column in self.converters:
                for function in functions:
                    values[index] = function(values[index], column, database)
        instance = self.model.__new__(self.model)
        instance.__dict__.update(zip(self.names, values, strict=True))
        state = instance._state = ModelState()
        state.adding = False
        state.db = self.database.alias
        return instance


@dataclass(frozen=True)
class _PageReaders:
    database: Any  # the connection they read from
    card: _RowReader
    game: _RowReader
    text: _RowReader
    track: _RowReader
    select: str  # the page's statement, without its condition on the cards' ids
    # Each card's rows as ``select`` gives them, for reading them with the page (``backends.count_page_and_rows``)
    card_rows: CardRows


# A card's texts in the ORM's order (``CardText.Meta.ordering``): the language's own text before its tracks'.
_TEXTS_ORDER = "t.language, t.track_id NULLS FIRST"

# The readers of this thread's connection (Django's connections are per thread). Kept with the thread, not
# in a table keyed by connection: the readers refer to their connection, so such a table would keep every
# thread's connection alive after the thread ended.
_this_thread = threading.local()


def _page_readers() -> _PageReaders:
    database = connections[DEFAULT_DB_ALIAS]
    readers: _PageReaders | None = getattr(_this_thread, "page_readers", None)
    if readers is None or readers.database is not database:
        card, game, text, track = (
            _RowReader(model, alias, database)
            for model, alias in ((Card, "c"), (Game, "g"), (CardText, "t"), (TranslationTrack, "tr"))
        )
        columns = f"{card.columns}, {game.columns}, {text.columns}, {track.columns}"
        tables = (
            "cards_card AS c JOIN cards_game AS g ON g.id = c.game_id LEFT JOIN cards_cardtext AS t ON t.card_id = c.id"
            " LEFT JOIN cards_translationtrack AS tr ON tr.id = t.track_id"
        )
        card_rows = CardRows(columns, tables, "c.id", _TEXTS_ORDER)
        select = f"SELECT {columns} FROM {tables}"
        readers = _this_thread.page_readers = _PageReaders(database, card, game, text, track, select, card_rows)
    return readers


def cards_in_order(ids: list[int]) -> list[Card]:
    """The cards with ``ids``, in that order, with their game and texts, in one query.

    A page of results is read this way rather than with ``select_related`` and
    ``prefetch_related``: building those queries and their per-card bookkeeping
    costs several times what the database takes to answer them, and on a database
    server each of their three queries is a round trip.
    """
    if not ids:
        return []
    readers = _page_readers()
    wanted, params = id_in("c.id", ids)
    # Prepared: planning this join costs about as much as running it (cardsite.db.prepared_cursor).
    with prepared_cursor() as cursor:
        cursor.execute(f"{readers.select} WHERE {wanted} ORDER BY c.id, {_TEXTS_ORDER}", params)
        rows = cursor.fetchall()
    of_card: dict[int, list[tuple]] = {}
    for row in rows:
        of_card.setdefault(row[0], []).append(row)
    return _cards_from_rows(readers, ids, of_card)


def _cards_from_rows(readers: _PageReaders, ids: list[int], of_card: dict[int, list[tuple]]) -> list[Card]:
    """The cards with ``ids`` that have rows in ``of_card`` (by card id, as ``readers.select`` gives them)."""
    card_reader, game_reader, text_reader, track_reader = readers.card, readers.game, readers.text, readers.track
    text_start = card_reader.width + game_reader.width
    track_start = text_start + text_reader.width
    games: dict[int, Game] = {}
    cards: list[Card] = []
    for card_id in ids:
        rows = of_card.get(card_id)
        if not rows:
            continue
        first = rows[0]
        card = card_reader.read(first[: card_reader.width])
        game_id = first[card_reader.width]
        game = games.get(game_id)
        if game is None:
            game = games[game_id] = game_reader.read(first[card_reader.width : text_start])
        # what select_related("game") leaves: card.game reads no more
        card._state.fields_cache["game"] = game
        texts = []
        for row in rows:
            if row[text_start] is not None:  # the card has texts (a LEFT JOIN gives NULLs when none)
                text = text_reader.read(row[text_start:track_start])
                # its track as select_related would leave it (None: no track), so telling main texts costs no query
                text._state.fields_cache["track"] = (
                    track_reader.read(row[track_start:]) if row[track_start] is not None else None
                )
                texts.append(text)
        prefetched = QuerySet(CardText)
        prefetched._result_cache = texts
        prefetched._prefetch_done = True
        # What prefetch_related("texts") leaves behind: card.texts.all() reads no more.
        card._prefetched_objects_cache = {"texts": prefetched}
        cards.append(card)
    return cards


def count_and_page_of_cards(
    expression: Any, offset: int, limit: int, descending: bool
) -> tuple[int, list[int], list[Card] | None]:
    """How many cards match the index ``expression``, the page's card ids, and where the database read them in
    the same statement, the page's cards as ``cards_in_order`` gives them (else None)."""
    from .search.backends import count_page_and_rows

    readers = _page_readers()
    matches, ids, of_card = count_page_and_rows(expression, offset, limit, descending, readers.card_rows)
    return matches, ids, None if of_card is None else _cards_from_rows(readers, ids, of_card)


# Past the end of any results: far beyond every card, within a signed 64-bit integer (SQLite's and PostgreSQL's).
_FARTHEST_OFFSET = 2**62


class SearchPaginator(Paginator):
    """Pages of search results whose total comes from ``count_matches``.

    A query the text index answers alone, in number order, reads its page straight
    from the index (``backends.page_matching``); others page ``outcome.cards``.
    """

    def __init__(self, outcome: SearchOutcome, per_page: int) -> None:
        super().__init__(outcome.cards, per_page)
        self.outcome = outcome
        # (page number, its card ids, its cards when they were read with them)
        self._prefetched: tuple[int, list[int], list[Card] | None] | None = None

    @cached_property
    def count(self) -> int:
        return count_matches(self.outcome)

    def _reads_index(self) -> bool:
        ids = self.outcome.ids
        return ids is not None and ids.expression is not None and self.outcome.order == "number"

    def _count_with_page(self, number: Any) -> None:
        """Count together with the page the reader asked for (one round trip on a database server)."""
        if not self._reads_index() or "count" in self.__dict__:
            return
        try:
            wanted = max(1, int(number))
        except (TypeError, ValueError):
            wanted = 1
        outcome = self.outcome
        # A page past any count reads no cards: its offset is kept within the database's integers, so that the
        # page is "past the end" (the last page, or the API's 404) rather than a number the database refuses.
        offset = min((wanted - 1) * self.per_page, _FARTHEST_OFFSET)
        count, page_ids, cards = count_and_page_of_cards(
            outcome.ids.expression, offset, self.per_page, outcome.descending
        )
        self.__dict__["count"] = count
        self._prefetched = (wanted, page_ids, cards)

    def get_page(self, number):
        self._count_with_page(number)
        return super().get_page(number)

    def page(self, number):
        from .search.backends import page_matching, walk_in_order

        self._count_with_page(number)
        outcome = self.outcome
        ids = outcome.ids
        if self._reads_index():
            number = self.validate_number(number)
            offset = (number - 1) * self.per_page
            prefetched = self._prefetched
            if prefetched is not None and prefetched[0] == number:
                _number, page_ids, cards_read = prefetched
                if cards_read is not None:
                    return self._get_page(cards_read, number, self)
            else:
                page_ids = page_matching(ids.expression, offset, self.per_page, outcome.descending, self.count)
            return self._get_page(cards_in_order(page_ids), number, self)
        number = self.validate_number(number)
        offset = (number - 1) * self.per_page
        cards = self.object_list
        if (
            ids is not None
            and not ids.everything
            and outcome.order == "number"
            and walk_in_order(self.count, Card.objects.count())
        ):
            # Many matches: walk the cards in order and test each against the match set,
            # stopping once the page is full, instead of sorting every match.
            test_sql, params = ids.test('"cards_card"."id"')
            cards = outcome.ordered_cards.filter(RawSQL(test_sql, params, output_field=BooleanField()))
        page_ids = list(cards.values_list("pk", flat=True)[offset : offset + self.per_page])
        return self._get_page(cards_in_order(page_ids), number, self)


# --- deleted cards ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeletedCard:
    """A card deleted (in the admin) whose last revision can bring it back."""

    version_id: int
    card_id: int
    key: str
    number: str | None
    revision_id: int
    date: Any  # when its last revision was made


MAX_DELETED_CARDS = 200


def deleted_cards(game: Game) -> list[DeletedCard]:
    """The game's deleted cards whose key no card holds now, the most recently revised first.

    django-reversion keeps each card's last revision after it is deleted; deletions are rare, so every
    deleted card's last version is read and those of this game kept here (the game is inside the serialized
    card, which the database does not index)."""
    from reversion.models import Version

    versions = Version.objects.get_deleted(Card).select_related("revision").order_by("-revision__date_created", "-pk")
    found: list[DeletedCard] = []
    for version in versions:
        data = version.field_dict
        if data.get("game") != game.pk and data.get("game_id") != game.pk:
            continue
        found.append(
            DeletedCard(
                version_id=version.pk,
                card_id=int(version.object_id),
                key=data["key"],
                number=data.get("number"),
                revision_id=version.revision_id,
                date=version.revision.date_created,
            )
        )
    taken = set(Card.objects.filter(game=game, key__in=[card.key for card in found]).values_list("key", flat=True))
    return [card for card in found if card.key not in taken][:MAX_DELETED_CARDS]


def deleted_card(game: Game, version_id: int) -> DeletedCard | None:
    return next((card for card in deleted_cards(game) if card.version_id == version_id), None)
