"""Serializers of the whole games' comparisons (``/api/simulator/games/<game>/comparisons/``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from cardsite.api_inputs import KnownKeysSerializer

from ..fullgames import all_fullgames
from ..inputs import MAX_SEED
from ..models import ComparisonRun
from ..setups import selectors as setup_selectors
from .services import MAX_GAMES, MAX_STRATEGIES, MIN_STRATEGIES


def _strategy_names() -> list[str]:
    return sorted({name for fullgame in all_fullgames() for name in fullgame.strategies})


class ComparisonRequestSerializer(KnownKeysSerializer):
    strategies = serializers.ListField(
        child=serializers.CharField(max_length=200),
        min_length=1,
        max_length=MAX_STRATEGIES,
        help_text=f"{MIN_STRATEGIES} to {MAX_STRATEGIES} strategies, one per seat (the seats rotate): a shipped "
        f"strategy by name ({', '.join(_strategy_names())}), a written one as `written:<id>` (your own or a public "
        "one) or `written:<id>:<token>` (shared by link). A strategy may be named twice (against itself).",
    )
    games = serializers.IntegerField(
        min_value=1, max_value=MAX_GAMES, help_text="Games per strategy, rounded up to whole blocks of seats."
    )
    sequential = serializers.BooleanField(
        default=False, help_text="Stop once the leaders differ at the level corrected for the looks and pairs."
    )
    abilities = serializers.ListField(
        child=serializers.CharField(max_length=100),
        required=False,
        default=list,
        max_length=50,
        help_text="The keys of the 9 ability piles written out instead of a `deck`; empty: the first 9 by number.",
    )
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False, help_text="Random if absent.")
    setups = serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        default=list,
        max_length=MAX_STRATEGIES,
        help_text="One strategy on several decks (each a table's choice of piles): 2 to 4 of `default` (the first "
        "piles by number), a deck's id (your own deck of the game) or `<id>:<token>` (a deck shared by link); then "
        "`strategies` names exactly one strategy, and each deck plays its own games against `opponents`.",
    )
    deck = serializers.CharField(max_length=80, required=False, default="", help_text=setup_selectors.DECK_HELP)
    opponents = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False, default=list, max_length=MAX_STRATEGIES - 1
    )

    def validate(self, data: dict) -> dict:
        if not data.get("setups") and len(data["strategies"]) < MIN_STRATEGIES:
            raise serializers.ValidationError(
                {
                    "strategies": [
                        _("At least %(count)s strategies, or one on several set-ups.") % {"count": MIN_STRATEGIES}
                    ]
                }
            )
        return data


class MissingValueSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    value = serializers.CharField(help_text="The value's name; empty when the card itself is missing.")
    role = serializers.CharField()
    url = serializers.CharField(help_text="Where the value (or card) is filled in.")
    text = serializers.CharField()


class SetupSerializer(serializers.Serializer):
    ready = serializers.BooleanField()
    missing = MissingValueSerializer(many=True)
    strategies = serializers.DictField(child=serializers.CharField(), help_text="Shipped strategies, named.")


class ComparisonRunSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    cancel_url = serializers.SerializerMethodField()
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    requester = serializers.CharField(source="requester.username", read_only=True)
    planned = serializers.IntegerField(read_only=True, help_text="Games per strategy, in whole blocks.")
    progress = serializers.IntegerField(read_only=True, help_text="Games per strategy played so far.")
    result = serializers.JSONField(
        help_text="Per strategy: games, wins, draws, win_rate with its 95% Wilson `interval`, mean_darc, mean_turns "
        "and battle `placings`; `leaders` with the paired test's p_value, the corrected threshold and whether the "
        "difference is `significant`; null until a chunk of games is saved."
    )
    error = serializers.CharField(source="error_message", read_only=True)

    class Meta:
        model = ComparisonRun
        fields = [
            "id", "url", "cancel_url", "game", "requester", "strategies", "setup_names", "opponents", "abilities",
            "games", "planned",
            "sequential", "seed", "status", "progress", "result", "error", "error_code", "created_at", "started_at",
            "finished_at",
        ]  # fmt: skip

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, run: ComparisonRun) -> str:
        return reverse("simulator_api:comparison", args=[run.pk], request=self.context.get("request"))

    @extend_schema_field(OpenApiTypes.URI)
    def get_cancel_url(self, run: ComparisonRun) -> str:
        return reverse("simulator_api:comparison-cancel", args=[run.pk], request=self.context.get("request"))
