"""API tokens in the admin: listed and revoked, never made there.

knox's own admin makes a token for any user, of any lifetime, and shows its secret to whoever made it: a
second way around the limit of tokens per user and a way to act as someone else. Tokens are made by their
owner only (``accounts.services.token_create``: the API and the tokens page)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from knox.models import AuthToken

if admin.site.is_registered(AuthToken):
    admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class AuthTokenAdmin(admin.ModelAdmin):
    list_display = ("token_key", "user", "created", "expiry")
    search_fields = ("token_key", f"user__{get_user_model().USERNAME_FIELD}")
    fields = ("token_key", "user", "created", "expiry")
    readonly_fields = fields

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False
