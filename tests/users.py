"""Test accounts: one password for every test user (the shared ``owner`` and ``other`` are fixtures in conftest)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

PASSWORD = "correct-horse-battery-42"


def make_user(name: str = "owner"):
    return get_user_model().objects.create_user(name, password=PASSWORD)


def make_editor(game, name: str = "editor"):
    """A user who edits ``game``'s cards (a ``GameRole``, not a superuser)."""
    from contributions.models import GameRole

    user = make_user(name)
    GameRole.objects.create(user=user, game=game, role=GameRole.Role.EDITOR)
    return user
