"""The site header's link to the review queue, for those who review a game's changes (editors)."""

from __future__ import annotations

from typing import Any

from django import template

from contributions import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def reviews_changes(context: dict[str, Any]) -> bool:
    """Whether the reader reviews the change sets of at least one game."""
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return False
    return selectors.reviewed_games(user).exists()
