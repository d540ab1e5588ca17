"""The sign-up form: Django's, with the site's rules for a user name."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from cardsite.text import plain_name

from . import selectors
from .services import LOOKS_TAKEN


class SignupForm(UserCreationForm):
    """A user name holds no invisible or control character and does not look like one taken (``аlice`` with a
    Cyrillic а beside ``alice``; Django's own check already refuses ``ALICE`` and ``ＡＬＩＣＥ``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.append(plain_name(_("user name")))

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and selectors.name_looks_taken(username):
            raise ValidationError(LOOKS_TAKEN, code="username_looks_taken")
        return username
