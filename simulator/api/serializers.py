"""What the goldfish API takes and sends for Monte Carlo runs."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from ..inputs import API_MAX_GAMES, DEFAULT_GAMES, DEFAULT_TURNS, MAX_TURNS
from ..models import SimulationRun


class SimulationRequestSerializer(serializers.Serializer):
    games = serializers.IntegerField(
        min_value=1,
        default=DEFAULT_GAMES,
        help_text=f"Games to play, at most {API_MAX_GAMES:,} through the API.",
    )
    turns = serializers.IntegerField(min_value=1, max_value=MAX_TURNS, default=DEFAULT_TURNS)
    policy = serializers.CharField(default="default", help_text="One of the game's policies.")
    parameters = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        default=dict,
        help_text="The game's stated parameters by slug (absent ones take their default).",
    )
    seed = serializers.IntegerField(min_value=0, max_value=2**63 - 1, required=False, help_text="Random if absent.")

    def validate_games(self, games: int) -> int:
        if games > API_MAX_GAMES:
            raise serializers.ValidationError(
                f"At most {API_MAX_GAMES:,} games can be run through the API; {games:,} were asked for."
            )
        return games


class SimulationRunSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    cancel_url = serializers.SerializerMethodField()
    deck = serializers.IntegerField(source="deck_id")
    game = serializers.SlugField(source="deck.game.slug")
    requester = serializers.CharField(source="requester.get_username")
    parameters = serializers.JSONField(source="params")
    result = serializers.JSONField(
        help_text="The summary (per-turn means, wins, win-turn statistics and histogram, parameters and policy); "
        "for a cancelled run, of the games played; null until the run ends."
    )

    class Meta:
        model = SimulationRun
        fields = [
            "id",
            "url",
            "cancel_url",
            "deck",
            "game",
            "requester",
            "games",
            "turns",
            "policy",
            "seed",
            "parameters",
            "status",
            "progress",
            "result",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, run: SimulationRun) -> str:
        return reverse("simulator_api:simulation", args=[run.pk], request=self.context.get("request"))

    @extend_schema_field(OpenApiTypes.URI)
    def get_cancel_url(self, run: SimulationRun) -> str:
        return reverse("simulator_api:simulation-cancel", args=[run.pk], request=self.context.get("request"))
