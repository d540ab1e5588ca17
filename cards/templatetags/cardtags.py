from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, pgettext

from cards.gamedefs.base import GameDefinition
from cards.models import Game
from cards.presentation import LANGUAGE_NAMES
from cardsite.labels import ShownName

register = template.Library()


@register.filter
def game_name(game: Game | GameDefinition) -> ShownName:
    """The game's name (as text where a tag cannot be: a title, an attribute; ``|in_its_language`` in a page)."""
    definition = game.definition if isinstance(game, Game) else game
    return definition.shown_name(get_language() or "ja")


@register.filter
def card_name(card) -> str:
    return card.display_name(get_language() or "ja")


@register.filter
def shown_name(card) -> ShownName:
    return card.shown_name(get_language() or "ja")


def _foreign_language(name: ShownName | str) -> str | None:
    """The name's language where it is not the page's, else None (a plain string: in the page's)."""
    language = getattr(name, "language", None)
    if language is None or language.lower() == (get_language() or "").lower():
        return None
    return language


def converted_note() -> str:
    """The note beside a text converted for the reader (Traditional to Simplified Chinese) when shown."""
    return pgettext("a card text shown converted", "Converted automatically from Traditional Chinese")


@register.filter
def in_its_language(name: ShownName | str) -> SafeString:
    """The name, marked with its language where that is not the page's (WCAG's "language of parts"); a name
    converted when shown (Simplified from the stored Traditional) says so."""
    if getattr(name, "converted_from", None):
        return format_html(
            '<span class="converted" data-converted-from="{}" title="{}">{}</span>',
            name.converted_from,  # type: ignore[union-attr]
            converted_note(),
            name,
        )
    language = _foreign_language(name)
    if language is None:
        return conditional_escape(name)
    return format_html('<span lang="{}">{}</span>', language, name)


@register.filter
def lang_attribute(name: ShownName | str) -> SafeString:
    """`` lang="…"`` for an element that holds only the name (as ``in_its_language``), else nothing."""
    language = _foreign_language(name)
    return format_html(' lang="{}"', language) if language else SafeString("")


@register.filter
def language_name(code: str) -> str:
    """A stored language code named in the reader's language (英語 on a Japanese page)."""
    return str(LANGUAGE_NAMES.get(code, code))
