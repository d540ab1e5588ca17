"""What text a person may give the site: names without invisible or control characters, and longer texts
(comments, descriptions) without control characters other than line breaks and tabs.

A right-to-left override (U+202E) before ``txt.exe`` in a deck's name shows it as ``exe.txt``; a zero-width space
makes two names that look the same differ; an escape (U+001B) writes terminal commands into a log or an
export. So:

- a **name** (a deck's, a folder's, a tag's, a strategy's, a set-up's, a publication's title, a translation
  track's, a user's) holds no control character (Unicode category Cc, tab and line breaks included), no
  format character of the Basic Multilingual Plane (Cf: bidirectional embeddings, overrides and isolates,
  zero-width spaces and joiners, the word joiner, the byte order mark, the soft hyphen …), no surrogate or
  line/paragraph separator, and none of the few letters that show as nothing (Hangul fillers, the braille
  blank);
- a **text** (a comment, a description, a note) may hold line breaks and tabs, and zero-width joiners (emoji
  need them), but no other control character and no bidirectional embedding, override or isolate.

The checks are here once; forms and serializers use the validators (``plain_name``, ``plain_text``),
services call ``check_name`` and ``check_text`` with their own error class, so that pages and the API
refuse the same text with the same words: the field and the character (``U+202E RIGHT-TO-LEFT OVERRIDE``).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .errors import AppError, Message

# Letters and symbols that render as blank space of no width or of a letter's width.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_TEXT_CONTROLS_ALLOWED = frozenset("\t\n\r")

# Control characters have no name in Unicode's data; these are the ones worth a word.
_CONTROL_NAMES = {
    0x00: "NULL",
    0x07: "BELL",
    0x08: "BACKSPACE",
    0x09: "CHARACTER TABULATION",
    0x0A: "LINE FEED",
    0x0B: "LINE TABULATION",
    0x0C: "FORM FEED",
    0x0D: "CARRIAGE RETURN",
    0x1B: "ESCAPE",
    0x7F: "DELETE",
    0x85: "NEXT LINE",
    0x9B: "CONTROL SEQUENCE INTRODUCER",
}

INVISIBLE_CHARACTER = "invisible_character"
NAME = _("name")
TEXT = _("text")

NAME_PROBLEM = _(
    "The %(field)s cannot hold invisible or control characters; it holds %(character)s (character %(position)s)."
)
TEXT_PROBLEM = _(
    "The %(field)s cannot hold control characters other than line breaks and tabs, nor characters that "
    "reverse the direction of the text; it holds %(character)s (character %(position)s)."
)


# The characters of ``_bad_in_name`` and ``_bad_in_text`` as ranges of code points (Unicode 14.0, Python 3.11's),
# for the API schema's patterns; tests/test_invisible_characters.py checks them against the functions.
NAME_FORBIDDEN_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x034F, 0x034F), (0x0600, 0x0605), (0x061C, 0x061C),
    (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x115F, 0x1160), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB),
)  # fmt: skip
TEXT_FORBIDDEN_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x0008), (0x000B, 0x000C), (0x000E, 0x001F), (0x007F, 0x009F), (0x202A, 0x202E), (0x2066, 0x2069),
    (0xFEFF, 0xFEFF),
)  # fmt: skip


def character_class(ranges: tuple[tuple[int, int], ...]) -> str:
    """``ranges`` (within the Basic Multilingual Plane) as the inside of a regular expression's ``[…]``."""

    def one(code: int) -> str:
        return f"\\u{code:04x}"

    return "".join(one(low) if low == high else f"{one(low)}-{one(high)}" for low, high in ranges)


def describe_character(char: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: the code point and, where Unicode has one, the name (never the
    character itself, which may be unprintable)."""
    code = ord(char)
    name = _CONTROL_NAMES.get(code) or unicodedata.name(char, "")
    if not name:
        name = "CONTROL CHARACTER" if unicodedata.category(char) == "Cc" else ""
    return f"U+{code:04X} {name}".rstrip()


def _bad_in_name(char: str) -> bool:
    if char in _INVISIBLE:
        return True
    # Format characters beyond the Basic Multilingual Plane are left: the tags (U+E0020–E007F) make the
    # emoji flags of regions, and the others format scripts (Egyptian, musical symbols, shorthands); the
    # API schema's patterns could not name them either (a JSON Schema pattern has no escape beyond U+FFFF).
    return unicodedata.category(char) in {"Cc", "Cs", "Zl", "Zp"} or (
        unicodedata.category(char) == "Cf" and ord(char) <= 0xFFFF
    )


def _bad_in_text(char: str) -> bool:
    if char in _BIDI_CONTROLS:
        return True
    category = unicodedata.category(char)
    return (category == "Cc" and char not in _TEXT_CONTROLS_ALLOWED) or category == "Cs" or char == "\ufeff"


def _first(value: str, bad: Any) -> tuple[int, str] | None:
    if value.isascii() and value.isprintable():
        return None  # the common case, at C speed
    for index, char in enumerate(value):
        if bad(char):
            return index + 1, char
    return None


def found_in_name(value: str) -> tuple[int, str] | None:
    """The first character a name may not hold, with its position (counted from 1), or ``None``."""
    return _first(value, _bad_in_name)


def name_problem(value: str, field: Any = NAME) -> Message | None:
    """What is wrong with ``value`` as a name (the ``field``, a lazy label, is named), or ``None``."""
    found = _first(value, _bad_in_name)
    if found is None:
        return None
    return Message(NAME_PROBLEM, {"field": field, "character": describe_character(found[1]), "position": found[0]})


def text_problem(value: str, field: Any = TEXT) -> Message | None:
    """What is wrong with ``value`` as a comment, description or note (line breaks and tabs allowed), or ``None``."""
    found = _first(value, _bad_in_text)
    if found is None:
        return None
    return Message(TEXT_PROBLEM, {"field": field, "character": describe_character(found[1]), "position": found[0]})


class _Validator:
    """A validator for forms and serializers (Django's ``ValidationError``; DRF turns it into its own)."""

    def __init__(self, check: Any, field: Any, forbidden: tuple[tuple[int, int], ...]) -> None:
        self.check = check
        self.field = field
        # What the API schema says (cardsite.api_schema): the characters a request's string may not hold.
        self.forbidden_class = character_class(forbidden)

    def __call__(self, value: Any) -> None:
        if isinstance(value, str):
            problem = self.check(value, self.field)
            if problem is not None:
                raise ValidationError(str(problem), code=INVISIBLE_CHARACTER)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Validator) and (self.check, str(self.field)) == (other.check, str(other.field))

    def __hash__(self) -> int:
        return hash((self.check, str(self.field)))


def plain_name(field: Any = NAME) -> _Validator:
    """A form's or serializer's validator of a name field labelled ``field``."""
    return _Validator(name_problem, field, NAME_FORBIDDEN_RANGES)


def plain_text(field: Any = TEXT) -> _Validator:
    """A form's or serializer's validator of a comment, description or note labelled ``field``."""
    return _Validator(text_problem, field, TEXT_FORBIDDEN_RANGES)


def check_name(value: str, path: str, field: Any = NAME, error: type[AppError] = AppError) -> None:
    """Raise ``error`` (a service's own class) naming ``path`` when ``value`` is not a plain name."""
    problem = name_problem(value, field)
    if problem is not None:
        raise error(problem, code=INVISIBLE_CHARACTER, errors={path: [problem]})


def check_text(value: str, path: str, field: Any = TEXT, error: type[AppError] = AppError) -> None:
    """Raise ``error`` (a service's own class) naming ``path`` when ``value`` holds controls a text may not."""
    problem = text_problem(value, field)
    if problem is not None:
        raise error(problem, code=INVISIBLE_CHARACTER, errors={path: [problem]})
