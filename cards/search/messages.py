"""What a query can get wrong, one message per code (plain Python).

The parser and the compiler raise ``QuerySyntaxError(code, position, **params)``; the pages and the
API put the message in the reader's language (``cards.presentation.query_error_message``) from the
translators' catalogues, where ``makemessages`` finds these templates by their ``N_`` marker. The
English text (``QuerySyntaxError.message``) is for logs and tests. Lists in parameters are joined
in the reader's style.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardsite.labels import N_

MESSAGES: dict[str, str] = {
    # the parser
    "minus_space": N_("'-' must be followed by a search term, with no space in between."),
    "empty_quotes": N_("There is nothing between the quotes."),
    "unclosed_quote": N_("Unclosed quote."),
    "unclosed_regex": N_("Unclosed regular expression: end it with '/'."),
    "empty_regex": N_("Empty regular expression: put a pattern between the slashes."),
    "invalid_regex": N_("Invalid regular expression."),
    "regex_unclosed_group": N_("Invalid regular expression: a parenthesis opened here is never closed."),
    "regex_unbalanced": N_("Invalid regular expression: this ')' closes nothing."),
    "regex_unclosed_set": N_("Invalid regular expression: a '[' opened here is never closed."),
    "regex_nothing_to_repeat": N_("Invalid regular expression: a repeat (*, + or ?) that follows nothing."),
    "regex_multiple_repeat": N_("Invalid regular expression: two repeats in a row."),
    "regex_bad_escape": N_("Invalid regular expression: an unknown escape (a backslash and a letter)."),
    "regex_repeat_too_large": N_("Invalid regular expression: a repeat count is too large."),
    "regex_too_deep": N_("Invalid regular expression: it is nested too deeply."),
    "regex_too_long": N_("A regular expression may have at most %(limit)s characters."),
    "regex_unsupported": N_(
        "This regular expression cannot be used: searches run regular expressions in time proportional "
        "to the text, without look-arounds or back-references."
    ),
    "regex_space_after": N_("Put a space after the closing '/' of a regular expression."),
    "needs_value": N_("%(label)s needs a value."),
    "display_negated": N_("%(label)s cannot be negated."),
    "display_operator": N_("%(name)s only works with ':', as in %(name)s:VALUE."),
    "display_regex": N_("%(label)s takes a word, not a regular expression."),
    "direction": N_("%(label)s must be 'asc' or 'desc'."),
    "unexpected_close": N_("Unexpected ')'."),
    "keyword_sides": N_("'%(keyword)s' needs a search term on both sides."),
    "term_missing": N_("A search term is missing here."),
    "too_deep": N_("The query is nested too deeply."),
    "empty_group": N_("Empty parentheses: put a search term inside."),
    "unclosed_group": N_("Missing closing parenthesis for the one opened here."),
    # the compiler
    "unknown_field": N_("Unknown field '%(field)s'. Fields: %(fields)s."),
    "equality_only": N_("'%(field)s' can only be compared with :, = or !=."),
    "unknown_game": N_("No game '%(value)s'. Games: %(games)s."),
    "unknown_kind": N_("No kind '%(value)s'. Kinds: %(kinds)s, unknown."),
    "unknown_language": N_("No language '%(value)s'. Use ja, zh or en."),
    "unknown_is": N_("is:%(value)s is not known. Use is:translated, is:untranslated, is:incomplete or is:complete."),
    "unknown_has": N_("has:%(value)s: no such field. Fields: %(fields)s."),
    "boolean_value": N_("%(field)s takes true or false, not '%(value)s'."),
    "whole_number": N_("%(field)s takes a whole number, not '%(value)s'."),
    "number_too_large": N_("%(field)s: %(value)s is too large a number."),
    "needs_account": N_("%(field)s: searches the cards you own. Sign in to use it."),
    "owned_value": N_("owned: takes yes, no or a number of copies, not '%(value)s'."),
    "unknown_order": N_("Cannot order by '%(value)s'. Orders: %(orders)s."),
}

# Python's own words for common mistakes in a pattern, and the message that says each in the reader's language.
REGEX_PROBLEMS: dict[str, str] = {
    "missing ), unterminated subpattern": "regex_unclosed_group",
    "unbalanced parenthesis": "regex_unbalanced",
    "unterminated character set": "regex_unclosed_set",
    "nothing to repeat": "regex_nothing_to_repeat",
    "multiple repeat": "regex_multiple_repeat",
    "bad escape": "regex_bad_escape",
}


def regex_problem(python_message: str) -> str:
    """The code for what ``re`` reported (``bad escape \\q`` → ``regex_bad_escape``)."""
    for words, code in REGEX_PROBLEMS.items():
        if python_message.startswith(words):
            return code
    return "invalid_regex"


def english(code: str, params: Mapping[str, Any]) -> str:
    values = {
        name: ", ".join(map(str, value)) if isinstance(value, list | tuple) else value for name, value in params.items()
    }
    return MESSAGES[code] % values
