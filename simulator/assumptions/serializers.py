"""What the assumptions API takes and sends: one assumed value (a card's key, the value's name, the value), a
batch of them, and the deck's list."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardsite.api_inputs import JSONBodySerializer
from cardsite.text import plain_name
from decks.api.serializers import DeckParametersSerializer

from ..shared.serializers import FIELD_HELP, KEY_HELP, AssumptionSerializer
from .services import MAX_ROWS


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


class AssumptionListSerializer(serializers.Serializer):
    deck = serializers.IntegerField()
    game = serializers.SlugField()
    count = serializers.IntegerField(help_text="How many values the deck assumes.")
    assumptions = AssumptionSerializer(many=True)


class AssumptionBulkAnswerSerializer(AssumptionListSerializer):
    written = serializers.IntegerField(help_text="How many values the batch wrote (a value given twice: once).")
