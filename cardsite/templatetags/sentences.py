"""Sentences joined as the reader's language writes them (cardsite.labels.join_sentences)."""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from cardsite.labels import join_sentences

register = template.Library()


@register.simple_tag
def sentences(*parts: str) -> SafeString:
    """``parts`` run together: with a space in English, none after Japanese and Chinese 。 or ：."""
    escaped = [str(conditional_escape(part)) for part in parts]
    return mark_safe(join_sentences(escaped, get_language() or "ja"))
