"""What a card's value can get wrong, one message per code (plain Python).

The declarations (``cards.gamedefs.base``) report a problem as a ``Problem``: a code and its
parameters. The importer's command line prints it in English (``Problem.english``); the pages, the
forms and the API put it in the reader's language from the catalogues (``cards.presentation.
problem_text``), where ``makemessages`` finds these templates by their ``N_`` marker. A parameter may
be a ``Labels`` mapping (a field's name in three languages), picked in the reader's language, a
list, joined in the reader's style, or another ``Problem``: a clause put into the same language (what is wrong
with a JSON text, ``json_*``, whose clauses ``cardsite.jsonlimits`` declares).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardsite.jsonlimits import PROBLEMS as JSON_PROBLEMS
from cardsite.labels import N_

MESSAGES: dict[str, str] = {
    # a value against its type
    "not_whole_number": N_("“%(value)s” is not a whole number."),
    "below_minimum": N_("%(value)s is below the minimum, %(minimum)s."),
    "above_maximum": N_("%(value)s is above the maximum, %(maximum)s."),
    "not_boolean": N_("“%(value)s” is not true or false."),
    "empty_text": N_("A text is needed, not “%(value)s”."),
    "not_of_form": N_("“%(value)s” is not %(expected)s."),
    "not_a_choice": N_("“%(value)s” is not one of %(choices)s."),
    "not_a_list": N_("“%(value)s” is not a list of values."),
    "not_among": N_("%(values)s: not among %(choices)s."),
    "none_alone": N_("“%(value)s”: %(none)s stands alone; a card has none of them, or some."),
    "not_symbols": N_("“%(value)s” is not a string of symbols."),
    "stray_symbols": N_("“%(value)s” has %(stray)s; the symbols are %(symbols)s."),
    # a card's values against its game
    "unknown_kind": N_("“%(value)s” is not a kind of %(game)s; the kinds are %(kinds)s."),
    "fields_not_object": N_("The fields must be given as an object."),
    "no_such_field": N_("%(game)s has no field “%(field)s”."),
    "field_not_of_kind": N_("A card of kind %(kind)s has no %(field)s."),
    "not_a_number": N_("“%(value)s” is not a card number of %(game)s."),
    # a card record (the importer, the forms, the API)
    "required": N_("This is required."),
    "not_an_object": N_("This must be an object."),
    "not_text": N_("This must be a text."),
    "too_long": N_("This is longer than %(limit)s characters."),
    "unknown_language": N_("Unknown language; use one of %(languages)s."),
    "unknown_part": N_("Unknown part of a text; use %(parts)s."),
    "unknown_property": N_("Unknown property; use %(properties)s."),
    "needs_name": N_("A name is needed in at least one language."),
    "needs_body": N_("A text is needed in at least one language."),
    "key_used_twice": N_("“%(key)s” is already used at %(where)s."),
    "texts_not_object": N_("The texts must be an object keyed by language."),
    "used_twice": N_("“%(key)s” is used twice."),
    # a card file
    "not_json": N_("This is not valid JSON (%(error)s)."),
    "json_limit": N_("The file cannot be read: %(error)s."),
    "not_a_card_file": N_("The file must be a JSON object with a game and its cards."),
    "unknown_format": N_("The format “%(value)s” is not %(expected)s."),
    "must_be_list": N_("This must be a list."),
    "csv_header": N_("The header needs at least the columns game and key."),
    "unknown_column": N_("Unknown column; see the card format."),
    "cell_count": N_("This row has %(cells)s cells; the header has %(header)s."),
    "one_game": N_("A file holds the cards of one game; this one began with %(game)s."),
    "no_rows": N_("The file has no rows."),
    "not_a_game": N_("“%(value)s” is not a game; the games are %(games)s."),
    "cards_only": N_("A contribution holds cards only; glossary terms and rules are for the editors' import."),
    "too_many_rows": N_("At most %(limit)s cards at once."),
    "key_characters": N_(
        "A key cannot hold “/”, line breaks or other control characters: it is part of the card's address."
    ),
    "no_track_in_original": N_(
        "%(language)s is the original language of this game: its text is what translation tracks translate."
    ),
    "track_name_characters": N_("A track's name cannot hold line breaks or other control characters."),
    "track_name_invisible": N_(
        "A track's name cannot hold invisible or control characters; it holds %(character)s (character %(position)s)."
    ),
    "not_a_status": N_("“%(value)s” is not a status of a translation; use %(choices)s."),
    "one_main_track": N_("A file declares at most one main track per language."),
    "track_exists": N_("%(game)s already has a translation track “%(track)s” in this language."),
    "main_track_in_translations": N_(
        "“%(track)s” is this language's main translation: its text is the card's own text in the language."
    ),
    "no_such_track": N_("%(game)s has no translation track “%(track)s” in this language."),
    "nul_character": N_("This holds the character NUL (U+0000), which no text may hold."),
    # what a type expects (shown with a problem, and as help beside a form's field)
    "expect_whole_number": N_("a whole number"),
    "expect_whole_number_from": N_("a whole number from %(minimum)s"),
    "expect_whole_number_to": N_("a whole number up to %(maximum)s"),
    "expect_whole_number_between": N_("a whole number from %(minimum)s to %(maximum)s"),
    "expect_boolean": N_("true or false"),
    "expect_text": N_("a text"),
    "expect_form": N_("a text: %(form)s"),
    "expect_choice": N_("one of %(choices)s"),
    "expect_choices": N_("one or more of %(choices)s, separated by |"),
    "expect_symbols": N_("symbols from %(symbols)s"),
    "expect_symbols_or_none": N_("symbols from %(symbols)s, or “%(none)s” for a card that shows none"),
    "with_expected": N_("%(problem)s Expected: %(expected)s."),
    # what is wrong with a JSON text: a clause of "not_json" and "json_limit"
    **{f"json_{code}": clause for code, clause in JSON_PROBLEMS.items()},
}


@dataclass(frozen=True)
class Problem:
    """What is wrong (or, for ``expect_*`` codes, what is expected): a code of ``MESSAGES`` and its parameters."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def english(self) -> str:
        return english(self.code, self.params)

    def __str__(self) -> str:
        return self.english()


@dataclass(frozen=True)
class FieldProblem:
    """A problem with one value of a card: ``where`` is "kind", "fields" or "fields.<name>"."""

    where: str
    problem: Problem
    expected: Problem | None = None

    def english(self) -> str:
        if self.expected is None:
            return self.problem.english()
        return english("with_expected", {"problem": self.problem.english(), "expected": self.expected.english()})

    def __str__(self) -> str:
        return self.english()


def _english_value(value: Any) -> Any:
    if isinstance(value, Problem):
        return value.english()
    if isinstance(value, Mapping):
        return value.get("en") or next(iter(value.values()), "")
    if isinstance(value, list | tuple):
        return ", ".join(str(_english_value(item)) for item in value)
    return value


def english(code: str, params: Mapping[str, Any]) -> str:
    """The message of ``code`` in English (for the command line, logs and tests)."""
    return MESSAGES[code] % {name: _english_value(value) for name, value in params.items()}
