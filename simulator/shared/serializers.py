"""What the simulator's API answers share: an assumed value as a deck's list and every result made with it give
it (``assumptions.selectors.exported``)."""

from __future__ import annotations

from rest_framework import serializers

KEY_HELP = "The card's key, or an assumed card's (`assumed:<kind>:<n>`)."
FIELD_HELP = "The value's name, as the game's card fields name it (`at`, `cost` …), or `kind`."


class AssumptionSerializer(serializers.Serializer):
    key = serializers.CharField(help_text=KEY_HELP)
    field = serializers.CharField(help_text=FIELD_HELP)
    field_label = serializers.CharField(help_text="The value's name in the request's language.")
    value = serializers.JSONField(help_text="As stored (the game's field type's form).")
    contribute_url = serializers.URLField(
        help_text="The contribution form that would make the value card data (an assumed card: a new card's form)."
    )
