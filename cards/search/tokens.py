"""Index tokens for CJK substring search of any length (plain Python).

A column's folded text is split into units: a run of ASCII letters and digits
is one unit (a word), every other character is a unit of its own, and a run of
whitespace is one space unit. The index holds, per column, every bigram of
consecutive units in order (so a query of n >= 2 units is the phrase of its
n - 1 bigrams, which matches exactly the texts that contain it) and every
distinct unit (so a one-unit query, one CJK character or one word, is a
single-token lookup; a word also matches as a prefix). Each distinct unit of
the whole card is indexed once more under ``ANY_COLUMN``, so that a one-unit
query over every column reads one list of cards instead of merging six; a
word there is indexed by each of its beginnings (prefix ``p``, up to
``WORD_PREFIX_LIMIT`` characters), so that a word also finding the longer
words it begins is one token, not a scan of every word it begins.

Where the database asks for it (``any_column_pairs``: PostgreSQL), the document also holds every column's
bigrams once more under ``ANY_COLUMN``, in order, one column after another with ``COLUMN_BREAK`` between
them. A term of two units over every column is then one token, which PostgreSQL counts and pages from its
postings table without reading a document; a longer term is one phrase of those tokens instead of one
phrase per column, so the GIN index reads a few posting lists and tests positions once. The break keeps
a phrase from running from the end of one column into the next. SQLite's FTS5 already reads phrases from
its own index, and its index would only grow, so it leaves them out.

Where the database also stores each card's folded columns as one text (``phrase_text``: PostgreSQL), a
term of three or more units none of which is a word or a space carries its folded characters as the phrase's
``needle``. Such a term is then exactly the cards whose text holds the needle as a substring (each of its
characters is a unit of its own, and no column or text break can fall inside it), so the database can find
the cards holding all of its bigrams, without positions, and test the needle on a short text, instead of
checking positions in every candidate's whole token list.

Tokens are spelled with ASCII letters only, so SQLite FTS5's unicode61
tokenizer and PostgreSQL's ``to_tsvector('simple', …)`` both take each one
whole and in order: a prefix letter (``q`` bigram, ``r`` unit), a two-letter
column code, then each character as six hex digits written with the letters
a–p, units separated by ``x``.

Beside the text, a card's document holds facet tokens (prefix ``f``): its game,
kind, number, languages, each known field value, each field it has a value
for and whether anything is missing (``is`` ``incomplete``), so that a query
mixing words and filters is one index expression (see ``cards.search.matching``);
and ``EVERY_CARD_TOKEN``, which every card has.
A number also gets an "at least t" token for every t from 0 up to it (at most
``AT_LEAST_LIMIT``), so that a comparison such as ``at>=5`` or ``at<3`` is
one token, not a list of values (the idea of Lucene's trie ranges, for the
small numbers cards carry).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

LANGUAGE_CODES = {"ja": "j", "zh-hant": "z", "en": "e"}
PART_CODES = {"name": "n", "text": "t"}
COLUMNS: tuple[str, ...] = tuple(part + lang for part in PART_CODES.values() for lang in LANGUAGE_CODES.values())
ANY_COLUMN = "aa"

_HEX_LETTERS = str.maketrans("0123456789abcdef", "abcdefghijklmnop")
_BIGRAM, _UNIT, _FACET, _WORD_PREFIX = "q", "r", "f", "p"
WORD_PREFIX_LIMIT = 16
EVERY_CARD_TOKEN = "severy"
NO_CARD_TOKEN = "snone"  # no card has it: a filter that can match nothing
UNKNOWN_KIND = "?"
AT_LEAST_LIMIT = 20
INCOMPLETE = "incomplete"  # the value of the ``is`` facet of a card with something missing
_SPACE = " "
COLUMN_BREAK = "sbreak"  # between the columns' sequences of any-column bigrams (see module docstring)


def column(part: str, language: str) -> str:
    return PART_CODES[part] + LANGUAGE_CODES[language]


def columns_for(parts: Iterable[str] = PART_CODES, languages: Iterable[str] = LANGUAGE_CODES) -> list[str]:
    return [column(part, language) for part in parts for language in languages]


def units(folded: str) -> list[str]:
    """Split folded text into units (see module docstring)."""
    result: list[str] = []
    word: list[str] = []
    for char in folded:
        if char.isascii() and char.isalnum():
            word.append(char)
            continue
        if word:
            result.append("".join(word))
            word = []
        if char.isspace():
            if result and result[-1] != _SPACE:
                result.append(_SPACE)
        else:
            result.append(char)
    if word:
        result.append("".join(word))
    return result


def _spell(unit: str) -> str:
    return "".join(format(ord(char), "06x") for char in unit).translate(_HEX_LETTERS)


def bigram_token(column_code: str, first: str, second: str) -> str:
    return f"{_BIGRAM}{column_code}{_spell(first)}x{_spell(second)}"


def unit_token(column_code: str, unit: str) -> str:
    return f"{_UNIT}{column_code}{_spell(unit)}"


def _is_word(unit: str) -> bool:
    return unit.isascii() and unit.isalnum()


def word_prefix_token(beginning: str) -> str:
    """The token of every card with a word (in any column) that begins with ``beginning``."""
    return f"{_WORD_PREFIX}{ANY_COLUMN}{_spell(beginning)}"


def facet_token(name: str, value: str) -> str:
    """The token of a card that has ``value`` for ``name`` (a builtin facet or a declared field)."""
    return f"{_FACET}{_spell(name)}x{_spell(value)}"


def at_least_value(threshold: int) -> str:
    """The facet value a number has when it is at least ``threshold`` (0 <= threshold <= AT_LEAST_LIMIT)."""
    return f">={threshold}"


def kind_facet(game: str, kind: str | None) -> str:
    return facet_token("kind", f"{game}/{kind}" if kind else UNKNOWN_KIND)


def facet_tokens(
    game: str,
    kind: str | None,
    folded_number: str | None,
    languages: Iterable[str],
    field_values: Iterable[tuple[str, str, int | None]],
    incomplete: bool = False,
) -> list[str]:
    """A card's facet tokens; ``field_values`` holds (field, value as indexed, number or None) per known value.

    ``incomplete``: a value its game declares for it is unknown, or it lacks a text in one of its game's
    languages (``GameDefinition.completeness``).
    """
    tokens = [EVERY_CARD_TOKEN, facet_token("game", game), kind_facet(game, kind)]
    if incomplete:
        tokens.append(facet_token("is", INCOMPLETE))
    if kind:
        tokens.append(facet_token("has", "kind"))
    if folded_number:
        tokens += [facet_token("number", folded_number), facet_token("has", "number")]
    tokens += [facet_token("lang", language) for language in sorted(set(languages))]
    values = sorted(set(field_values), key=lambda value: (value[0], value[1]))
    tokens += [facet_token(name, text) for name, text, _number in values]
    at_least = {
        (name, threshold)
        for name, _text, number in values
        if number is not None
        for threshold in range(min(number, AT_LEAST_LIMIT) + 1)
    }
    tokens += [facet_token(name, at_least_value(threshold)) for name, threshold in sorted(at_least)]
    tokens += [facet_token("has", name) for name in sorted({name for name, _text, _number in values})]
    return tokens


def document_tokens(columns: Mapping[str, str], any_column_pairs: bool = False) -> list[str]:
    """All index tokens of a card, in order: ``columns`` maps column code to folded text.

    ``any_column_pairs``: with every column's bigrams under ``ANY_COLUMN`` too (see module docstring)."""
    tokens: list[str] = []
    card_units: dict[str, None] = {}
    if any_column_pairs:
        for folded in columns.values():
            tokens.extend(bigram_token(ANY_COLUMN, a, b) for a, b in itertools.pairwise(units(folded)))
            tokens.append(COLUMN_BREAK)
    for code, folded in columns.items():
        column_units = units(folded)
        tokens.extend(bigram_token(code, a, b) for a, b in itertools.pairwise(column_units))
        distinct = dict.fromkeys(unit for unit in column_units if unit != _SPACE)
        tokens.extend(unit_token(code, unit) for unit in distinct)
        card_units.update(distinct)
    tokens.extend(unit_token(ANY_COLUMN, unit) for unit in card_units if not _is_word(unit))
    beginnings = {word[:end] for word in card_units if _is_word(word) for end in range(1, WORD_PREFIX_LIMIT + 1)}
    tokens.extend(word_prefix_token(beginning) for beginning in sorted(beginnings))
    return tokens


@dataclass(frozen=True)
class Phrase:
    """What one search term looks for in one column: consecutive tokens, or one token (maybe as a prefix).

    ``needle``: the term's folded characters, when the phrase matches exactly the cards whose ``phrase_text``
    holds them (see the module docstring); None otherwise."""

    tokens: tuple[str, ...]
    prefix: bool = False
    needle: str | None = None


def phrase_text(columns: Mapping[str, str]) -> str:
    """The text a ``Phrase.needle`` is looked for in: the folded columns, a line apart."""
    return "\n".join(columns.values())


def _needle(term_units: list[str]) -> str | None:
    """The needle of a term of three or more units, each one character that is neither a word nor a space."""
    if len(term_units) < 3 or any(_is_word(unit) or unit == _SPACE for unit in term_units):
        return None
    return "".join(term_units)


def term_phrases(
    folded_term: str, column_codes: Iterable[str], any_column_pairs: bool = False, needles: bool = False
) -> list[Phrase]:
    """The phrases that find ``folded_term`` in any of ``column_codes``; empty if it has no units.

    ``any_column_pairs``: the documents hold the any-column bigrams (``document_tokens``); ``needles``: and
    their ``phrase_text``, so that a phrase over every column may carry its needle."""
    term_units = [unit for unit in units(folded_term.strip())]
    if not term_units:
        return []
    column_codes = list(column_codes)
    every_column = set(column_codes) == set(COLUMNS)
    if len(term_units) > 1 and every_column and any_column_pairs:
        bigrams = tuple(bigram_token(ANY_COLUMN, a, b) for a, b in itertools.pairwise(term_units))
        return [Phrase(bigrams, needle=_needle(term_units) if needles else None)]
    if len(term_units) == 1 and every_column:
        unit = term_units[0]
        if not _is_word(unit):
            return [Phrase((unit_token(ANY_COLUMN, unit),))]
        if len(unit) <= WORD_PREFIX_LIMIT:
            return [Phrase((word_prefix_token(unit),))]
    phrases = []
    for code in column_codes:
        if len(term_units) == 1:
            unit = term_units[0]
            # A word also finds longer words it begins ("baz" finds "bazaar"); a CJK unit is one character.
            phrases.append(Phrase((unit_token(code, unit),), prefix=_is_word(unit)))
        else:
            pairs = itertools.pairwise(term_units)
            phrases.append(Phrase(tuple(bigram_token(code, a, b) for a, b in pairs)))
    return phrases
