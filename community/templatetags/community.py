"""Template helpers of the public deck space: Markdown, and the publication of a deck the reader may see."""

from __future__ import annotations

from typing import Any

from django import template

from .. import selectors

register = template.Library()


@register.filter
def markdown(text: str) -> str:
    """Markdown rendered and sanitised (``community.markdown``): safe to put in a page as it is."""
    from django.utils.safestring import mark_safe

    from ..markdown import render

    return mark_safe(render(text))  # nh3 kept only harmless tags and attributes


@register.simple_tag(takes_context=True)
def deck_publication(context: dict[str, Any], deck: Any) -> Any:
    """The current publication of ``deck`` that the reader may see, or None (for the deck page's link)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None:
        from django.contrib.auth.models import AnonymousUser

        user = AnonymousUser()
    return selectors.current_publication(user, deck)
