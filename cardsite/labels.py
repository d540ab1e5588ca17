"""Texts in the interface's three languages, declared as data by the plain-Python modules (plain Python).

A game's card fields, its deck rules and its goldfish engine state their labels and messages as a
``Labels`` mapping (language code -> text), because they must read the same without Django; pages and
the API pick the reader's language with ``pick``. ``cardsite.checks`` proves at start-up that every
declared label has all three languages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import opencc

# The languages labels and card texts are written in. The interface also speaks Simplified Chinese
# (``SIMPLIFIED``), whose texts are the Traditional ones converted when shown (``simplified``): nothing is
# stored or declared in it.
LANGUAGES: tuple[str, ...] = ("ja", "zh-hant", "en")
SIMPLIFIED = "zh-hans"
TRADITIONAL = "zh-hant"

# Character by character (t2s), not phrase by phrase: a card's name or a game's term keeps its words.
_TRADITIONAL_TO_SIMPLIFIED = opencc.OpenCC("t2s")


def simplified(text: str) -> str:
    """Traditional Chinese ``text`` in Simplified characters (OpenCC t2s)."""
    return _TRADITIONAL_TO_SIMPLIFIED.convert(text)


def stored_language(language: str) -> str:
    """The language whose stored texts a reader of ``language`` is shown: Traditional for Simplified."""
    return TRADITIONAL if language == SIMPLIFIED else language


Labels = Mapping[str, str]


@dataclass(frozen=True)
class ShownName:
    """A name as a page shows it (a card's, a game's), and the language it is written in.

    A name falls back to another language when the reader's has none (an English Shadow Era name on a
    Japanese page, a Japanese 水滸伝 name on a Chinese one). Pages mark it with its language
    (``cardtags.in_its_language``), so that it is drawn with its own script's glyphs and read aloud in its
    own language. ``language`` is None for a card's key, shown when no text names the card.
    """

    text: str
    language: str | None
    # The stored language the text was converted from ("zh-hant" for a Simplified reader), else None.
    converted_from: str | None = None

    def __str__(self) -> str:
        return self.text


def N_(text: str) -> str:
    """Mark ``text`` for the catalogues without translating it here (gettext_noop, without Django): a message
    template a plain-Python module declares, put into the reader's language where it is shown."""
    return text


def pick(labels: Labels, language: str) -> str:
    """The text in ``language``; else English, else Japanese (the original of most cards), else any.

    A Simplified Chinese reader is given the Traditional text converted, unless the labels give a Simplified text
    of their own (one that quotes a title, shown as written: ``cards.gamedefs.documents.titled``)."""
    if language == SIMPLIFIED and labels.get(SIMPLIFIED):
        return labels[SIMPLIFIED]
    if language == SIMPLIFIED and labels.get(TRADITIONAL):
        return simplified(labels[TRADITIONAL])
    return labels.get(language) or labels.get("en") or labels.get("ja") or next(iter(labels.values()), "")


def sentence_gap(language: str) -> str:
    """What separates two sentences, or a label's colon from its text: a space in English, nothing in Japanese or
    Chinese (their full stop and full-width colon already hold the gap)."""
    return " " if language.startswith("en") else ""


def join_sentences(sentences: list[str], language: str) -> str:
    """Sentences run together as ``language`` writes them (the empty ones left out)."""
    return sentence_gap(language).join(sentence for sentence in sentences if sentence)


def picked_language(labels: Labels, language: str) -> str:
    """The language of the text ``pick`` gives."""
    if language == SIMPLIFIED and (labels.get(SIMPLIFIED) or labels.get(TRADITIONAL)):
        return SIMPLIFIED
    for code in (language, "en", "ja", *labels):
        if labels.get(code):
            return code
    return language


def missing(labels: Labels) -> tuple[str, ...]:
    """The interface languages ``labels`` has no text for."""
    return tuple(language for language in LANGUAGES if not labels.get(language))


def fill(templates: Labels, **values: Any) -> dict[str, str]:
    """Every language's template with the values put in (``{count}``, ``{card}`` …)."""
    return {language: template.format(**values) for language, template in templates.items()}
