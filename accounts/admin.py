"""API tokens in the admin: listed and revoked, never made there.

knox's own admin makes a token for any user, of any lifetime, and shows its secret to whoever made it: a
second way around the limit of tokens per user and a way to act as someone else. Tokens are made by their
owner only (``accounts.services.token_create``: the API and the tokens page)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken

from cardsite.text import plain_name

from . import selectors
from .services import LOOKS_TAKEN

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


class _SiteNameRules:
    """The sign-up form's rules for a user name, in the admin's forms too: no invisible or control character,
    and no name that looks like another user's (the admin is a second door to the same table)."""

    def _add_name_rules(self) -> None:
        field = self.fields.get("username")  # type: ignore[attr-defined]
        if field is not None:
            field.validators.append(plain_name(_("user name")))

    def clean_username(self) -> str:
        inherited = getattr(super(), "clean_username", None)
        username = inherited() if inherited is not None else self.cleaned_data.get("username")  # type: ignore[attr-defined]
        instance = getattr(self, "instance", None)
        exclude = instance.pk if instance is not None and instance.pk else None
        if username and selectors.name_looks_taken(username, exclude_pk=exclude):
            raise ValidationError(LOOKS_TAKEN, code="username_looks_taken")
        return str(username)


class SiteUserCreationForm(_SiteNameRules, AdminUserCreationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._add_name_rules()


class SiteUserChangeForm(_SiteNameRules, UserChangeForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._add_name_rules()


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    form = SiteUserChangeForm
    add_form = SiteUserCreationForm
