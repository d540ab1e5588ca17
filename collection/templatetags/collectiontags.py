"""``{% owned_control card %}``: the +/− of a card in the signed-in user's collection (``counts``: the counts of a
page of cards read at once, ``collection.selectors.owned_counts``); a sign-in prompt (``prompt``) or nothing for
someone not signed in."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from ..selectors import owned_count

register = template.Library()


@register.inclusion_tag("collection/_owned.html", takes_context=True)
def owned_control(
    context: Mapping[str, Any], card: Any, counts: Mapping[int, int] | None = None, prompt: bool = False
) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    signed_in = bool(user is not None and user.is_authenticated)
    if not signed_in:
        return {"card": card, "signed_in": False, "prompt": prompt, "request": request}
    owned = counts.get(card.pk, 0) if counts is not None else owned_count(user, card)
    return {
        "card": card,
        "signed_in": True,
        "owned": owned,
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }


@register.filter
def owned_of(counts: Mapping[int, int] | None, card: Any) -> int:
    """``{{ owned|owned_of:card }}``: copies of ``card`` in ``counts`` (0 when it is not there)."""
    return (counts or {}).get(getattr(card, "pk", card), 0)
