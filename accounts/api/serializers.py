"""What the token API takes and sends."""

from __future__ import annotations

from rest_framework import serializers

from cardsite.api_inputs import KnownKeysSerializer


class CredentialsSerializer(KnownKeysSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})


class NewTokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="The secret: send it as `Authorization: Token <token>`. Shown only once.")
    token_key = serializers.CharField(help_text="The token's first characters: how it is listed and revoked.")
    expiry = serializers.DateTimeField(allow_null=True, help_text="When it stops working.")


class TokenSerializer(serializers.Serializer):
    token_key = serializers.CharField(help_text="The token's first characters.")
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)
    current = serializers.SerializerMethodField(help_text="Whether this request was made with this token.")

    def get_current(self, token) -> bool:
        used = getattr(self.context.get("request"), "auth", None)
        return getattr(used, "digest", None) == token.digest
