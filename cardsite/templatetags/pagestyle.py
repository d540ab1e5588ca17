"""The site's stylesheet, inlined in base.html's head (cardsite.stylesheet)."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from cardsite.stylesheet import site_stylesheet

register = template.Library()


@register.simple_tag
def site_style() -> SafeString:
    """site.css as a style element's content: the project's own file, no reader's text, and checked to hold no
    "<" (cardsite.stylesheet.minify); the Content-Security-Policy allows exactly this text by its hash."""
    return mark_safe(site_stylesheet())
