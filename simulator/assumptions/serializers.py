"""What the assumptions API takes and sends: one assumed value (a card's key, the value's name, the value), a
batch of them, and the deck's list."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardsite.api_inputs import JSONBodySerializer
from cardsite.text import plain_name
from decks.api.serializers import DeckParametersSerializer

from .services import MAX_ROWS

KEY_HELP = "The card's key, or an assumed card's (`assumed:<kind>:<n>`)."
FIELD_HELP = "The value's name, as the game's card fields name it (`at`, `cost` …), or `kind`."


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "minLength": 1, "maxLength": 200},
            {"type": "number"},
            {"type": "boolean"},
            {"type": "array", "items": {"type": "string"}},
        ],
        "description": "The value as a card would give it; checked as the game's field type checks a card's.",
    }
)
class AssumedValueField(serializers.JSONField):
    """Any JSON value; the game's field type decides (``services.clean_value``)."""


class AssumptionWriteSerializer(JSONBodySerializer):
    key = serializers.CharField(max_length=100, help_text=KEY_HELP, validators=[plain_name()])
    field = serializers.CharField(max_length=40, help_text=FIELD_HELP, validators=[plain_name()])
    value = AssumedValueField()


class AssumptionBulkSerializer(JSONBodySerializer):
    assumptions = serializers.ListField(
        child=AssumptionWriteSerializer(),
        min_length=1,
        max_length=MAX_ROWS,
        help_text=f"At most {MAX_ROWS:,} values; all are written or none.",
    )


class AssumptionDropParametersSerializer(DeckParametersSerializer):
    key = serializers.CharField(max_length=100, help_text=KEY_HELP)
    field = serializers.CharField(max_length=40, help_text=FIELD_HELP)


class AssumptionSerializer(serializers.Serializer):
    key = serializers.CharField(help_text=KEY_HELP)
    field = serializers.CharField(help_text=FIELD_HELP)
    field_label = serializers.CharField(help_text="The value's name in the request's language.")
    value = serializers.JSONField(help_text="As stored (the game's field type's form).")
    contribute_url = serializers.URLField(
        help_text="The contribution form that would make the value card data (an assumed card: a new card's form)."
    )


class AssumptionListSerializer(serializers.Serializer):
    deck = serializers.IntegerField()
    game = serializers.SlugField()
    count = serializers.IntegerField(help_text="How many values the deck assumes.")
    assumptions = AssumptionSerializer(many=True)


class AssumptionBulkAnswerSerializer(AssumptionListSerializer):
    written = serializers.IntegerField(help_text="How many values the batch wrote (a value given twice: once).")
