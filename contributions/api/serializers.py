"""What the contributions API takes and sends.

A change set's cards are records in the project's card format (docs/card-format.md), each changing what it
names of its card (``contributions.merging``), checked by
``contributions.services.submit_change_set`` exactly as the importer and the forms check them; the schema
states their shape for every game at once (kinds of all four, text parts and their lengths), and the
service what fits the game named (its kinds, fields, values and numbers), naming ``cards[1].fields.health``.
"""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from django.urls import reverse as django_reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from cards.api.games import GameSlugField
from cards.gamedefs import LANGUAGES, all_games
from cards.history_presentation import value_name
from cards.importing import CARD_TEXT_PARTS, MAX_LENGTHS
from cards.models import LANGUAGE_CHOICES, CardImage, SeedConflict, StoredImage
from cards.presentation import revision_source_text
from cards.services import card_state, state_digest
from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import NAME_PATTERN, JSONBodySerializer, KnownKeysSerializer, QueryParametersSerializer
from cardsite.api_schema import NO_NUL_PATTERN
from cardsite.text import NAME_FORBIDDEN_RANGES, character_class, plain_text

from ..models import CardChange, ChangeSet, ImageChange
from ..services import MAX_CARDS_PER_CHANGE_SET, MAX_IMAGES_PER_CHANGE_SET

DIGEST_PATTERN = r"^([0-9a-f]{32})?$"
# A card's key: something other than white space; no "/" nor control characters (one segment of the card's
# addresses, cards.importing).
KEY_PATTERN = r"^[^\x00-\x1f\x7f-\x9f/]*[^\s\x00-\x1f\x7f-\x9f/][^\x00-\x1f\x7f-\x9f/]*$"


def _text(max_length: int | None = None, **more: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "nullable": True, "pattern": NO_NUL_PATTERN, **more}
    if max_length is not None:
        schema["maxLength"] = max_length
    return schema


CARD_RECORD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["key"],
    "description": "A card's changes: a key left out keeps the card's value, a value sets it, null removes it "
    "(at every level). A new card is the record itself, with at least one name.",
    "properties": {
        "key": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_LENGTHS["key"],
            "pattern": KEY_PATTERN,
            "description": "Identifies the card in its game: its printed number, or its original name. An existing "
            "card's key changes that card; another adds a card.",
        },
        "number": _text(
            MAX_LENGTHS["number"], description="The printed number, in the game's form; null removes it (unknown)."
        ),
        "kind": {
            "type": "string",
            "nullable": True,
            "enum": [*dict.fromkeys(kind.slug for game in all_games() for kind in game.kinds), None],
            "description": "One of the game's kinds (the schema lists every game's); null removes it (unknown).",
        },
        "fields": {
            "type": "object",
            "nullable": True,
            "description": "Values of the fields the game declares for the kind (GET /api/games/{game}/): a field "
            "left out keeps its value, null removes it; `fields: null` removes every value.",
        },
        "texts": {
            "type": "object",
            "additionalProperties": False,
            "nullable": True,
            "description": "By language: name, rules text, translator's notes and source; a card keeps at least "
            "one name. A part left out is kept, null removes it; a language given null loses every part.",
            "properties": {
                language: {
                    "type": "object",
                    "nullable": True,
                    "additionalProperties": False,
                    "properties": {part: _text(MAX_LENGTHS.get(part)) for part in CARD_TEXT_PARTS},
                }
                for language in LANGUAGES
            },
        },
        "source": _text(description="Where the field values come from, as the card page shows it; null removes it."),
        "translations": {
            "type": "object",
            "additionalProperties": False,
            "description": "The card's texts in translation tracks other than a language's main one: by language, "
            "then by the track's name (one the game has, or one of the change set's `tracks`). Merged as `texts`: "
            "null removes a part, or a track's every part.",
            "nullable": True,
            "properties": {
                language: {
                    "type": "object",
                    "nullable": True,
                    "additionalProperties": {
                        "type": "object",
                        "nullable": True,
                        "additionalProperties": False,
                        "properties": {part: _text(MAX_LENGTHS.get(part)) for part in CARD_TEXT_PARTS},
                    },
                }
                for language in LANGUAGES
            },
        },
    },
}
# A track's name: no control or invisible characters, nor white space at either end (cards.importing).
_NOT_IN_NAME = character_class(NAME_FORBIDDEN_RANGES)  # cardsite.text: control and invisible characters
TRACK_NAME_PATTERN = rf"^[^\s{_NOT_IN_NAME}]([^{_NOT_IN_NAME}]*[^\s{_NOT_IN_NAME}])?$"
TRACK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["language", "name"],
    "properties": {
        "language": {
            "type": "string",
            "enum": list(LANGUAGES),
            "description": "A language the game's cards are translated into (not its original language).",
        },
        "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_LENGTHS["track"],
            "pattern": TRACK_NAME_PATTERN,
            "description": "Unique within the game and language; not one the game has.",
        },
        "credits": _text(MAX_LENGTHS["credits"], description="Who translated it, and where it was published."),
        "status": {
            "type": "string",
            "enum": ["draft", "reviewed"],
            "description": "An editor's track may say reviewed; anyone else's starts as a draft.",
        },
    },
}


@extend_schema_field(TRACK_SCHEMA)
class TrackField(serializers.JSONField):
    """A new translation track; the service checks it (``cards.importing.check_tracks``)."""


@extend_schema_field(CARD_RECORD_SCHEMA)
class CardRecordField(serializers.JSONField):
    """A card record; the service checks it against the game (``cards.importing.check_cards``)."""


class ImageProposalSerializer(JSONBodySerializer):
    card = serializers.CharField(
        max_length=MAX_LENGTHS["key"],
        validators=[RegexValidator(KEY_PATTERN)],
        help_text="The key of the card the picture shows.",
    )
    image = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The id of an upload.")
    side = serializers.ChoiceField(choices=CardImage.Side.choices, default=CardImage.Side.FACE)
    language = serializers.ChoiceField(
        choices=[("", "none"), *LANGUAGE_CHOICES],
        default="",
        allow_blank=True,
        help_text="The language of the printing shown; empty for none or not said.",
    )


class ImageUploadSerializer(KnownKeysSerializer):
    file = serializers.FileField(
        help_text="A photo or scan of a card: JPEG, PNG or WebP, at most IMAGE_MAX_BYTES bytes (10 MB) and "
        "IMAGE_MAX_PIXELS pixels (40 million)."
    )


class StoredImageSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField(help_text="The picture (WebP, at most 2,000 pixels on its long side).")
    thumbnail_url = serializers.SerializerMethodField(help_text="Its thumbnail (at most 320 pixels).")

    class Meta:
        model = StoredImage
        fields = ["id", "url", "thumbnail_url", "format", "width", "height", "thumbnail_width", "thumbnail_height"]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, image: StoredImage) -> str:
        return _absolute(self, image.url)

    @extend_schema_field(OpenApiTypes.URI)
    def get_thumbnail_url(self, image: StoredImage) -> str:
        return _absolute(self, image.thumbnail_url)


class ImageChangeSerializer(serializers.ModelSerializer):
    card = serializers.CharField(source="key")
    image = StoredImageSerializer()

    class Meta:
        model = ImageChange
        fields = ["card", "action", "image", "side", "language"]


class ChangeSetRequestSerializer(JSONBodySerializer):
    game = GameSlugField(help_text="The game of every card of the change set.")
    source_kind = serializers.ChoiceField(choices=ChangeSet.SourceKind.choices, help_text="Where the values come from.")
    source_detail = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        validators=[plain_text(_("source"))],
        help_text="A web address, the set or box, or anything that lets an editor check.",
    )
    comment = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=2000,
        validators=[plain_text(_("comment"))],
        help_text="A word for the editors.",
    )
    cards = serializers.ListField(
        child=CardRecordField(),
        required=False,
        default=list,
        max_length=MAX_CARDS_PER_CHANGE_SET,
        help_text="Each card's changes (docs/card-format.md): a record changes what it names. A key left out keeps "
        "the card's value; `null` removes it (`fields.attack: null`, `texts.en.text: null`, `texts.en: null`, "
        "`source: null`). A new card is the record as given. A change set holds at least one card or one picture "
        "(`images`, `remove_images`).",
    )
    source_photo = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**63 - 1,
        help_text="The id of an upload (POST /api/images/): a photo or scan of the printed card the values come "
        "from. The card page's sources link to it. The user's own upload, or one already published.",
    )
    images = serializers.ListField(
        child=ImageProposalSerializer(),
        required=False,
        default=list,
        max_length=MAX_IMAGES_PER_CHANGE_SET,
        help_text="Pictures to show on cards of the game (or added by this change set): uploads by id, the user's "
        "own or ones already published. A picture once removed is put back this way.",
    )
    remove_images = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        default=list,
        max_length=MAX_IMAGES_PER_CHANGE_SET,
        help_text="Ids of pictures shown on the game's cards (`images` of GET /api/cards/{game}/{key}/) to take off. "
        "The file is kept.",
    )
    seen = serializers.DictField(
        child=serializers.CharField(allow_blank=True, max_length=32, validators=[RegexValidator(DIGEST_PATTERN)]),
        required=False,
        help_text="By card key, the `state_digest` of the card as the client read it (GET /api/cards/{game}/{key}/), "
        'and "" for a card the client adds. A card whose state differs now (someone changed it meanwhile, or it '
        "was added meanwhile) answers 409 with the card as it is now, and nothing is submitted. Without `seen`, "
        "the cards are compared with their state when the change set is submitted.",
    )
    tracks = serializers.ListField(
        child=TrackField(),
        required=False,
        max_length=20,
        help_text="New translation tracks the cards' `translations` may name beside the game's own: "
        '`[{"language": "zh-hant", "name": "…", "credits": "…"}]`, checked as a card file\'s tracks '
        "(docs/card-format.md). A contributor's track is never a language's main track and starts as a draft.",
    )


class AcceptSerializer(JSONBodySerializer):
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=2000, help_text="For the author (optional)."
    )


class RejectSerializer(JSONBodySerializer):
    reason = serializers.CharField(
        max_length=2000,
        trim_whitespace=False,
        validators=[RegexValidator(NAME_PATTERN, message=serializers.CharField.default_error_messages["blank"])],
        help_text="Why, for the author: required, something other than white space.",
    )


class ReviewQueueParametersSerializer(QueryParametersSerializer):
    game = GameSlugField(required=False, help_text="Only this game's change sets (one the user reviews).")


# --- answers


def _absolute(serializer: serializers.Field, path: str) -> str:
    request = serializer.context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


class ChangeSetSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    html_url = serializers.SerializerMethodField(help_text="The change set's page on the site.")
    game = serializers.SlugField(source="game.slug")
    author = serializers.CharField(source="author.get_username", help_text="The author's user name.")
    decided_by = serializers.CharField(
        source="decided_by.get_username",
        allow_null=True,
        default=None,
        help_text="Who accepted or rejected it (its author, for a change set applied at once); null while it waits.",
    )
    card_count = serializers.IntegerField(help_text="Cards the change set adds or changes.")
    image_count = serializers.IntegerField(help_text="Pictures the change set adds to cards or takes off them.")

    class Meta:
        model = ChangeSet
        fields = [
            "id",
            "url",
            "html_url",
            "game",
            "status",
            "author",
            "source_kind",
            "source_detail",
            "comment",
            "card_count",
            "image_count",
            "created_at",
            "decided_by",
            "decided_at",
            "reason",
            "tracks",
        ]
        extra_kwargs = {
            "tracks": {"help_text": "The translation tracks it makes (made when it is applied)."},
            "status": {"help_text": "pending (waiting for an editor), accepted (the cards are changed) or rejected."},
            "reason": {"help_text": "The editor's reason, for the author."},
        }

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, change_set: ChangeSet) -> str:
        return reverse(
            "contributions_api:change-set-detail",
            kwargs={"change_set_id": change_set.pk},
            request=self.context.get("request"),
        )

    @extend_schema_field(OpenApiTypes.URI)
    def get_html_url(self, change_set: ChangeSet) -> str:
        return _absolute(self, django_reverse("contributions:change_set", args=[change_set.pk]))


class CardChangeSerializer(serializers.Serializer):
    key = serializers.CharField()
    is_new = serializers.SerializerMethodField(help_text="The card was not in the database when the change was made.")
    base = serializers.JSONField(
        help_text="The card as it was when the change was made (number, kind, fields, source, texts); null for a new "
        "card."
    )
    proposed = serializers.JSONField(help_text="The card as the change set makes it, in the same shape.")
    url = serializers.SerializerMethodField(help_text="The card in the API; null while it is not in the database.")
    html_url = serializers.SerializerMethodField(help_text="The card's page; null while it is not in the database.")

    def get_is_new(self, change: CardChange) -> bool:
        return change.base is None

    def _exists(self, change: CardChange) -> bool:
        return change.key in self.context.get("existing", set())

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_url(self, change: CardChange) -> str | None:
        if not self._exists(change):
            return None
        game = change.change_set.game.slug
        return reverse("api:card-detail", kwargs={"game": game, "key": change.key}, request=self.context.get("request"))

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_html_url(self, change: CardChange) -> str | None:
        if not self._exists(change):
            return None
        return _absolute(self, django_reverse("cards:card_detail", args=[change.change_set.game.slug, change.key]))


class ChangeSetDetailSerializer(ChangeSetSerializer):
    cards = serializers.SerializerMethodField(help_text="Each card the change set adds or changes, in its order.")
    source_photo = StoredImageSerializer(allow_null=True, help_text="The photo or scan the values come from.")
    images = ImageChangeSerializer(
        source="image_changes", many=True, help_text="Pictures the change set adds to cards or takes off them."
    )

    class Meta(ChangeSetSerializer.Meta):
        fields = [*ChangeSetSerializer.Meta.fields, "cards", "source_photo", "images"]

    @extend_schema_field(CardChangeSerializer(many=True))
    def get_cards(self, change_set: ChangeSet) -> list[dict[str, Any]]:
        changes = list(change_set.changes.all())
        for change in changes:
            change.change_set = change_set  # its game, without a query per card
        return list(CardChangeSerializer(changes, many=True, context=self.context).data)


class CardChangedSinceSerializer(ErrorSerializer):
    """The error of a change that cannot be made in the present state; `cards` when a card changed meanwhile."""

    cards = serializers.DictField(
        required=False,
        child=serializers.JSONField(allow_null=True),
        help_text="With `card_changed_since`: by key, each card that changed, as it is now (null: not in the "
        "database); GET /api/cards/{game}/{key}/ gives its `state_digest`.",
    )


# --- seed conflicts


class SeedConflictSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.SlugField(source="card.game.slug")
    key = serializers.CharField(source="card.key")
    html_url = serializers.SerializerMethodField(help_text="The review queue on the site, where it can be settled.")
    current = serializers.SerializerMethodField(
        help_text="The card as it is now (number, kind, fields, source, texts): someone changed it after the seed "
        "was loaded."
    )
    seed = serializers.JSONField(help_text="The card as the seed files now give it.")
    base = serializers.JSONField(
        help_text="The card as the seed files gave it before (null: loaded before seed states were kept)."
    )
    state_digest = serializers.SerializerMethodField(help_text="Send back as `seen` to settle it.")
    seed_digest = serializers.SerializerMethodField(help_text="Send back as `seed_seen` to settle it.")
    found_at = serializers.DateTimeField(help_text="When the seed files were last found to differ.")

    @extend_schema_field(OpenApiTypes.URI)
    def get_html_url(self, conflict: SeedConflict) -> str:
        return _absolute(self, django_reverse("contributions:review_queue") + f"?game={conflict.card.game.slug}")

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_current(self, conflict: SeedConflict) -> dict[str, Any]:
        return card_state(conflict.card)

    def get_state_digest(self, conflict: SeedConflict) -> str:
        return state_digest(card_state(conflict.card))

    def get_seed_digest(self, conflict: SeedConflict) -> str:
        return state_digest(conflict.seed)


class SeedConflictResolveSerializer(JSONBodySerializer):
    take = serializers.ChoiceField(
        choices=["current", "seed"],
        help_text="current: keep the card as it is; seed: take the seed's values (a new revision whose source is "
        "the seed, by you).",
    )
    seen = serializers.CharField(
        max_length=32,
        allow_blank=True,
        validators=[RegexValidator(DIGEST_PATTERN)],
        help_text="`state_digest` of the conflict as read: if the card changed since, 409 and nothing is done.",
    )
    seed_seen = serializers.CharField(
        max_length=32,
        allow_blank=True,
        validators=[RegexValidator(DIGEST_PATTERN)],
        help_text="`seed_digest` of the conflict as read: if the seed files changed it since, 409.",
    )


# --- an editor's work beyond change sets: revert, restore, block


class ChangedValueSerializer(serializers.Serializer):
    what = serializers.CharField(
        help_text='The value: "number", "kind", "source", "fields.<field>", "texts.<language>.<part>" or '
        '"translations.<language>.<track>.<part>".'
    )
    # Declared fields are taken off the class by DRF's serializer metaclass: no clash with Field.label.
    label = serializers.CharField(help_text="Its name, in the request's language (攻撃力, 日本語: 名前).")  # type: ignore[assignment]
    before = serializers.JSONField(help_text="The value before the revision; null where there was none.")
    after = serializers.JSONField(help_text="The value the revision set; null where it took it away.")


class RevisionSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Send it as `revision` to revert this revision (editors).")
    date = serializers.DateTimeField(help_text="When it was made.")
    user = serializers.CharField(
        allow_blank=True, help_text="Who made it; empty when no user did (a seed load, an import)."
    )
    source_kind = serializers.CharField(
        source="kind",
        allow_blank=True,
        help_text="seed, import, admin, contribution, revert, restore …; empty when none was recorded.",
    )
    source_detail = serializers.CharField(
        source="detail",
        allow_blank=True,
        help_text="The file, the change set, or the revision reverted or restored from.",
    )
    source_url = serializers.CharField(source="url", allow_blank=True, help_text="A page about the source, or empty.")
    photo_url = serializers.CharField(
        allow_blank=True, help_text="The photo or scan of the card the values came from, or empty."
    )
    source = serializers.SerializerMethodField(  # type: ignore[assignment]  # a declared field, not Field.source
        help_text="Where it came from, in the reader's language, as the card's history page says it: for a revert "
        "or a restore, the revision it names with that revision's date and author."
    )
    changes = serializers.SerializerMethodField(help_text="The values it changed, against the revision before.")

    def get_source(self, revision: Any) -> str:
        with translation.override(self.context["language"]):
            return revision_source_text(revision)

    @extend_schema_field(ChangedValueSerializer(many=True))
    def get_changes(self, revision: Any) -> list[dict[str, Any]]:
        definition, language = self.context["definition"], self.context["language"]
        return [
            {
                "what": change.what,
                "label": str(value_name(definition, change.what, language)),
                "before": change.before,
                "after": change.after,
            }
            for change in revision.changes
        ]


class CardHistorySerializer(serializers.Serializer):
    game = serializers.SlugField(source="card.game.slug")
    key = serializers.CharField(source="card.key")
    state_digest = serializers.CharField(
        help_text="The card's state now: send it as `seen` to revert a revision (POST …/revert/), so that a revert "
        "of a card changed since is refused."
    )
    revisions = RevisionSerializer(many=True, help_text="Newest first; the last one made the card.")


class RevertSerializer(JSONBodySerializer):
    revision = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        help_text="The `id` of the revision to undo (GET /api/cards/{game}/{key}/history/).",
    )
    seen = serializers.CharField(
        max_length=32,
        allow_blank=True,
        validators=[RegexValidator(DIGEST_PATTERN)],
        help_text="The `state_digest` of the card as read: if the card changed since, 409 with the card as it is "
        "now, and nothing is done.",
    )


class DeletedCardSerializer(serializers.Serializer):
    version_id = serializers.IntegerField(help_text="Restore it with POST …/deleted-cards/{version_id}/restore/.")
    key = serializers.CharField()
    number = serializers.CharField(allow_null=True, help_text="The printed number; null if not known.")
    revision_id = serializers.IntegerField(help_text="Its last revision, which a restore brings back.")
    date = serializers.DateTimeField(help_text="When its last revision was made.")


class BlockSerializer(JSONBodySerializer):
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="Why, kept with the block for the game's editors (optional).",
    )


class BlockedUserSerializer(serializers.Serializer):
    game = serializers.SlugField(source="game.slug")
    user = serializers.IntegerField(source="user_id", help_text="The blocked user's id.")
    username = serializers.CharField(source="user.get_username")
    blocked_by = serializers.CharField(
        source="granted_by.get_username",
        allow_null=True,
        default=None,
        help_text="The editor who blocked them (null: that account is gone).",
    )
    note = serializers.CharField(allow_blank=True, help_text="Why, as the editor noted it.")
