"""What the collection API sends and takes. A card is named by its key (as in ``/api/cards/<game>/<key>/``); a
count is a whole number from 0 to ``MAX_OWNED`` (``collection.rules``, the bounds of every path)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cards.api.games import GameSlugField
from cardsite.api_errors import ErrorSerializer
from cardsite.api_inputs import JSONBodySerializer, QueryParametersSerializer

from ..importing import MAX_CSV_BYTES, MAX_LIST_LENGTH
from ..models import MAX_OWNED
from ..services import MODES

MODE_PATTERN = "^(" + "|".join(MODES) + ")$"
CARD_HELP = "The card's key (as in /api/cards/<game>/<key>/)."


class GameTotalsSerializer(serializers.Serializer):
    game = GameSlugField()
    cards = serializers.IntegerField(min_value=0, help_text="Different cards owned.")
    copies = serializers.IntegerField(min_value=0, help_text="Copies owned in all.")


class OwnedSerializer(serializers.Serializer):
    card = serializers.CharField(help_text=CARD_HELP)
    number = serializers.CharField(allow_null=True, help_text="Its printed number, if any.")
    name = serializers.CharField(help_text="Its name in the response language.")
    count = serializers.IntegerField(min_value=0, max_value=MAX_OWNED, help_text="Copies owned.")


class CollectionSerializer(GameTotalsSerializer):
    owned = OwnedSerializer(many=True, help_text="Every card of the game the user owns, in the game's order.")


class CardCountSerializer(serializers.Serializer):
    card = serializers.CharField(help_text=CARD_HELP)
    count = serializers.IntegerField(min_value=0, max_value=MAX_OWNED, help_text="Copies owned now.")


class ChangeBodySerializer(JSONBodySerializer):
    card = serializers.CharField(max_length=100, help_text=CARD_HELP)
    count = serializers.IntegerField(min_value=1, max_value=MAX_OWNED, help_text="Copies to add or remove.")


class SetBodySerializer(JSONBodySerializer):
    card = serializers.CharField(max_length=100, help_text=CARD_HELP)
    count = serializers.IntegerField(min_value=0, max_value=MAX_OWNED, help_text="Copies owned from now on.")


@extend_schema_field({"type": "string", "pattern": MODE_PATTERN, "default": "add"})
class ModeField(serializers.ChoiceField):
    """add or replace, stated as a pattern: an enum would take the name of the decks' "mode" enum component."""


MODE_HELP = "add: add the copies to the collection; replace: the collection of this game becomes exactly the list."


class ListImportBodySerializer(JSONBodySerializer):
    text = serializers.CharField(
        max_length=MAX_LIST_LENGTH,
        trim_whitespace=False,
        help_text="A list in the decklist format (docs/decklists.md): `3 Name` a line; headings are ignored.",
    )
    mode = ModeField(choices=list(MODES), default="add", help_text=MODE_HELP)


class CsvImportBodySerializer(JSONBodySerializer):
    csv = serializers.CharField(
        max_length=MAX_CSV_BYTES,
        trim_whitespace=False,
        help_text="CSV text whose first line names the columns: count, and key (or card, number, name).",
    )
    mode = ModeField(choices=list(MODES), default="add", help_text=MODE_HELP)


class ImportedSerializer(GameTotalsSerializer):
    imported = serializers.IntegerField(min_value=0, help_text="Copies in the list.")


class ProblemSerializer(serializers.Serializer):
    line = serializers.IntegerField(allow_null=True, help_text="The line at fault; null for the list as a whole.")
    code = serializers.CharField(help_text="unknown-card, ambiguous, bad-count, owned-too-many, csv-header …")
    message = serializers.CharField(help_text="The problem in the request's language.")
    candidates = serializers.ListField(child=serializers.CharField(), help_text="Keys of cards it may have meant.")


class ImportErrorSerializer(ErrorSerializer):
    problems = ProblemSerializer(
        many=True, required=False, help_text="Every problem of the list, line by line (when the list was read)."
    )


class ExportSerializer(serializers.Serializer):
    game = GameSlugField()
    csv = serializers.CharField(allow_blank=True, help_text="key,number,name,count: what the CSV import reads back.")


class NeedSerializer(serializers.Serializer):
    card = serializers.CharField(help_text=CARD_HELP)
    number = serializers.CharField(allow_null=True)
    name = serializers.CharField()
    needed = serializers.IntegerField(min_value=0, help_text="Copies the deck (or decks) need.")
    owned = serializers.IntegerField(min_value=0, help_text="Copies the user owns.")
    short = serializers.IntegerField(min_value=0, help_text="Copies missing.")


class WantsSerializer(serializers.Serializer):
    deck = serializers.IntegerField()
    game = GameSlugField()
    copies_short = serializers.IntegerField(min_value=0)
    cards = NeedSerializer(many=True, help_text="Every card of the deck, with how many copies are missing.")
    text = serializers.CharField(allow_blank=True, help_text="The want list in the decklist format.")
    csv = serializers.CharField(help_text="The want list as CSV: key,number,name,needed,owned,short.")


class SharedNeedSerializer(NeedSerializer):
    per_deck = serializers.ListField(
        child=serializers.IntegerField(min_value=0), help_text="Copies each deck needs, in the order asked."
    )
    stretched = serializers.BooleanField(help_text="Enough for each deck alone, too few for all of them at once.")


class SharedSerializer(serializers.Serializer):
    decks = serializers.ListField(child=serializers.IntegerField())
    copies_short = serializers.IntegerField(min_value=0)
    cards = SharedNeedSerializer(many=True)


class SharedBodySerializer(JSONBodySerializer):
    decks = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        min_length=1,
        max_length=10,
        help_text="Ids of the user's own decks of this game (1 to 10).",
    )


class WantsParametersSerializer(QueryParametersSerializer):
    token = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=100,
        help_text="The share token of a deck shared by link (for users other than its owner).",
    )
