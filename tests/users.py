"""Test accounts: one password for every test user (the shared ``owner`` and ``other`` are fixtures in conftest)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

PASSWORD = "correct-horse-battery-42"


def make_user(name: str = "owner"):
    return get_user_model().objects.create_user(name, password=PASSWORD)
