"""What the API of the public deck space sends and takes (``community.api.views``)."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from cards.api.games import GameSlugField
from cards.api.serializers import CardQueryField
from cardsite.api_inputs import NAME_PATTERN, JSONBodySerializer, LanguageSerializer
from cardsite.text import plain_name, plain_text

from .. import markdown, services
from ..models import MAX_TITLE_LENGTH, Comment, ModerationAction, Publication, Report
from ..selectors import MAX_QUERY_LENGTH, Sort, snapshot_placeholders

MAX_IDS = 500
TEXT_PATTERN = NAME_PATTERN  # something other than white space, no NUL


def _text(max_length: int, plain: Any, **options: Any) -> serializers.CharField:
    return serializers.CharField(
        max_length=max_length,
        trim_whitespace=False,
        validators=[RegexValidator(TEXT_PATTERN, message=serializers.CharField.default_error_messages["blank"]), plain],
        **options,
    )


# --- reading


class PublicationSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField(help_text="The publication's page on the site.")
    game = serializers.SlugField(source="game.slug")
    author = serializers.CharField(source="author.get_username", help_text="The author's user name.")
    liked = serializers.SerializerMethodField(help_text="Whether the requesting user likes it.")
    favourite = serializers.SerializerMethodField(help_text="Whether it is among the requesting user's favourites.")

    class Meta:
        model = Publication
        fields = [
            "id",
            "url",
            "page",
            "game",
            "title",
            "author",
            "published_at",
            "is_current",
            "hidden",
            "withdrawn_at",
            "like_count",
            "favourite_count",
            "copy_count",
            "comment_count",
            "liked",
            "favourite",
        ]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, publication: Publication) -> str:
        return reverse(
            "community_api:publication-detail", kwargs={"pk": publication.pk}, request=self.context.get("request")
        )

    @extend_schema_field(OpenApiTypes.URI)
    def get_page(self, publication: Publication) -> str:
        return reverse("community:detail", args=[publication.pk], request=self.context.get("request"))

    def get_liked(self, publication: Publication) -> bool:
        return publication.pk in self.context.get("liked", ())

    def get_favourite(self, publication: Publication) -> bool:
        return publication.pk in self.context.get("kept", ())


class PublicationEntrySerializer(serializers.Serializer):
    zone = serializers.CharField()
    card = serializers.CharField(help_text="The card's key.")
    count = serializers.IntegerField()


class PublicationPlaceholderSerializer(serializers.Serializer):
    zone = serializers.CharField(help_text="The zone the game puts this kind in.")
    kind = serializers.CharField(help_text="A kind the game declares as a placeholder (decks.rules).")
    values = serializers.DictField(
        child=serializers.IntegerField(), help_text="The stated values (0–99); a value not stated is unknown."
    )
    name = serializers.CharField(allow_blank=True)
    count = serializers.IntegerField()
    # Declared fields are taken off the class by DRF's serializer metaclass: no clash with Field.label.
    label = serializers.CharField(help_text="How the site shows it, in the response language.")  # type: ignore[assignment]


class PublicationDetailSerializer(PublicationSerializer):
    description_html = serializers.SerializerMethodField(help_text="The description rendered and sanitised.")
    entries = PublicationEntrySerializer(many=True, help_text="The cards as they were when it was published.")
    placeholders = serializers.SerializerMethodField(
        help_text="The placeholder cards as they were when it was published: cards the database did not hold, "
        "with the values the author stated; never among the entries."
    )
    deck = serializers.SerializerMethodField(help_text="For its author only (null for others): the deck's id.")
    snapshots = serializers.SerializerMethodField(
        help_text="The ids of every publication of the same deck, newest first."
    )

    class Meta(PublicationSerializer.Meta):
        fields = [
            *PublicationSerializer.Meta.fields,
            "description",
            "description_html",
            "mode",
            "options",
            "entries",
            "placeholders",
            "deck",
            "snapshots",
        ]

    def get_description_html(self, publication: Publication) -> str:
        return markdown.render(publication.description)

    @extend_schema_field(PublicationPlaceholderSerializer(many=True))
    def get_placeholders(self, publication: Publication) -> list[dict[str, Any]]:
        shown = snapshot_placeholders(publication, self.context.get("language") or "ja")
        names = ("zone", "kind", "values", "name", "count", "label")
        return [{name: row[name] for name in names} for row in shown]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_deck(self, publication: Publication) -> int | None:
        user = getattr(self.context.get("request"), "user", None)
        return publication.deck_id if user is not None and user.pk == publication.author_id else None

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_snapshots(self, publication: Publication) -> list[int]:
        return [p.pk for p in self.context.get("snapshots", [publication])]


class CommentSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.get_username")
    # A field named like Field.parent: DRF's serializer metaclass takes declared fields off the class, so the two
    # never meet at run time.
    parent = serializers.IntegerField(  # type: ignore[assignment]
        source="parent_id", allow_null=True, help_text="The comment it replies to."
    )
    body_html = serializers.SerializerMethodField(help_text="The comment rendered and sanitised.")

    class Meta:
        model = Comment
        fields = ["id", "parent", "author", "body", "body_html", "created_at", "hidden"]

    def get_body_html(self, comment: Comment) -> str:
        return markdown.render(comment.body)


class MarkSerializer(serializers.Serializer):
    on = serializers.BooleanField(help_text="Whether the requesting user now has the mark (a like, a favourite).")
    like_count = serializers.IntegerField()
    favourite_count = serializers.IntegerField()


class CopySerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The new deck's id.")
    url = serializers.URLField(help_text="The new deck in the deck API.")


class ReportSerializer(serializers.ModelSerializer):
    reporter = serializers.CharField(source="reporter.get_username")
    publication = serializers.IntegerField(source="publication_id")
    comment = serializers.IntegerField(source="comment_id", allow_null=True)

    class Meta:
        model = Report
        fields = ["id", "reporter", "publication", "comment", "reason", "note", "created_at", "resolved_at"]


class ModerationActionSerializer(serializers.ModelSerializer):
    moderator = serializers.CharField(source="moderator.get_username", allow_null=True, default=None)
    publication = serializers.IntegerField(source="publication_id", allow_null=True)
    comment = serializers.IntegerField(source="comment_id", allow_null=True)
    user = serializers.CharField(source="user.get_username", allow_null=True, default=None)
    report = serializers.IntegerField(source="report_id", allow_null=True)

    class Meta:
        model = ModerationAction
        fields = ["id", "moderator", "action", "publication", "comment", "user", "report", "reason", "created_at"]


# --- writing


class PublishSerializer(JSONBodySerializer):
    deck = serializers.IntegerField(min_value=1, max_value=2**63 - 1, help_text="The id of one of your decks.")
    title = _text(
        MAX_TITLE_LENGTH, plain_name(_("title")), required=False, help_text="Default: the deck's name. Trimmed."
    )
    description = serializers.CharField(
        allow_blank=True,
        required=False,
        trim_whitespace=False,
        max_length=services.MAX_DESCRIPTION_LENGTH,
        validators=[plain_text(_("description"))],
        help_text="Markdown (rendered sanitised). Default: the deck's description.",
    )


class CommentWriteSerializer(JSONBodySerializer):
    body = _text(services.MAX_COMMENT_LENGTH, plain_text(_("comment")), help_text="Markdown (rendered sanitised).")
    parent = serializers.IntegerField(  # type: ignore[assignment]  # a declared field, as in CommentSerializer
        min_value=1, max_value=2**63 - 1, required=False, allow_null=True, help_text="The comment this one replies to."
    )


class ReportWriteSerializer(JSONBodySerializer):
    reason = serializers.ChoiceField(choices=Report.Reason.choices)
    note = serializers.CharField(
        allow_blank=True,
        required=False,
        trim_whitespace=False,
        max_length=services.MAX_REASON_LENGTH,
        validators=[plain_text(_("note"))],
    )
    comment = serializers.IntegerField(
        min_value=1,
        max_value=2**63 - 1,
        required=False,
        allow_null=True,
        help_text="A comment of it, if that is reported.",
    )


class ModerationWriteSerializer(JSONBodySerializer):
    action = serializers.ChoiceField(choices=ModerationAction.Action.choices)
    reason = _text(services.MAX_REASON_LENGTH, plain_text(_("reason")), help_text="Why: kept in the moderation log.")
    publication = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False, allow_null=True)
    comment = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False, allow_null=True)
    user = serializers.CharField(max_length=150, required=False, help_text="A user name (to block or unblock).")
    report = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False, allow_null=True)


# --- query parameters


class PublicationListParametersSerializer(LanguageSerializer):
    game = GameSlugField(required=False, help_text="Only publications of this game.")
    sort = serializers.ChoiceField(choices=list(Sort.CHOICES), required=False, help_text="Default: newest.")
    include = CardQueryField(
        required=False,
        allow_blank=True,
        max_length=MAX_QUERY_LENGTH,
        trim_whitespace=False,
        help_text="Only decks holding a card this query (the search language) finds.",
    )
    exclude = CardQueryField(
        required=False,
        allow_blank=True,
        max_length=MAX_QUERY_LENGTH,
        trim_whitespace=False,
        help_text="Only decks holding no card this query finds.",
    )
    favourites = serializers.BooleanField(required=False, help_text="Only the user's favourites (needs credentials).")
