"""What the API sends: cards, games with their declarations, glossary terms, rules, errors.

Texts are keyed by language code (``ja``, ``zh-hant``, ``en``); a language with no
text is absent, and a part a source does not give (name, rules text, notes, …) is
``null``, never ``""`` (see docs/card-format.md: absent or null means not known).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from django.urls import reverse as django_reverse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from cards.messages import no_such_game
from cards.search.messages import MESSAGES
from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import QueryParametersSerializer
from cardsite.api_schema import CARD_QUERY_FORMAT
from cardsite.errors import render

from .. import selectors, services
from ..gamedefs import LANGUAGES
from ..gamedefs.base import ChoiceListType, ChoiceType, FieldSpec
from ..images.selectors import card_pictures
from ..models import Card, CardImage, Game, RuleSection, Term
from ..presentation import problem_text
from ..revisions import is_stale
from .games import GameSlugField

LANGUAGE_HELP = "Keyed by language code: ja, zh-hant, en. A language without a text is absent."


def language_texts(rows: Iterable[Any], parts: tuple[str, ...]) -> dict[str, dict[str, str | None]]:
    """``{language: {part: value or None}}`` in the order ja, zh-hant, en."""
    order = {code: index for index, code in enumerate(LANGUAGES)}
    ordered = sorted(rows, key=lambda row: (order.get(row.language, len(order)), row.language))
    return {row.language: {part: getattr(row, part) or None for part in parts} for row in ordered}


@cache
def search_orders() -> tuple[str, ...]:
    """What a search can be ordered by: number, name, kind, game and every numeric field (as the compiler)."""
    from ..search.compiler import NUMERIC_TYPES, ORDERS, declared_fields

    numeric = sorted(
        name for name, specs in declared_fields().items() if all(isinstance(s.type, NUMERIC_TYPES) for s in specs)
    )
    return (*ORDERS, *numeric)


def _request_url(serializer: serializers.Field, name: str, **kwargs: str) -> str:
    return reverse(name, kwargs=kwargs, request=serializer.context.get("request"))


# --- texts (for the schema; the values are built by ``language_texts``)


class CardTextSerializer(serializers.Serializer):
    name = serializers.CharField(allow_null=True, help_text="The card's name in this language, if a source gives it.")
    text = serializers.CharField(allow_null=True, help_text="Rules text.")
    notes = serializers.CharField(allow_null=True, help_text="Translator's notes.")
    source = serializers.CharField(allow_null=True, help_text="Where this language's text comes from.")  # type: ignore[assignment]  # the API's field; DRF takes declared fields off the class


class TermTextSerializer(serializers.Serializer):
    name = serializers.CharField(allow_null=True, help_text="The term in this language.")
    text = serializers.CharField(allow_null=True, help_text="Its meaning or rules text, if a source gives one.")
    source = serializers.CharField(allow_null=True)  # type: ignore[assignment]  # the API's field; DRF takes declared fields off the class


class RuleTextSerializer(serializers.Serializer):
    title = serializers.CharField(allow_null=True)
    body = serializers.CharField(allow_null=True, help_text="Plain text, one line per paragraph or list item.")
    source = serializers.CharField(allow_null=True)  # type: ignore[assignment]  # the API's field; DRF takes declared fields off the class


# --- game declarations (cards.gamedefs)


class FieldDeclarationSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The key of this field in a card's `fields`.")
    type = serializers.CharField(source="type.name", help_text="integer, boolean, text, choice, choices or symbols.")
    description = serializers.SerializerMethodField(help_text="The values the field takes, in English.")
    labels = serializers.DictField(child=serializers.CharField(), help_text=LANGUAGE_HELP)
    unit = serializers.DictField(child=serializers.CharField(), help_text=LANGUAGE_HELP)
    choices = serializers.SerializerMethodField(help_text="The allowed values of a choice field; null otherwise.")

    def get_description(self, spec: FieldSpec) -> str:
        return spec.type.describe()

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_choices(self, spec: FieldSpec) -> list[str] | None:
        if isinstance(spec.type, ChoiceType | ChoiceListType):
            return list(spec.type.choices)
        return None


class KindDeclarationSerializer(serializers.Serializer):
    slug = serializers.CharField()
    labels = serializers.DictField(child=serializers.CharField(), help_text=LANGUAGE_HELP)
    fields = serializers.ListField(  # type: ignore[assignment]  # the API's field; DRF takes declared fields off the class
        child=serializers.CharField(), help_text="Names of the fields cards of this kind carry."
    )


class GameSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    url = serializers.SerializerMethodField()
    names = serializers.SerializerMethodField(help_text=LANGUAGE_HELP)
    original_language = serializers.CharField(source="definition.original_language")
    card_count = serializers.IntegerField()
    translated_count = serializers.IntegerField(help_text="Cards with a Traditional Chinese text.")
    kinds = KindDeclarationSerializer(source="definition.kinds", many=True)
    fields = FieldDeclarationSerializer(  # type: ignore[assignment]  # the API's field; DRF takes declared fields off the class
        source="definition.fields",
        many=True,
        help_text="The game-specific fields a card may carry. A card of unknown kind may carry any of them.",
    )

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, game: Game) -> str:
        return _request_url(self, "api:game-detail", game=game.slug)

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_names(self, game: Game) -> dict[str, str]:
        return dict(game.definition.names)


class RuleSectionSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="overview, construction, setup, turn, combat, win or other.")
    order = serializers.IntegerField()
    texts = serializers.SerializerMethodField(help_text=LANGUAGE_HELP)

    @extend_schema_field(serializers.DictField(child=RuleTextSerializer()))
    def get_texts(self, section: RuleSection) -> dict[str, dict[str, str | None]]:
        return language_texts(section.texts.all(), ("title", "body", "source"))


class SourceDocumentSerializer(serializers.Serializer):
    key = serializers.CharField(help_text='How stored citations name it: "seed 000", "shadowera.com wiki".')
    title = serializers.CharField(help_text="Its title as the document gives it (not translated).")
    page = serializers.CharField(help_text="The part of it meant; empty: the whole.")
    subtitle = serializers.CharField(help_text="That page's own heading; may be empty.")
    url = serializers.CharField(help_text="Its web address; empty where none is known.")
    official_site = serializers.CharField(help_text="The game's official site, where the document names one.")


class GameDetailSerializer(GameSerializer):
    glossary_url = serializers.SerializerMethodField()
    cards_url = serializers.SerializerMethodField(help_text="The card search, limited to this game.")
    rules = serializers.SerializerMethodField()
    documents = serializers.SerializerMethodField(
        help_text="The documents the game's citations name by key (a card's or text's source is given as stored)."
    )

    @extend_schema_field(SourceDocumentSerializer(many=True))
    def get_documents(self, game: Game) -> list[dict[str, Any]]:
        documents = game.definition.documents
        return list(SourceDocumentSerializer(list(documents or ()), many=True).data)  # many=True: a list

    @extend_schema_field(OpenApiTypes.URI)
    def get_glossary_url(self, game: Game) -> str:
        return _request_url(self, "api:game-glossary", game=game.slug)

    @extend_schema_field(OpenApiTypes.URI)
    def get_cards_url(self, game: Game) -> str:
        return f"{_request_url(self, 'api:card-list')}?game={game.slug}"

    @extend_schema_field(RuleSectionSerializer(many=True))
    def get_rules(self, game: Game) -> list[dict[str, Any]]:
        return list(
            RuleSectionSerializer(selectors.rule_sections(game), many=True, context=self.context).data
        )  # many=True: a list (the stubs say a dict)


class TermSerializer(serializers.Serializer):
    key = serializers.CharField()
    category = serializers.ChoiceField(choices=Term.Category.choices)
    texts = serializers.SerializerMethodField(help_text=LANGUAGE_HELP)

    @extend_schema_field(serializers.DictField(child=TermTextSerializer()))
    def get_texts(self, term: Term) -> dict[str, dict[str, str | None]]:
        return language_texts(term.texts.all(), ("name", "text", "source"))


# --- cards


class CardSerializer(serializers.Serializer):
    game = serializers.SlugField(source="game.slug")
    key = serializers.CharField(help_text="Identifies the card within its game: its printed number or original name.")
    number = serializers.CharField(allow_null=True, help_text="The printed number; null if not known.")
    kind = serializers.CharField(
        source="checked.kind", allow_null=True, help_text="One of the game's kinds; null if not known."
    )
    fields = serializers.SerializerMethodField(  # type: ignore[assignment]  # the API's field; DRF takes declared fields off the class
        method_name="get_field_values",
        help_text="Known values of the game's declared fields (see /api/games/); an absent field is unknown.",
    )
    invalid = serializers.SerializerMethodField(
        help_text="Stored values that break the game's declarations, by field (`kind` for the kind), with what is "
        "wrong (in the response's language); they are left out of `kind` and `fields`. Empty for every card "
        "imported or edited through the site."
    )
    source = serializers.CharField(help_text="Where the field values come from.")  # type: ignore[assignment]  # the API's field; DRF takes declared fields off the class
    texts = serializers.SerializerMethodField(help_text=LANGUAGE_HELP)
    url = serializers.SerializerMethodField()
    html_url = serializers.SerializerMethodField(help_text="The card's page on the site.")

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_field_values(self, card: Card) -> dict[str, Any]:
        return dict(card.checked.fields)

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_invalid(self, card: Card) -> dict[str, str]:
        return {name: problem_text(problem) for name, problem in card.checked.invalid_fields().items()}

    @extend_schema_field(serializers.DictField(child=CardTextSerializer()))
    def get_texts(self, card: Card) -> dict[str, dict[str, str | None]]:
        return language_texts([text for text in card.texts.all() if text.is_main], ("name", "text", "notes", "source"))

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, card: Card) -> str:
        return _request_url(self, "api:card-detail", game=card.game.slug, key=card.key)

    @extend_schema_field(OpenApiTypes.URI)
    def get_html_url(self, card: Card) -> str:
        path = django_reverse("cards:card_detail", args=[card.game.slug, card.key])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class CardImageSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Name it in `remove_images` of a change set to propose taking it off.")
    side = serializers.CharField(help_text="face, back or other.")
    language = serializers.CharField(help_text="The language of the printing shown; empty for none or not said.")
    url = serializers.SerializerMethodField(help_text="The picture (WebP).")
    thumbnail_url = serializers.SerializerMethodField()
    width = serializers.IntegerField(source="image.width")
    height = serializers.IntegerField(source="image.height")
    thumbnail_width = serializers.IntegerField(source="image.thumbnail_width")
    thumbnail_height = serializers.IntegerField(source="image.thumbnail_height")

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, picture: CardImage) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(picture.image.url) if request is not None else picture.image.url

    @extend_schema_field(OpenApiTypes.URI)
    def get_thumbnail_url(self, picture: CardImage) -> str:
        request = self.context.get("request")
        path = picture.image.thumbnail_url
        return request.build_absolute_uri(path) if request is not None else path


class TrackTextSerializer(CardTextSerializer):
    language = serializers.CharField(help_text="A language the game's cards are translated into.")
    track = serializers.CharField(help_text="The translation track's name, unique within its game and language.")
    credits = serializers.CharField(help_text="Who made the translation, as the track credits it.")
    status = serializers.ChoiceField(choices=["draft", "reviewed"])
    main = serializers.BooleanField(help_text="The language's main track: its text is the card's `texts` entry.")
    stale = serializers.BooleanField(help_text="The original text changed since this translation was made.")
    pinned_revision = serializers.IntegerField(
        allow_null=True, help_text="The revision of the card whose original text this translates."
    )


class CardDetailSerializer(CardSerializer):
    images = serializers.SerializerMethodField(help_text="Pictures of the card, the one that stands for it first.")
    translations = serializers.SerializerMethodField(
        help_text="Every text of the card in a translation track (a language may have several): the main "
        "track's, which `texts` also gives, and the others'. Submit a track's text as `translations` "
        "(`{language: {track: text}}`) in a change set."
    )
    state_digest = serializers.SerializerMethodField(
        help_text="A fingerprint of the card's values and texts as stored now: send it as `seen` with a change set "
        "(POST /api/contributions/change-sets/) "
        "so that a change made on this state is refused if the card changed since."
    )

    @extend_schema_field(CardImageSerializer(many=True))
    def get_images(self, card: Card) -> list[dict[str, Any]]:
        return list(
            CardImageSerializer(card_pictures(card), many=True, context=self.context).data
        )  # many=True: a list (the stubs say a dict)

    def get_state_digest(self, card: Card) -> str:
        return services.state_digest(services.card_state(card))

    @extend_schema_field(TrackTextSerializer(many=True))
    def get_translations(self, card: Card) -> list[dict[str, Any]]:
        texts = list(card.texts.all())
        original = next((text for text in texts if text.language == card.game.definition.original_language), None)
        return [
            {
                "language": text.language,
                "track": text.track.name,
                "credits": text.track.credits,
                "status": text.track.status,
                "main": text.track.main,
                "stale": is_stale(text, original),
                "pinned_revision": text.pinned_revision_id,
                **{part: getattr(text, part) or None for part in ("name", "text", "notes", "source")},
            }
            for text in texts
            if text.track is not None
        ]


# --- request parameters and errors


@extend_schema_field(
    {
        "type": "string",
        # Not a JSON Schema format: names the grammar (/search/syntax/) a query must follow; a query that does
        # not is answered 400 with the position of the problem.
        "format": CARD_QUERY_FORMAT,
    }
)
class CardQueryField(serializers.CharField):
    pass


@extend_schema_field({"type": "string", "enum": list(search_orders())})
class SearchOrderField(serializers.CharField):
    pass


class CardSearchParametersSerializer(QueryParametersSerializer):
    q = CardQueryField(
        required=False,
        allow_blank=True,
        default="",
        trim_whitespace=False,
        help_text=(
            "A query in the site's search syntax (as on /search/syntax/), e.g. `game:suikoden attack>5`, "
            "`職業`, `o:/draw.*card/`, `order:name`. Empty: every card, by game then number."
        ),
    )
    game = GameSlugField(required=False, help_text="Only cards of this game (a slug from /api/games/).")
    order = SearchOrderField(
        required=False,
        help_text="number, name, kind, game or a numeric field (e.g. attack); overrides order: in the query.",
    )
    dir = serializers.ChoiceField(
        choices=["asc", "desc"], required=False, help_text="Overrides direction: in the query."
    )
    lang = serializers.ChoiceField(
        choices=list(LANGUAGES),
        required=False,
        help_text="The language whose names order:name sorts by; default: the request's language (Accept-Language).",
    )

    def validate_game(self, slug: str) -> Game:
        game = Game.objects.filter(slug=slug).first()
        if game is None:
            raise serializers.ValidationError(str(no_such_game(slug)))
        return game

    def validate_order(self, order: str) -> str:
        """One of the orders exactly as listed (the query's order: also takes other cases; the schema lists these)."""
        if order not in search_orders():
            raise serializers.ValidationError(
                render(gettext(MESSAGES["unknown_order"]), {"value": order, "orders": search_orders()})
            )
        return order


class QueryErrorSerializer(ErrorSerializer):
    # The four keys below come with every problem of the search's own parameters (q, game, order, dir), not with
    # a bad ?lang=, which is refused as on every operation (cardsite.middleware), under errors.lang.
    position = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="Offset in `query` (in characters) where the problem is; null when it is not in the query. "
        "Absent for a bad `lang` (as the next three), refused as on every operation.",
    )
    query = serializers.CharField(required=False, allow_blank=True, help_text="The query as received.")
    parameter = serializers.CharField(
        required=False, help_text="The request parameter at fault: q, game, order or dir."
    )
    reason = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="What is wrong with the query, for programs: a syntax error's code (unclosed_quote, "
        "unknown_field …), or statement_timeout (the search ran over its time limit) or database_refused (the "
        "database could not run it, e.g. a pattern it rejects); null for a problem of another parameter.",
    )
