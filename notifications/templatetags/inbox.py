"""``{% unread_notifications as n %}``: the signed-in user's unread notifications of every kind, for the navigation."""

from __future__ import annotations

from typing import Any

from django import template

from .. import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context: dict[str, Any]) -> int:
    request = context.get("request")
    return selectors.unread_count(getattr(request, "user", None))
