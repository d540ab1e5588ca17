"""Serializers of the readings API: a batch of photos and, for each photo, its state and what was read."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse as django_reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from cards.api.games import GameSlugField
from cards.models import Game
from cards.reading.fingerprint import DUPLICATE_DISTANCE
from cardsite.api_inputs import KnownKeysSerializer

from ..models import PhotoReading, ReadingBatch, ReadingStatus


def _absolute(serializer: serializers.Field, path: str) -> str:
    request = serializer.context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


class ReadingBatchRequestSerializer(KnownKeysSerializer):
    """For the schema: the view reads the multipart fields itself (``photo`` may come many times)."""

    game = GameSlugField(help_text="The game the photographed cards are of (a slug from /api/games/).")
    photo = serializers.ListField(
        child=serializers.FileField(),
        min_length=1,
        max_length=settings.READING_MAX_PHOTOS_PER_BATCH,
        help_text="One or more photos or scans of cards (the field repeated), JPEG, PNG or WebP, each as "
        f"POST /api/images/ takes it; at most READING_MAX_PHOTOS_PER_BATCH ({settings.READING_MAX_PHOTOS_PER_BATCH}).",
    )
    printing = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="The language the cards are printed in (the game's original or one of its translation languages), "
        "read with that language's model alone; empty: the original first, then each translation language where a "
        "line is not the original's.",
    )


class BoxSerializer(serializers.Serializer):
    left = serializers.IntegerField()
    top = serializers.IntegerField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()


class ProposalSerializer(serializers.Serializer):
    """A value the reading suggests (``cards.reading.Proposal``): never applied by itself."""

    field = serializers.CharField(help_text='"number", "name", "kind", "keyword" or a field the game declares.')
    value = serializers.JSONField(help_text="The value as the field's type cleans it (a number, a string …).")
    read = serializers.CharField(help_text="The characters it was read from, as read.")
    lines = serializers.ListField(child=serializers.IntegerField(), help_text="Indices into `lines`.")
    box = BoxSerializer(help_text="Around the words it came from, in the straightened image.")
    photo_box = BoxSerializer(help_text="The same in the photo (`url`).")
    confidence = serializers.FloatField(help_text="The least confidence of those words, 0 to 1.")
    low_confidence = serializers.BooleanField()
    notes = serializers.ListField(
        child=serializers.CharField(), help_text='"characters_corrected", "outside_declared_ranges".'
    )


class LineSerializer(serializers.Serializer):
    text = serializers.CharField()
    confidence = serializers.FloatField()
    photo_box = BoxSerializer()


class DuplicateSerializer(serializers.Serializer):
    """The card image a photo duplicates ("this card already has this image")."""

    card = serializers.CharField(help_text="The card's key.")
    card_url = serializers.URLField(help_text="The card in the API.")
    image_url = serializers.URLField(help_text="The card's picture that this photo is alike to.")
    side = serializers.CharField(help_text='"face" or "other".')
    distance = serializers.IntegerField(help_text="How many bits of the two perceptual hashes differ (of 256).")


class PhotoReadingSerializer(serializers.ModelSerializer):
    status = serializers.ChoiceField(choices=ReadingStatus.choices)
    image = serializers.IntegerField(source="image_id", help_text="The upload's id (as POST /api/images/ answers).")
    url = serializers.SerializerMethodField(help_text="The photo as kept (WebP).")
    thumbnail_url = serializers.SerializerMethodField(help_text="Its thumbnail.")
    card = serializers.SerializerMethodField(help_text="The key of the existing card matched, or null (a new card).")
    card_url = serializers.SerializerMethodField(help_text="That card in the API, or null.")
    submit_url = serializers.SerializerMethodField(help_text="Where to submit the values confirmed (POST).")
    change_set = serializers.IntegerField(
        source="change_set_id", allow_null=True, help_text="The change set submitted from this photo, or null."
    )
    matched_by = serializers.CharField(help_text='"number", "name", or "" when no card was matched.')
    lines = serializers.SerializerMethodField(help_text="The recognised lines, top to bottom (done photos).")
    proposals = serializers.SerializerMethodField()
    duplicate_of = serializers.SerializerMethodField(
        help_text="The card that already has this image: its picture's perceptual hash is within "
        f"{DUPLICATE_DISTANCE} bits (of 256) of this photo's; null when no card image is that close, or when the "
        "photo's text matched another card."
    )
    same_card_as = serializers.IntegerField(
        allow_null=True,
        help_text="The `index` of the first photo of this batch showing the same card (their hashes alike, their "
        "texts not different): the batch proposes that card once. Null for a first or only photo of a card.",
    )
    perceptual_hash = serializers.CharField(
        source="image.perceptual_hash",
        help_text='The photo\'s perceptual hash (pHash of the straightened card, 64 hexadecimal digits); "" before '
        "it is computed or for a picture without detail.",
    )
    error = serializers.SerializerMethodField(help_text="Why the reading failed, or null.")
    error_code = serializers.CharField(help_text='"reading_unavailable", "photo_unreadable", "workers_stopped" …')

    class Meta:
        model = PhotoReading
        fields = [
            "index",
            "status",
            "progress",
            "image",
            "url",
            "thumbnail_url",
            "card",
            "card_url",
            "submit_url",
            "change_set",
            "matched_by",
            "lines",
            "proposals",
            "duplicate_of",
            "same_card_as",
            "perceptual_hash",
            "error",
            "error_code",
        ]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, photo: PhotoReading) -> str:
        return _absolute(self, photo.image.url)

    @extend_schema_field(OpenApiTypes.URI)
    def get_thumbnail_url(self, photo: PhotoReading) -> str:
        return _absolute(self, photo.image.thumbnail_url)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_card(self, photo: PhotoReading) -> str | None:
        return photo.card.key if photo.card is not None else None

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_card_url(self, photo: PhotoReading) -> str | None:
        if photo.card is None:
            return None
        return _absolute(self, django_reverse("api:card-detail", args=[photo.batch.game.slug, photo.card.key]))

    @extend_schema_field(OpenApiTypes.URI)
    def get_submit_url(self, photo: PhotoReading) -> str:
        path = django_reverse("readings_api:photo-submit", args=[photo.batch_id, photo.index])
        return _absolute(self, path)

    @extend_schema_field(LineSerializer(many=True))
    def get_lines(self, photo: PhotoReading) -> list[dict[str, Any]]:
        lines = (photo.reading or {}).get("lines", [])
        return [
            {"text": line["text"], "confidence": line["confidence"], "photo_box": line["photo_box"]} for line in lines
        ]

    @extend_schema_field(ProposalSerializer(many=True))
    def get_proposals(self, photo: PhotoReading) -> list[dict[str, Any]]:
        return list(photo.proposals or [])

    @extend_schema_field(DuplicateSerializer(allow_null=True))
    def get_duplicate_of(self, photo: PhotoReading) -> dict[str, Any] | None:
        card_image = photo.duplicate_of
        if card_image is None:
            return None
        card = card_image.card
        return {
            "card": card.key,
            "card_url": _absolute(self, django_reverse("api:card-detail", args=[photo.batch.game.slug, card.key])),
            "image_url": _absolute(self, card_image.image.url),
            "side": card_image.side,
            "distance": photo.duplicate_distance,
        }

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_error(self, photo: PhotoReading) -> str | None:
        return photo.error_message or None


class ReadingBatchSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    cancel_url = serializers.SerializerMethodField()
    game: serializers.SlugRelatedField[Game] = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    status = serializers.ChoiceField(
        choices=ReadingStatus.choices,
        help_text="queued or reading while a photo waits or is read; done when every photo is done or failed; "
        "cancelled.",
    )
    photos = PhotoReadingSerializer(many=True)

    class Meta:
        model = ReadingBatch
        fields = ["id", "url", "cancel_url", "game", "printing", "status", "created_at", "finished_at", "photos"]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, batch: ReadingBatch) -> str:
        return reverse("readings_api:batch", args=[batch.pk], request=self.context.get("request"))

    @extend_schema_field(OpenApiTypes.URI)
    def get_cancel_url(self, batch: ReadingBatch) -> str:
        return reverse("readings_api:batch-cancel", args=[batch.pk], request=self.context.get("request"))


class TranslationTextSerializer(KnownKeysSerializer):
    name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    text = serializers.CharField(required=False, allow_blank=True, max_length=5000)


class PhotoSubmitSerializer(KnownKeysSerializer):
    """The values the contributor confirmed or corrected for one photo. Only the values sent are proposed: for a
    matched card, a value left out stays as the card has it."""

    key = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="A new card's key (default: its number, else its name); ignored for a matched card.",
    )
    card = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="The key of the existing card the photo shows, when the match read is wrong or missing "
        "(default: the card matched).",
    )
    number = serializers.CharField(required=False, allow_blank=True, max_length=32, help_text="As printed.")
    kind = serializers.CharField(required=False, allow_blank=True, max_length=40, help_text="A kind's slug.")
    name = serializers.CharField(
        required=False, allow_blank=True, max_length=200, help_text="The name in the game's original language."
    )
    text = serializers.CharField(
        required=False, allow_blank=True, max_length=5000, help_text="The card's text in that language."
    )
    # Declared fields are taken off the class by DRF's serializer metaclass: no clash with Serializer.fields.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.JSONField(),
        required=False,
        help_text='Declared fields by name (e.g. {"attack": 3}); null or "" removes a value.',
    )
    translations = serializers.DictField(
        child=TranslationTextSerializer(),
        required=False,
        help_text='The name and text in the game\'s translation languages, by language: {"zh-hant": {"name": …}}.',
    )
    image = serializers.BooleanField(
        required=False, default=True, help_text="Propose the photo as the card's image (default true)."
    )
    seen = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="The matched card's state_digest as the contributor saw it: refused (409) if it changed since.",
    )


class PhotoSubmitResultSerializer(serializers.Serializer):
    change_set = serializers.IntegerField(help_text="The change set's id.")
    url = serializers.URLField(help_text="The change set in the API.")
    status = serializers.CharField(help_text="pending (waits for an editor) or accepted (applied at once).")
    created = serializers.BooleanField(help_text="False: this photo had been submitted already (this change set).")


class PhotoChoiceSerializer(KnownKeysSerializer):
    """What the contributor chose for one photo of the batch. A value neither taken nor edited is left as the
    matched card stores it, and is not proposed for a new card."""

    photo = serializers.IntegerField(min_value=1, help_text="The photo's `index` in the batch.")
    take = serializers.ListField(
        child=serializers.CharField(max_length=80),
        required=False,
        max_length=100,
        help_text='The values whose reading is taken: "number", "kind", "name", "text", "fields.<name>", '
        '"translations.<language>.name" or ".text" (the names of `values` in GET …/review/).',
    )
    edit = serializers.DictField(
        child=serializers.JSONField(allow_null=True),
        required=False,
        help_text='Values the contributor gives, by the same names (e.g. {"fields.at": 3}); "" or null makes it '
        "unknown.",
    )
    image = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Propose the photo as the card's picture (default: yes for a new card proposed, no for a card the "
        "site has).",
    )
    card = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="The key of the existing card the photo shows, when the match read is wrong or missing.",
    )
    key = serializers.CharField(
        required=False, allow_blank=True, max_length=100, help_text="A new card's key (default: its number, else name)."
    )
    seen = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="The matched card's `seen` from GET …/review/: refused (409) if the card changed since.",
    )


class BatchSubmitSerializer(KnownKeysSerializer):
    choices = PhotoChoiceSerializer(many=True, required=False, help_text="One entry per photo chosen for.")
    take_sure = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Also take, on every photo left, each reading at least READING_SURE_AT_LEAST sure (a value "
        "edited or taken in `choices` is as chosen there).",
    )


class BatchSubmitResultSerializer(serializers.Serializer):
    change_set = serializers.IntegerField(allow_null=True, help_text="The change set's id; null: nothing changes.")
    url = serializers.URLField(allow_null=True, help_text="The change set in the API, or null.")
    status = serializers.CharField(allow_null=True, help_text="pending or accepted; null when nothing changes.")
    created = serializers.BooleanField(help_text="False: nothing changes, or these photos were submitted already.")
    photos = serializers.ListField(child=serializers.IntegerField(), help_text="The photos the change set holds.")


class CorrectionSerializer(serializers.Serializer):
    read = serializers.CharField(help_text="As read.")
    restored = serializers.CharField(help_text="As the game prints it.")
    said = serializers.CharField(help_text="The correction said in the reader's language.")


class ReviewValueSerializer(serializers.Serializer):
    value = serializers.CharField(help_text='The value\'s name for `take` and `edit` ("fields.at" …).')
    read = serializers.JSONField(help_text="What was read, as the value it proposes.")
    stored = serializers.JSONField(
        required=False, help_text="A matched card's value now (null: unknown); absent for a new card."
    )
    confidence = serializers.IntegerField(help_text="How sure the reading is, in percent.")
    sure = serializers.BooleanField(help_text="At least READING_SURE_AT_LEAST sure: `take_sure` takes it.")
    to_decide = serializers.BooleanField(help_text="Not sure: the contributor decides it.")
    corrections = CorrectionSerializer(many=True, help_text="Symbols restored as the game prints them.")


class ReviewPhotoSerializer(serializers.Serializer):
    photo = serializers.IntegerField(help_text="The photo's `index`.")
    card = serializers.CharField(allow_null=True, help_text="The key of the card the photo shows, or null (new).")
    seen = serializers.CharField(help_text="The matched card's state as shown (send it back as `seen`).")
    actions = serializers.IntegerField(help_text="How many values are left to decide (the readings not sure).")
    values = ReviewValueSerializer(many=True)


class BatchReviewSerializer(serializers.Serializer):
    photos = ReviewPhotoSerializer(many=True, help_text="Every photo read and not yet submitted.")
