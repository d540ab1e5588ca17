"""What a game declares about its cards: kinds, fields, value types, units.

Plain Python, no Django: the importer, the search parser and the deck rules all
read these declarations. A game's module builds one ``GameDefinition`` and
registers it under its slug (see ``cards.gamedefs``).

A field's value is either a valid value of its type or absent. Absent means the
sources do not give it ("unknown"); it is never replaced by 0 or "".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardsite.labels import SIMPLIFIED, TRADITIONAL, Labels, ShownName, pick, simplified

from .documents import GameDocuments
from .messages import FieldProblem, Problem


class FieldValueError(ValueError):
    """A value that does not fit its field's declared type: ``problem`` says what, as a code and parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        self.problem = Problem(code, params)
        super().__init__(self.problem.english())


def _shown(raw: Any) -> str:
    """A raw value as a message quotes it (cut short: the message must stay readable)."""
    text = raw if isinstance(raw, str) else repr(raw)
    return text if len(text) <= 60 else text[:59] + "…"


@dataclass(frozen=True)
class FieldType:
    """A value type: how to check and normalise a raw value (from JSON or CSV)."""

    name: str
    # Stored values the pages show by a name in the reader's language ("ヒューマン" for ``human``, "なし" for a
    # text field's ``none``); any other value shows as stored (a printed symbol, a transcribed word).
    value_labels: Mapping[str, Labels] = field(default_factory=dict, compare=False)

    def clean(self, raw: Any) -> Any:
        raise NotImplementedError

    def expectation(self) -> Problem:
        """What a value of this type must be, as a message (``cards.gamedefs.messages``)."""
        return Problem("expect_text")

    def describe(self) -> str:
        """What a value of this type must be, in English (the API schema, the command line)."""
        return self.expectation().english()

    def value_label(self, value: Any, language: str) -> str:
        """One stored value as a reader of ``language`` reads it."""
        labels = self.value_labels.get(value) if isinstance(value, str) else None
        return (pick(labels, language) if labels else "") or str(value)

    def labelled_values(self) -> list[tuple[Any, Labels]]:
        """The values this type names for the pages, each with its labels (checked at start-up)."""
        return list(self.value_labels.items())

    def plain(self, value: Any) -> Any:
        """A stored value as the plain-Python cores (simulator engines) read it; the same value by default."""
        return value


@dataclass(frozen=True)
class IntegerType(FieldType):
    name: str = "integer"
    minimum: int | None = None
    maximum: int | None = None

    def clean(self, raw: Any) -> int:
        if isinstance(raw, bool):
            raise FieldValueError("not_whole_number", value=_shown(raw))
        if isinstance(raw, int):
            value = raw
        elif isinstance(raw, str) and re.fullmatch(r"[+-]?\d{1,18}", raw.strip()):
            value = int(raw.strip())
        else:
            raise FieldValueError("not_whole_number", value=_shown(raw))
        if self.minimum is not None and value < self.minimum:
            raise FieldValueError("below_minimum", value=value, minimum=self.minimum)
        if self.maximum is not None and value > self.maximum:
            raise FieldValueError("above_maximum", value=value, maximum=self.maximum)
        return value

    def expectation(self) -> Problem:
        if self.minimum is None and self.maximum is None:
            return Problem("expect_whole_number")
        if self.maximum is None:
            return Problem("expect_whole_number_from", {"minimum": self.minimum})
        if self.minimum is None:
            return Problem("expect_whole_number_to", {"maximum": self.maximum})
        return Problem("expect_whole_number_between", {"minimum": self.minimum, "maximum": self.maximum})


@dataclass(frozen=True)
class BooleanType(FieldType):
    name: str = "boolean"

    _TRUE = frozenset({"true", "yes", "1"})
    _FALSE = frozenset({"false", "no", "0"})

    def clean(self, raw: Any) -> bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.strip().lower() in self._TRUE:
            return True
        if isinstance(raw, str) and raw.strip().lower() in self._FALSE:
            return False
        raise FieldValueError("not_boolean", value=_shown(raw))

    def expectation(self) -> Problem:
        return Problem("expect_boolean")


@dataclass(frozen=True)
class TextType(FieldType):
    name: str = "text"
    pattern: str | None = None  # a regular expression the whole value must match
    pattern_help: Labels = field(default_factory=dict, compare=False)  # what the pattern means, in three languages

    def clean(self, raw: Any) -> str:
        if not isinstance(raw, str) or not raw.strip():
            raise FieldValueError("empty_text", value=_shown(raw))
        value = raw.strip()
        if self.pattern and not re.fullmatch(self.pattern, value):
            raise FieldValueError("not_of_form", value=_shown(value), expected=self._form())
        return value

    def _form(self) -> Labels | str:
        """What the pattern means: the declared words, else the pattern itself."""
        return self.pattern_help or f"/{self.pattern}/"

    def expectation(self) -> Problem:
        if self.pattern:
            return Problem("expect_form", {"form": self._form()})
        return Problem("expect_text")


@dataclass(frozen=True)
class _FixedSetType(FieldType):
    """Values from ``choices``: labelled all, or none at all (printed symbols, shown as stored)."""

    choices: tuple[str, ...] = ()

    def labelled_values(self) -> list[tuple[Any, Labels]]:
        return [(value, self.value_labels.get(value, {})) for value in self.choices] if self.value_labels else []

    def stored_value(self, raw: Any) -> Any:
        """The stored value ``raw`` names: itself, or the value it is the name of in any interface language
        ("ヒューマン", "人類" and "Human" all name ``human``), so that a sheet filled in by a reader's words is read."""
        if not isinstance(raw, str):
            return raw
        value = raw.strip()
        if value in self.choices:
            return value
        wanted = value.casefold()
        for choice in self.choices:
            if choice.casefold() == wanted:
                return choice
            labels = self.value_labels.get(choice) or {}
            if any(label.casefold() == wanted for label in labels.values()):
                return choice
        return value

    def named_choices(self) -> list[Labels | str]:
        """The choices as a message names them: by their label in the reader's language and the value to type
        ("ヒューマン (human)"), or as stored where they have no label (a printed symbol)."""
        named: list[Labels | str] = []
        for value in self.choices:
            labels = self.value_labels.get(value)
            if not labels:
                named.append(value)
                continue
            named.append(
                {
                    language: value if label.casefold() == value.casefold() else f"{label} ({value})"
                    for language, label in labels.items()
                }
            )
        return named


@dataclass(frozen=True)
class ChoiceType(_FixedSetType):
    """One value from a fixed set; with ``value_labels``, each value has its name in the three languages."""

    name: str = "choice"

    def clean(self, raw: Any) -> str:
        value = self.stored_value(raw)
        if value not in self.choices:
            raise FieldValueError("not_a_choice", value=_shown(raw), choices=self.named_choices())
        return value

    def expectation(self) -> Problem:
        return Problem("expect_choice", {"choices": self.named_choices()})


@dataclass(frozen=True)
class ChoiceListType(_FixedSetType):
    """Several values from a fixed set, e.g. a Shadow Era card's class icons."""

    name: str = "choices"
    # The word a game declares for "none of them" (a card printed with no special ability): typed alone, by
    # itself or its label in any language, and stored as a one-item list of it, which the engines, looking for
    # the choices, read as none. An empty value stays refused: an empty box means the value is unknown.
    none_value: str | None = None

    def clean(self, raw: Any) -> list[str]:
        items = [part.strip() for part in raw.split("|")] if isinstance(raw, str) else raw
        if not isinstance(items, list) or not items:
            raise FieldValueError("not_a_list", value=_shown(raw))
        items = [item if self.accepts(item) else self.stored_value(item) for item in items]
        unknown = [item for item in items if not self.accepts(item)]
        if unknown:
            raise FieldValueError("not_among", values=[_shown(item) for item in unknown], choices=self.named_choices())
        if self.none_value is not None and self.none_value in items and len(items) > 1:
            raise FieldValueError("none_alone", value=_shown(raw), none=self.named_none())
        return list(items)

    def accepts(self, item: Any) -> bool:
        """Whether one item of a list is allowed (a game may allow more than ``choices``, see 水滸伝's 射擊X)."""
        return item in self.choices or (self.none_value is not None and item == self.none_value)

    def stored_value(self, raw: Any) -> Any:
        if self.none_value is not None and isinstance(raw, str):
            wanted = raw.strip().casefold()
            labels = self.value_labels.get(self.none_value) or {}
            if wanted == self.none_value.casefold() or any(label.casefold() == wanted for label in labels.values()):
                return self.none_value
        return super().stored_value(raw)

    def labelled_values(self) -> list[tuple[Any, Labels]]:
        if self.none_value is None:
            return super().labelled_values()
        choices_labelled = any(value in self.value_labels for value in self.choices)
        named = [(value, self.value_labels.get(value, {})) for value in self.choices] if choices_labelled else []
        return [*named, (self.none_value, self.value_labels.get(self.none_value, {}))]

    def named_none(self) -> Labels | str:
        """The none word as a message names it: its label in the reader's language and the word to type."""
        assert self.none_value is not None
        labels = self.value_labels.get(self.none_value)
        if not labels:
            return self.none_value
        return {
            language: self.none_value
            if label.casefold() == self.none_value.casefold()
            else f"{label} ({self.none_value})"
            for language, label in labels.items()
        }

    def named_choices(self) -> list[Labels | str]:
        named = super().named_choices()
        return [*named, self.named_none()] if self.none_value is not None else named

    def expectation(self) -> Problem:
        return Problem("expect_choices", {"choices": self.named_choices()})


@dataclass(frozen=True)
class SymbolStringType(FieldType):
    """A string of symbols such as an Endbreaker skill or cost ("PPT", "●●")."""

    name: str = "symbols"
    symbols: tuple[str, ...] = ()
    # The word a game declares for "no symbol at all" (a card printed without a skill): typed and stored as
    # this word, shown by its ``value_labels``, read by the engines as the empty string. An empty value
    # stays refused, since an empty box means the value is unknown, not that the card has none.
    none_value: str | None = None

    def clean(self, raw: Any) -> str:
        if self.none_value is not None and isinstance(raw, str) and raw.strip().lower() == self.none_value:
            return self.none_value
        if not isinstance(raw, str) or not raw.strip():
            raise FieldValueError("not_symbols", value=_shown(raw))
        value = raw.strip()
        stray = sorted({ch for ch in value if ch not in self.symbols})
        if stray:
            raise FieldValueError("stray_symbols", value=_shown(value), stray=stray, symbols=list(self.symbols))
        return value

    def expectation(self) -> Problem:
        if self.none_value is not None:
            return Problem("expect_symbols_or_none", {"symbols": list(self.symbols), "none": self.none_value})
        return Problem("expect_symbols", {"symbols": list(self.symbols)})

    def plain(self, value: Any) -> Any:
        return "" if self.none_value is not None and value == self.none_value else value


@dataclass(frozen=True)
class FieldSpec:
    """One game-specific card field."""

    name: str
    type: FieldType
    labels: Labels
    unit: Labels = field(default_factory=dict)
    help: str = ""

    def label(self, language: str) -> str:
        return pick(self.labels, language) or self.name

    def unit_label(self, language: str) -> str:
        return pick(self.unit, language)


@dataclass(frozen=True)
class KindSpec:
    """A card kind of a game and the fields its cards carry."""

    slug: str
    labels: Labels
    fields: tuple[str, ...]

    def label(self, language: str) -> str:
        return pick(self.labels, language) or self.slug


@dataclass(frozen=True)
class CardTotal:
    """How many cards a source says the game has: of one kind, or of every kind (``kind`` None).

    A card of the database is one card kind (one printed card), so the total counts kinds, not copies.
    """

    count: int
    source: Labels  # where the total was seen, in the three languages
    kind: str | None = None


@dataclass(frozen=True)
class NumberRange:
    """A run of printed numbers a source says exist: ``prefix`` and ``first`` to ``last``, ``width`` digits."""

    prefix: str
    first: int
    last: int
    width: int
    source: Labels

    def number(self, value: int) -> str:
        return f"{self.prefix}{value:0{self.width}d}"

    def numbers(self) -> list[str]:
        return [self.number(value) for value in range(self.first, self.last + 1)]


@dataclass(frozen=True)
class Completeness:
    """What a card's sources give of what its game declares for it (see ``GameDefinition.completeness``)."""

    known: tuple[str, ...]  # "kind" and the field names whose values are known
    unknown: tuple[str, ...]  # the same, unknown (an invalid stored value counts as unknown)
    missing_languages: tuple[str, ...]  # languages of the game the card has no text in

    @property
    def expected(self) -> int:
        return len(self.known) + len(self.unknown)

    @property
    def complete(self) -> bool:
        return not self.unknown and not self.missing_languages


@dataclass(frozen=True)
class GameDefinition:
    """Everything a game declares about its cards; registered under ``slug``.

    Besides kinds and fields, each game declares what the map of what is missing measures it against:
    the languages its card texts should be in (its original and its translations), the card totals its
    sources give (empty: no source gives one, the total is unknown) and the runs of printed numbers they
    say exist (empty: unknown).
    """

    slug: str
    names: Labels
    fields: tuple[FieldSpec, ...]
    kinds: tuple[KindSpec, ...]
    original_language: str
    translation_languages: tuple[str, ...]
    card_totals: tuple[CardTotal, ...]
    number_ranges: tuple[NumberRange, ...]
    # The documents its data cites, shown by their titles wherever a citation is shown (``cards.citations``).
    documents: GameDocuments | None = None
    sort_order: int = 0
    number_pattern: str = r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*"

    def __post_init__(self) -> None:
        names = {spec.name for spec in self.fields}
        for kind in self.kinds:
            missing = set(kind.fields) - names
            if missing:
                raise ValueError(f"{self.slug}: kind {kind.slug} names undeclared fields {sorted(missing)}")

    def name(self, language: str) -> str:
        return self.shown_name(language).text

    def shown_name(self, language: str) -> ShownName:
        """The game's name for a reader of ``language``, and the language it is written in.

        A language whose declared name is the original's, as printed (エンドブレイカー！SCG on a Chinese page,
        Shadow Era on a Japanese one), shows it in the original language."""
        original = self.names[self.original_language]
        if language == SIMPLIFIED and self.names.get(TRADITIONAL, original) != original:
            return ShownName(simplified(self.names[TRADITIONAL]), SIMPLIFIED)
        name = self.names.get(language) or original
        return ShownName(name, self.original_language if name == original else language)

    @property
    def text_languages(self) -> tuple[str, ...]:
        """The languages every card's text should be in: the original, then the translations."""
        return (self.original_language, *self.translation_languages)

    def completeness(self, checked: CheckedValues, text_languages: Iterable[str]) -> Completeness:
        """Which of the values the game declares for a card are known, and which of its languages lack a text.

        The values are the card's kind and, once the kind is known, the fields of that kind (the fields of a
        card of unknown kind cannot be told, so only its known values count). ``checked`` is the card's ``check_values``: what the card page
        shows as unknown is unknown here. A text counts in a language when the card has one there at all,
        as the card page shows it.
        """
        if checked.kind:
            names = ["kind", *(spec.name for spec in self.fields_for_kind(checked.kind))]
        else:
            names = ["kind", *(spec.name for spec in self.fields if spec.name in checked.fields)]
        known = tuple(name for name in names if (checked.kind if name == "kind" else name in checked.fields))
        unknown = tuple(name for name in names if name not in known)
        present = set(text_languages)
        missing = tuple(language for language in self.text_languages if language not in present)
        return Completeness(known=known, unknown=unknown, missing_languages=missing)

    def field(self, name: str) -> FieldSpec | None:
        return next((spec for spec in self.fields if spec.name == name), None)

    def kind(self, slug: str) -> KindSpec | None:
        return next((kind for kind in self.kinds if kind.slug == slug), None)

    def kind_named(self, text: str) -> KindSpec | None:
        """The kind ``text`` names: by its slug or by its name in any interface language, in any case
        ("キャラクター", "角色", "Character" and "character" all name ``character``)."""
        wanted = text.strip().casefold()
        for kind in self.kinds:
            if kind.slug.casefold() == wanted or any(label.casefold() == wanted for label in kind.labels.values()):
                return kind
        return None

    def named_kinds(self) -> list[Labels]:
        """The kinds as a message names them: by their name in the reader's language and the slug to type."""
        return [
            {
                language: kind.slug if label.casefold() == kind.slug.casefold() else f"{label} ({kind.slug})"
                for language, label in kind.labels.items()
            }
            for kind in self.kinds
        ]

    def fields_for_kind(self, kind_slug: str | None) -> tuple[FieldSpec, ...]:
        """The fields a card of this kind shows; a card of unknown kind may carry any field."""
        kind = self.kind(kind_slug) if kind_slug else None
        if kind is None:
            return self.fields
        return tuple(spec for spec in self.fields if spec.name in kind.fields)

    def check_number(self, number: Any, max_length: int) -> Problem | None:
        """None if ``number`` can be a printed number of this game's cards, else what is wrong."""
        if (
            not isinstance(number, str)
            or len(number.strip()) > max_length
            or not re.fullmatch(self.number_pattern, number.strip())
        ):
            return Problem("not_a_number", {"value": _shown(number), "game": self.names})
        return None

    def check_values(self, kind: Any, fields: Any) -> CheckedValues:
        """A card's kind and field values checked against these declarations.

        The one check of every way a card's values come in (the importer, the admin, the API) and
        of every way they are read (pages, deck rules, the goldfish, the search index): a value
        that breaks its declaration is reported, and readers treat it as unknown.
        """
        problems: list[FieldProblem] = []
        if isinstance(kind, str) and kind and self.kind(kind) is None and (named := self.kind_named(kind)):
            kind = named.slug
        if kind is not None and kind != "" and (not isinstance(kind, str) or self.kind(kind) is None):
            problems.append(
                FieldProblem(
                    "kind",
                    Problem("unknown_kind", {"value": _shown(kind), "game": self.names, "kinds": self.named_kinds()}),
                )
            )
            kind = None
        kind = kind or None
        allowed = {spec.name for spec in self.fields_for_kind(kind)}
        valid: dict[str, Any] = {}
        if not isinstance(fields, Mapping):
            if fields not in (None, ""):
                problems.append(FieldProblem("fields", Problem("fields_not_object")))
            fields = {}
        for name, value in fields.items():
            spec = self.field(name)
            if spec is None:
                problems.append(
                    FieldProblem(
                        f"fields.{name}", Problem("no_such_field", {"game": self.names, "field": _shown(name)})
                    )
                )
                continue
            if name not in allowed:
                kind_spec = self.kind(kind) if kind else None
                problems.append(
                    FieldProblem(
                        f"fields.{name}",
                        Problem(
                            "field_not_of_kind",
                            {"kind": kind_spec.labels if kind_spec else str(kind), "field": spec.labels},
                        ),
                    )
                )
                continue
            if value is None or value == "":
                continue  # unknown
            try:
                valid[name] = spec.type.clean(value)
            except FieldValueError as error:
                problems.append(FieldProblem(f"fields.{name}", error.problem, spec.type.expectation()))
        return CheckedValues(kind=kind, fields=valid, problems=tuple(problems))


@dataclass(frozen=True)
class CheckedValues:
    """A card's values as its game's declarations accept them (see ``GameDefinition.check_values``)."""

    kind: str | None  # a declared kind, or None (unknown, or not a kind of the game)
    fields: dict[str, Any]  # the valid values, normalised; unknown and invalid values are absent
    problems: tuple[FieldProblem, ...]  # where ("kind", "fields" or "fields.<name>") and what is wrong

    @property
    def valid(self) -> bool:
        return not self.problems

    def invalid_fields(self) -> dict[str, FieldProblem]:
        """Field name -> what is wrong with its stored value (``kind`` for the kind itself)."""
        return {problem.where.removeprefix("fields."): problem for problem in self.problems}
