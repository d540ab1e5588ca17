"""What the goldfish API takes and sends for Monte Carlo runs."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from cards.api.games import game_slugs
from cardsite.api_inputs import JSONBodySerializer
from decks.api.serializers import DeckParametersSerializer

from ..assumptions import selectors as assumption_selectors
from ..core import Parameter
from ..engines import get_engine
from ..inputs import API_MAX_GAMES, DEFAULT_GAMES, DEFAULT_TURNS, MAX_EXTRA_DRAWS, MAX_SEED, MAX_TURNS
from ..models import SimulationRun
from ..shared.serializers import AssumptionSerializer

# Policies and stated parameters are the engine's of the deck's game. The schema lists those of every game
# (no two games share a parameter's slug); the views check that a policy and parameters fit the deck.


def _engines() -> list[Any]:
    return [get_engine(slug) for slug in game_slugs()]


def all_parameters() -> dict[str, Parameter]:
    """Every game's stated parameters by slug."""
    return {parameter.slug: parameter for engine in _engines() for parameter in engine.parameters}


def parameter_field(parameter: Parameter, **options: Any) -> serializers.Field:
    if parameter.choices:
        return serializers.ChoiceField(choices=[choice.value for choice in parameter.choices], **options)
    return serializers.IntegerField(min_value=parameter.minimum, max_value=parameter.maximum, **options)


@extend_schema_field({"type": "string", "enum": list(dict.fromkeys(p for e in _engines() for p in e.policies))})
class PolicyField(serializers.CharField):
    """One of the policies of the deck's game's engine."""


@extend_schema_field(
    {
        "type": "object",
        "properties": {
            slug: {"type": "integer", "enum": [c.value for c in p.choices]}
            if p.choices
            else {"type": "integer", "minimum": p.minimum, "maximum": p.maximum}
            for slug, p in all_parameters().items()
        },
        "additionalProperties": False,
    }
)
class ParametersField(serializers.DictField):
    """The stated parameters of the deck's game by slug; the schema lists every game's with its range."""

    child = serializers.IntegerField()


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": API_MAX_GAMES})
class GamesField(serializers.IntegerField):
    """Games to play: at most API_MAX_GAMES, refused with a message that names the limit (validate_games)."""


class SimulationRequestSerializer(JSONBodySerializer):
    games = GamesField(
        min_value=1,
        default=DEFAULT_GAMES,
        help_text=f"Games to play, at most {API_MAX_GAMES:,} through the API.",
    )
    turns = serializers.IntegerField(min_value=1, max_value=MAX_TURNS, default=DEFAULT_TURNS)
    policy = PolicyField(default="default", help_text="One of the policies of the deck's game.")
    parameters = ParametersField(
        required=False,
        default=dict,
        help_text="The stated parameters of the deck's game by slug (absent ones take their default).",
    )
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False, help_text="Random if absent.")

    def validate_games(self, games: int) -> int:
        if games > API_MAX_GAMES:
            raise serializers.ValidationError(
                _("At most %(most)s games can be run through the API; %(games)s were asked for.")
                % {"most": f"{API_MAX_GAMES:,}", "games": f"{games:,}"}
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
    error = serializers.CharField(
        source="error_message",
        read_only=True,
        help_text="Why the run failed, in the request's language; empty unless it failed.",
    )
    assumed_count = serializers.SerializerMethodField(
        help_text="How many values the deck assumed (where the card database gives none) that the run played with."
    )
    assumptions = serializers.SerializerMethodField(
        help_text="Those values, as the run kept them, each with the contribution form that would make it card data."
    )
    error_code = serializers.CharField(
        read_only=True,
        help_text="Why the run failed, as a code a program can test (deck_not_ready, workers_stopped, unexpected); "
        "empty unless it failed.",
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
            "assumed_count",
            "assumptions",
            "error",
            "error_code",
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

    def get_assumed_count(self, run: SimulationRun) -> int:
        return len(run.assumptions)

    @extend_schema_field(AssumptionSerializer(many=True))
    def get_assumptions(self, run: SimulationRun) -> list[dict[str, Any]]:
        request = self.context.get("request")
        named = assumption_selectors.named(run.deck.game, run.assumptions, get_language() or "ja")
        return assumption_selectors.exported(named, request.build_absolute_uri if request is not None else str)


# --- query parameters


class OddsParametersSerializer(DeckParametersSerializer):
    first_player = serializers.ChoiceField(
        choices=[0, 1], required=False, help_text="0: the odds of the second player (games with a first player)."
    )


class GoldfishParametersSerializer(DeckParametersSerializer):
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False, help_text="Random if absent.")
    turns = serializers.IntegerField(min_value=0, max_value=MAX_TURNS, required=False, help_text="Default 0.")
    policy = PolicyField(required=False, help_text="One of the policies of the deck's game; default: `default`.")
    draws = serializers.CharField(
        required=False,
        max_length=MAX_EXTRA_DRAWS * 3,
        validators=[RegexValidator(rf"^[0-9]{{1,2}}(,[0-9]{{1,2}}){{0,{MAX_EXTRA_DRAWS - 1}}}$")],
        help_text=f"Comma-separated turns (0 to `turns`, in order) after which an extra card is drawn, at most "
        f"{MAX_EXTRA_DRAWS}.",
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        # Each game's stated parameters, checked against their ranges whatever the deck's game (the view
        # uses those of the deck's game and leaves the others).
        fields = super().get_fields()
        for slug, parameter in all_parameters().items():
            fields[slug] = parameter_field(
                parameter, required=False, help_text=f"For games whose engine states it (default {parameter.default})."
            )
        return fields
