"""What the deck API sends and takes.

Entries are written as ``{zone, card, count}``: ``zone`` a zone slug of the deck's game
(see ``decks.rules``; a game's fixed zones hold no entries), ``card`` the card's key
(as in ``/api/cards/<game>/<key>/``), ``count`` 1–99. Checks that need the deck's game
(zones, cards, mode, options) are made by ``clean_entries`` and ``clean_mode_options``,
which name the failing field as ``entries[2].card``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from cards.api.games import GameSlugField, game_slugs
from cards.messages import no_such_card
from cards.models import Card, Game
from cardsite.api_inputs import NAME_PATTERN, JSONBodySerializer, LanguageSerializer
from cardsite.errors import FieldProblems, Message
from cardsite.text import plain_name, plain_text

from .. import services
from ..models import Deck, DeckFolder, DeckPlaceholder
from ..organise import selectors as organise_selectors
from ..organise import services as organise_services
from ..rules import get_rules
from ..selectors import can_edit

MAX_COUNT = services.MAX_COPIES_PER_ENTRY


def validated_body(serializer_class: type, data: Any) -> dict[str, Any]:
    """A request body checked by ``serializer_class``: its values, or a 400 naming every problem."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class FieldErrors(FieldProblems):
    """Problems with a deck body, keyed by the field's path (``entries[2].card``)."""


# --- reading


class EntrySerializer(serializers.Serializer):
    zone = serializers.CharField(help_text="A zone slug of the deck's game.")
    card = serializers.CharField(source="card.key", help_text="The card's key.")
    number = serializers.CharField(source="card.number", allow_null=True, help_text="Its printed number, if any.")
    name = serializers.SerializerMethodField(help_text="Its name in the response language.")
    count = serializers.IntegerField(min_value=1, max_value=MAX_COUNT)

    def get_name(self, entry) -> str:
        return entry.card.display_name(self.context.get("language") or "ja")


class PlaceholderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.SerializerMethodField()
    zone = serializers.CharField(help_text="The zone the game puts this kind in.")
    kind = serializers.CharField(help_text="A kind the game declares as a placeholder (decks.rules).")
    values = serializers.DictField(
        child=serializers.IntegerField(), help_text="The stated values (0–99); a value not stated is unknown."
    )
    name = serializers.CharField(allow_blank=True)
    count = serializers.IntegerField(min_value=1, max_value=MAX_COUNT)
    # Declared fields are taken off the class by DRF's serializer metaclass: no clash with Field.label.
    label = serializers.SerializerMethodField(help_text="How the site shows it, in the response language.")  # type: ignore[assignment]

    def get_url(self, placeholder: DeckPlaceholder) -> str:
        return reverse(
            "decks_api:deck-placeholder",
            kwargs={"pk": placeholder.deck_id, "placeholder_pk": placeholder.pk},
            request=self.context.get("request"),
        )

    def get_label(self, placeholder: DeckPlaceholder) -> str:
        from ..placeholders import selectors as placeholder_selectors

        game = self.context["deck"].game if "deck" in self.context else placeholder.deck.game
        return placeholder_selectors.label(game, placeholder, self.context.get("language") or "ja")


class OrganisationSerializer(serializers.Serializer):
    folder = serializers.IntegerField(allow_null=True, help_text="The id of the deck's folder, or null.")
    folder_name = serializers.CharField(allow_null=True)
    tags = serializers.ListField(child=serializers.CharField())
    archived = serializers.BooleanField()


class DeckSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    game = serializers.SlugField(source="game.slug")
    owner = serializers.CharField(source="owner.get_username", help_text="The owner's user name.")
    is_owner = serializers.SerializerMethodField(help_text="Whether the requesting user owns the deck.")
    share_token = serializers.SerializerMethodField(
        help_text="For the owner only (null for others): a deck shared by link is readable with ?token=<this>."
    )
    card_count = serializers.SerializerMethodField(help_text="Cards in every zone, copies counted.")
    organisation = serializers.SerializerMethodField(
        help_text="For the owner only (null for others): the deck's folder, tags and whether it is archived."
    )

    class Meta:
        model = Deck
        fields = [
            "id",
            "url",
            "game",
            "name",
            "description",
            "mode",
            "options",
            "visibility",
            "owner",
            "is_owner",
            "share_token",
            "card_count",
            "organisation",
            "created_at",
            "updated_at",
        ]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, deck: Deck) -> str:
        return reverse("decks_api:deck-detail", kwargs={"pk": deck.pk}, request=self.context.get("request"))

    def _user(self):
        request = self.context.get("request")
        return getattr(request, "user", None)

    def get_is_owner(self, deck: Deck) -> bool:
        user = self._user()
        return user is not None and can_edit(user, deck)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_share_token(self, deck: Deck) -> str | None:
        return deck.share_token if self.get_is_owner(deck) else None

    @extend_schema_field(OrganisationSerializer(allow_null=True))
    def get_organisation(self, deck: Deck) -> dict[str, Any] | None:
        if not self.get_is_owner(deck):
            return None
        folder = deck.folder
        return {
            "folder": None if folder is None else folder.pk,
            "folder_name": None if folder is None else folder.name,
            "tags": [tag.name for tag in deck.tags.all()],
            "archived": deck.archived_at is not None,
        }

    def get_card_count(self, deck: Deck) -> int:
        total = getattr(deck, "card_total", None)
        if total is None:
            total = sum(entry.count for entry in deck.entries.all())
        return int(total or 0)


class VerdictSummarySerializer(serializers.Serializer):
    legal = serializers.BooleanField(help_text="Checked, no finding and no placeholder card.")
    checked = serializers.BooleanField(help_text="False when the deck's mode has no construction check.")
    placeholders = serializers.IntegerField(help_text="Placeholder cards in the deck, copies counted.")
    legal_apart_from_placeholders = serializers.BooleanField(
        help_text="Every rule holds, counting placeholders as cards of their kind, but the deck holds placeholders."
    )


class DeckDetailSerializer(DeckSerializer):
    entries = serializers.SerializerMethodField(help_text="Every entry, by zone then card number.")
    lineage = serializers.SerializerMethodField(
        help_text="`copied_from`: the deck this one was copied from (its address; null if not copied or not "
        "shared with you), `copied_from_hidden`: copied from a deck you may not see, `copies`: the addresses of "
        "the copies of this deck you may see (your own)."
    )

    placeholders = serializers.SerializerMethodField(
        help_text="The deck's placeholder cards (cards the database does not hold yet); never counted as legal."
    )
    verdict = serializers.SerializerMethodField(
        help_text="The rules' verdict in short (the findings: validate/): `legal`, `checked`, `placeholders` "
        "(placeholder cards, copies counted) and `legal_apart_from_placeholders` (every rule holds, yet the deck "
        "holds placeholders)."
    )

    class Meta(DeckSerializer.Meta):
        fields = [*DeckSerializer.Meta.fields, "entries", "placeholders", "verdict", "lineage"]

    @extend_schema_field(PlaceholderSerializer(many=True))
    def get_placeholders(self, deck: Deck) -> list[dict[str, Any]]:
        held = deck.placeholders.all()
        return list(PlaceholderSerializer(held, many=True, context={**self.context, "deck": deck}).data)

    @extend_schema_field(VerdictSummarySerializer)
    def get_verdict(self, deck: Deck) -> dict[str, Any]:
        from ..selectors import verdict

        result = verdict(deck, self.context.get("language") or "ja")
        return {
            "legal": result.legal,
            "checked": result.checked,
            "placeholders": result.placeholders,
            "legal_apart_from_placeholders": result.legal_apart_from_placeholders,
        }

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_lineage(self, deck: Deck) -> dict[str, Any]:
        from ..selectors import lineage

        user = self._user()
        source, hidden, forks = lineage(user, deck) if user is not None else (None, deck.forked_from_id is not None, [])
        return {
            "copied_from": None if source is None else self.get_url(source),
            "copied_from_hidden": hidden,
            "copies": [self.get_url(fork) for fork in forks],
        }

    @extend_schema_field(EntrySerializer(many=True))
    def get_entries(self, deck: Deck) -> list[dict[str, Any]]:
        from ..selectors import deck_entries

        return list(EntrySerializer(deck_entries(deck), many=True, context=self.context).data)


class FindingSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="The rule's id, e.g. suikoden.characters.")
    kind = serializers.ChoiceField(
        choices=["violation", "unchecked"],
        help_text="violation: the deck breaks the rule; unchecked: a value the rule needs is unknown.",
    )
    message = serializers.CharField(help_text="In the language asked for (?lang=, else the request's language).")
    cards = serializers.ListField(child=serializers.CharField(), help_text="Names of the cards concerned.")


class ZoneTotalSerializer(serializers.Serializer):
    zone = serializers.CharField()
    # Declared fields are taken off the class by DRF's serializer metaclass: no clash with Field.label.
    label = serializers.CharField(help_text="The zone's name in the response language.")  # type: ignore[assignment]
    count = serializers.IntegerField(help_text="Cards in the zone, copies counted.")


class VerdictSerializer(serializers.Serializer):
    legal = serializers.BooleanField(help_text="Checked, no finding and no placeholder card.")
    checked = serializers.BooleanField(help_text="False when the deck's mode has no construction check.")
    placeholders = serializers.IntegerField(help_text="Placeholder cards in the deck, copies counted.")
    legal_apart_from_placeholders = serializers.BooleanField(
        help_text="Every rule holds, counting placeholders as cards of their kind, but the deck holds placeholders."
    )
    findings = FindingSerializer(many=True)
    totals = ZoneTotalSerializer(many=True, help_text="Every editable zone of the game, in the game's order.")


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


# --- writing
#
# What a body may hold is stated in the schema for every game at once (modes, zones, options of all four);
# which of them fit the deck's game is checked by clean_mode_options and clean_entries, whose messages name
# the game's own choices.


def _all_rules() -> list[Any]:
    return [get_rules(slug) for slug in game_slugs()]


def _union(values: Sequence[Any]) -> list[Any]:
    return list(dict.fromkeys(values))


@extend_schema_field({"type": "string", "enum": _union([m.slug for r in _all_rules() for m in r.modes])})
class ModeField(serializers.CharField):
    """A mode of the deck's game (``decks.rules``); the schema lists the modes of every game."""


@extend_schema_field({"type": "string", "enum": _union([z.slug for r in _all_rules() for z in r.zones if not z.fixed])})
class ZoneField(serializers.CharField):
    """An editable zone of the deck's game; the schema lists those of every game."""


class VisibilityField(serializers.ChoiceField):
    """A deck's visibility, "private" or "link"; "public" is refused with the service's word to publish instead
    (``services.check_visibility``), not DRF's bare "not a valid choice"."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault(
            "help_text",
            "private or link. A deck is never public: publish it (POST /api/community/publications/) "
            "to show it to everyone; "
            '"public" is refused with code publish_instead.',
        )
        super().__init__(choices=Deck.Visibility.choices, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        if data == "public":  # other values get DRF's "not a valid choice"
            try:
                services.check_visibility(data)
            except services.DeckError as error:
                raise serializers.ValidationError(str(error.message), code=error.code) from None
        return str(super().to_internal_value(data))


@extend_schema_field(
    {
        "type": "object",
        "properties": {
            option.slug: {"enum": list(option.choices)} if option.choices else {}
            for rules in _all_rules()
            for option in rules.options
        },
        "additionalProperties": False,
    }
)
class OptionsField(serializers.DictField):
    """Options of the deck's game by slug; the schema lists every game's options with their values."""


def name_field(**options: Any) -> serializers.CharField:
    return serializers.CharField(
        max_length=120,
        trim_whitespace=False,
        validators=[
            RegexValidator(NAME_PATTERN, message=serializers.CharField.default_error_messages["blank"]),
            plain_name(),
        ],
        help_text="Something other than white space, which is trimmed; no invisible or control character.",
        **options,
    )


class EntryWriteSerializer(JSONBodySerializer):
    zone = ZoneField(max_length=32, help_text="An editable zone of the deck's game.")
    card = serializers.CharField(
        max_length=100,
        help_text="The key of a card of the deck's game, as in /api/cards/{game}/{key}/. Counts of the same "
        "card and zone add up, at most 99 in all.",
    )
    count = serializers.IntegerField(min_value=1, max_value=MAX_COUNT)


class EntryPatchSerializer(EntryWriteSerializer):
    count = serializers.IntegerField(min_value=0, max_value=MAX_COUNT, help_text="The new count; 0 removes the card.")


# The most entries one body may hold: far more than a deck of these games has cards (≤ 81).
MAX_ENTRIES = 300


class EntriesBodySerializer(JSONBodySerializer):
    entries = EntryWriteSerializer(  # type: ignore[call-arg]  # max_length: for the ListSerializer many=True makes
        many=True,
        max_length=MAX_ENTRIES,
        help_text="Every entry of the deck; replaces the entries it had.",
    )


class EntriesPatchBodySerializer(JSONBodySerializer):
    entries = EntryPatchSerializer(  # type: ignore[call-arg]  # max_length: for the ListSerializer many=True makes
        many=True,
        max_length=MAX_ENTRIES,
        help_text="Entries whose counts to set; the others are kept. A card and zone at most once.",
    )


class DeckWriteSerializer(JSONBodySerializer):
    """The body of a create (``game`` and ``name`` required) or a change (every field optional)."""

    game = GameSlugField(help_text="A game slug; set when the deck is made, never changed.")
    name = name_field()
    description = serializers.CharField(
        allow_blank=True,
        required=False,
        trim_whitespace=False,
        max_length=services.MAX_DESCRIPTION_LENGTH,
        validators=[plain_text(_("description"))],
    )
    mode = ModeField(max_length=32, required=False, help_text="A mode of the deck's game; default: its first.")
    options = OptionsField(
        required=False,
        help_text="Options of the deck's game (see decks.rules); absent ones keep their value or default.",
    )
    visibility = VisibilityField(required=False)
    entries = EntryWriteSerializer(  # type: ignore[call-arg]  # max_length: for the ListSerializer many=True makes
        many=True,
        required=False,
        max_length=MAX_ENTRIES,
        help_text="Every entry of the deck; replaces the entries it had.",
    )
    folder = serializers.IntegerField(
        allow_null=True, required=False, min_value=1, help_text="The id of one of your folders, or null for none."
    )
    tags = serializers.ListField(
        child=serializers.CharField(max_length=organise_services.MAX_TAG_NAME, validators=[plain_name(_("tag"))]),
        max_length=organise_services.MAX_TAGS_PER_DECK,
        required=False,
        help_text="The deck's tags (replacing the ones it had); only its owner sees them.",
    )
    archived = serializers.BooleanField(required=False, help_text="An archived deck is left out of the owner's list.")

    def validate_name(self, name: str) -> str:
        return name.strip()


class DeckUpdateSerializer(DeckWriteSerializer):
    game = GameSlugField(required=False, help_text="May be given, but must be the deck's game.")
    name = name_field(required=False)


class DeckReplaceSerializer(DeckWriteSerializer):
    """PUT: ``name`` and ``entries`` required; other fields keep their value when absent."""

    game = GameSlugField(required=False, help_text="May be given, but must be the deck's game.")
    entries = EntryWriteSerializer(  # type: ignore[call-arg]  # max_length: for the ListSerializer many=True makes
        many=True,
        max_length=MAX_ENTRIES,
        help_text="Every entry of the deck; replaces the entries it had.",
    )


class UnsavedDeckSerializer(JSONBodySerializer):
    game = GameSlugField()
    mode = ModeField(max_length=32, required=False, help_text="A mode of the game; default: its first.")
    options = OptionsField(required=False, help_text="Options of the game; absent ones take their default.")
    entries = EntryWriteSerializer(  # type: ignore[call-arg]  # max_length: for the ListSerializer many=True makes
        many=True, required=False, max_length=MAX_ENTRIES
    )


class DeckParametersSerializer(LanguageSerializer):
    """The query of an operation on one deck: the language, and the token of a deck shared by link."""

    token = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=100,
        help_text="The share token of a deck shared by link (for users other than its owner).",
    )


class DeckListParametersSerializer(LanguageSerializer):
    mine = serializers.BooleanField(required=False, help_text="Only the user's own decks (needs credentials).")
    game = GameSlugField(required=False, help_text="Only decks of this game.")
    folder = serializers.RegexField(
        r"^(none|[1-9][0-9]{0,17})$",
        required=False,
        help_text="A folder's id, or `none` (implies mine).",
    )
    tag = serializers.CharField(
        required=False, max_length=organise_services.MAX_TAG_NAME, help_text="A tag's name (implies mine)."
    )
    archived = serializers.ChoiceField(
        choices=list(organise_selectors.ARCHIVE_CHOICES),
        required=False,
        help_text="`active` (not archived), `archived` or `all` (the default with mine; implies mine).",
    )
    legality = serializers.ChoiceField(
        choices=list(organise_selectors.LEGALITY_CHOICES),
        required=False,
        help_text="By the rules' verdict (implies mine).",
    )
    ordering = serializers.ChoiceField(
        choices=list(organise_selectors.SORTS),
        required=False,
        help_text="`changed` (the default: last change, newest first), `oldest_change`, `name`, `created`.",
    )


class FolderSerializer(serializers.ModelSerializer):
    deck_count = serializers.IntegerField(read_only=True, help_text="Its decks that are not archived.")

    class Meta:
        model = DeckFolder
        fields = ["id", "name", "deck_count", "created_at"]
        read_only_fields = ["id", "created_at"]


class FolderWriteSerializer(JSONBodySerializer):
    name = serializers.CharField(
        max_length=organise_services.MAX_FOLDER_NAME, trim_whitespace=False, validators=[plain_name(_("folder's name"))]
    )


# --- checks that need the game


def clean_mode_options(
    game: Game, mode: str | None, options: Mapping[str, Any] | None, base: Mapping[str, Any] | None = None
) -> tuple[str, dict[str, Any]]:
    """The mode and options checked against the game (``base``: the deck's current options)."""
    rules = get_rules(game.slug)
    if mode is not None and rules.mode(mode) is None:
        raise FieldErrors({"mode": [services.unknown_mode(game, mode)]})
    for option in rules.options:
        value = (options or {}).get(option.slug)
        # JSON's true is not the number 1 (nor 0 false), though Python's == says so: compare the types too.
        if value is not None and option.choices and not any(type(value) is type(c) for c in option.choices):
            raise FieldErrors({"options": [services.not_a_choice(option.slug, option.choices)]})
    try:
        return services.clean_options(game, mode, {**(base or {}), **(options or {})})
    except services.DeckError as error:
        raise FieldErrors({"options": [Message(error.template, error.params)]}) from None


def clean_entries(
    game: Game, entries: Sequence[Mapping[str, Any]], *, field: str = "entries", patch: bool = False
) -> list[tuple[str, Card, int]]:
    """``(zone, card, count)`` for each entry, or every problem, each naming ``entries[i].zone``, ``.card``, ``.count``.

    A replacement adds up counts of the same card and zone (at most 99 in all); a patch
    (``patch``) sets each count and may not name the same card and zone twice.
    """
    rules = get_rules(game.slug)
    keys = {entry["card"] for entry in entries}
    cards = {card.key: card for card in Card.objects.filter(game=game, key__in=keys).select_related("game")}
    errors: dict[str, list[Message]] = {}
    cleaned: list[tuple[str, Card, int]] = []
    totals: dict[tuple[str, str], int] = {}
    seen: dict[tuple[str, str], int] = {}
    for index, entry in enumerate(entries):
        where = f"{field}[{index}]"
        zone = rules.zone(entry["zone"])
        if zone is None or zone.fixed:
            errors[f"{where}.zone"] = [services.unknown_zone(game, entry["zone"])]
        card = cards.get(entry["card"])
        if card is None:
            errors[f"{where}.card"] = [no_such_card(game, entry["card"])]
        if zone is None or zone.fixed or card is None:
            continue
        pair = (zone.slug, card.key)
        if patch:
            if pair in seen:
                errors[where] = [
                    Message(_("The same zone and card as %(entry)s."), {"entry": f"{field}[{seen[pair]}]"})
                ]
                continue
            seen[pair] = index
        else:
            totals[pair] = totals.get(pair, 0) + entry["count"]
            if totals[pair] > MAX_COUNT:
                errors[f"{where}.count"] = [
                    Message(
                        _("%(count)s copies of %(card)s in %(zone)s in all; at most %(maximum)s."),
                        {"count": totals[pair], "card": card.key, "zone": zone.labels, "maximum": MAX_COUNT},
                    )
                ]
                continue
        cleaned.append((zone.slug, card, entry["count"]))
    if errors:
        raise FieldErrors(errors)
    return cleaned
