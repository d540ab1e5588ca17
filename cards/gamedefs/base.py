"""What a game declares about its cards: kinds, fields, value types, units.

Plain Python, no Django: the importer, the search parser and the deck rules all
read these declarations. A game's module builds one ``GameDefinition`` and
registers it under its slug (see ``cards.gamedefs``).

A field's value is either a valid value of its type or absent. Absent means the
sources do not give it ("unknown"); it is never replaced by 0 or "".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardsite.labels import Labels, pick


class FieldValueError(ValueError):
    """A value that does not fit its field's declared type."""


@dataclass(frozen=True)
class FieldType:
    """A value type: how to check and normalise a raw value (from JSON or CSV)."""

    name: str
    # Stored values the pages show by a name in the reader's language ("ヒューマン" for ``human``, "なし" for a
    # text field's ``none``); any other value shows as stored (a printed symbol, a transcribed word).
    value_labels: Mapping[str, Labels] = field(default_factory=dict, compare=False)

    def clean(self, raw: Any) -> Any:
        raise NotImplementedError

    def describe(self) -> str:
        return self.name

    def value_label(self, value: Any, language: str) -> str:
        """One stored value as a reader of ``language`` reads it."""
        labels = self.value_labels.get(value) if isinstance(value, str) else None
        return (pick(labels, language) if labels else "") or str(value)

    def labelled_values(self) -> list[tuple[Any, Labels]]:
        """The values this type names for the pages, each with its labels (checked at start-up)."""
        return list(self.value_labels.items())


@dataclass(frozen=True)
class IntegerType(FieldType):
    name: str = "integer"
    minimum: int | None = None
    maximum: int | None = None

    def clean(self, raw: Any) -> int:
        if isinstance(raw, bool):
            raise FieldValueError(f"{raw!r} is not a whole number")
        if isinstance(raw, int):
            value = raw
        elif isinstance(raw, str) and re.fullmatch(r"[+-]?\d{1,18}", raw.strip()):
            value = int(raw.strip())
        else:
            raise FieldValueError(f"{raw!r} is not a whole number")
        if self.minimum is not None and value < self.minimum:
            raise FieldValueError(f"{value} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise FieldValueError(f"{value} is above the maximum {self.maximum}")
        return value

    def describe(self) -> str:
        if self.minimum is None and self.maximum is None:
            return "whole number"
        low = "" if self.minimum is None else self.minimum
        high = "" if self.maximum is None else self.maximum
        return f"whole number {low}..{high}"


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
        raise FieldValueError(f"{raw!r} is not true or false")

    def describe(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class TextType(FieldType):
    name: str = "text"
    pattern: str | None = None  # a regular expression the whole value must match
    pattern_help: str = ""

    def clean(self, raw: Any) -> str:
        if not isinstance(raw, str) or not raw.strip():
            raise FieldValueError(f"{raw!r} is not a non-empty text")
        value = raw.strip()
        if self.pattern and not re.fullmatch(self.pattern, value):
            raise FieldValueError(f"{value!r} is not {self.pattern_help or 'of the form ' + self.pattern}")
        return value

    def describe(self) -> str:
        return self.pattern_help or "text"


@dataclass(frozen=True)
class _FixedSetType(FieldType):
    """Values from ``choices``: labelled all, or none at all (printed symbols, shown as stored)."""

    choices: tuple[str, ...] = ()

    def labelled_values(self) -> list[tuple[Any, Labels]]:
        return [(value, self.value_labels.get(value, {})) for value in self.choices] if self.value_labels else []


@dataclass(frozen=True)
class ChoiceType(_FixedSetType):
    """One value from a fixed set; with ``value_labels``, each value has its name in the three languages."""

    name: str = "choice"

    def clean(self, raw: Any) -> str:
        value = raw.strip() if isinstance(raw, str) else raw
        if value not in self.choices:
            raise FieldValueError(f"{raw!r} is not one of {', '.join(self.choices)}")
        return value

    def describe(self) -> str:
        return "one of " + ", ".join(self.choices)


@dataclass(frozen=True)
class ChoiceListType(_FixedSetType):
    """Several values from a fixed set, e.g. a Shadow Era card's class icons."""

    name: str = "choices"

    def clean(self, raw: Any) -> list[str]:
        items = [part.strip() for part in raw.split("|")] if isinstance(raw, str) else raw
        if not isinstance(items, list) or not items:
            raise FieldValueError(f"{raw!r} is not a list of values")
        unknown = [item for item in items if not self.accepts(item)]
        if unknown:
            raise FieldValueError(f"{', '.join(map(str, unknown))} not among {self.describe_choices()}")
        return list(items)

    def accepts(self, item: Any) -> bool:
        """Whether one item of a list is allowed (a game may allow more than ``choices``, see 水滸伝's 射擊X)."""
        return item in self.choices

    def describe_choices(self) -> str:
        return ", ".join(self.choices)

    def describe(self) -> str:
        return "list (separated by |) of " + self.describe_choices()


@dataclass(frozen=True)
class SymbolStringType(FieldType):
    """A string of symbols such as an Endbreaker skill or cost ("PPT", "●●")."""

    name: str = "symbols"
    symbols: tuple[str, ...] = ()

    def clean(self, raw: Any) -> str:
        if not isinstance(raw, str) or not raw.strip():
            raise FieldValueError(f"{raw!r} is not a string of symbols")
        value = raw.strip()
        stray = sorted({ch for ch in value if ch not in self.symbols})
        if stray:
            raise FieldValueError(f"{value!r} has {', '.join(stray)}; allowed symbols are {' '.join(self.symbols)}")
        return value

    def describe(self) -> str:
        return "symbols from " + " ".join(self.symbols)


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
class GameDefinition:
    """Everything a game declares about its cards; registered under ``slug``."""

    slug: str
    names: Labels
    fields: tuple[FieldSpec, ...]
    kinds: tuple[KindSpec, ...]
    original_language: str
    sort_order: int = 0
    number_pattern: str = r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*"

    def __post_init__(self) -> None:
        names = {spec.name for spec in self.fields}
        for kind in self.kinds:
            missing = set(kind.fields) - names
            if missing:
                raise ValueError(f"{self.slug}: kind {kind.slug} names undeclared fields {sorted(missing)}")

    def name(self, language: str) -> str:
        return self.names.get(language) or self.names[self.original_language]

    def field(self, name: str) -> FieldSpec | None:
        return next((spec for spec in self.fields if spec.name == name), None)

    def kind(self, slug: str) -> KindSpec | None:
        return next((kind for kind in self.kinds if kind.slug == slug), None)

    def fields_for_kind(self, kind_slug: str | None) -> tuple[FieldSpec, ...]:
        """The fields a card of this kind shows; a card of unknown kind may carry any field."""
        kind = self.kind(kind_slug) if kind_slug else None
        if kind is None:
            return self.fields
        return tuple(spec for spec in self.fields if spec.name in kind.fields)

    def check_number(self, number: Any, max_length: int) -> str | None:
        """None if ``number`` can be a printed number of this game's cards, else what is wrong."""
        if (
            not isinstance(number, str)
            or len(number.strip()) > max_length
            or not re.fullmatch(self.number_pattern, number.strip())
        ):
            return f"{number!r} is not a card number of {self.slug}"
        return None

    def check_values(self, kind: Any, fields: Any) -> CheckedValues:
        """A card's kind and field values checked against these declarations.

        The one check of every way a card's values come in (the importer, the admin, the API) and
        of every way they are read (pages, deck rules, the goldfish, the search index): a value
        that breaks its declaration is reported, and readers treat it as unknown.
        """
        problems: list[tuple[str, str]] = []
        if kind is not None and kind != "" and (not isinstance(kind, str) or self.kind(kind) is None):
            kinds = ", ".join(k.slug for k in self.kinds)
            problems.append(("kind", f"{kind!r} is not a kind of {self.slug}; use {kinds}"))
            kind = None
        kind = kind or None
        allowed = {spec.name for spec in self.fields_for_kind(kind)}
        valid: dict[str, Any] = {}
        if not isinstance(fields, Mapping):
            if fields not in (None, ""):
                problems.append(("fields", "must be an object"))
            fields = {}
        for name, value in fields.items():
            spec = self.field(name)
            if spec is None:
                problems.append((f"fields.{name}", f"{self.slug} has no field {name!r}"))
                continue
            if name not in allowed:
                problems.append((f"fields.{name}", f"a {kind} card has no {name}"))
                continue
            if value is None or value == "":
                continue  # unknown
            try:
                valid[name] = spec.type.clean(value)
            except FieldValueError as error:
                problems.append((f"fields.{name}", f"{error} (expected {spec.type.describe()})"))
        return CheckedValues(kind=kind, fields=valid, problems=tuple(problems))


@dataclass(frozen=True)
class CheckedValues:
    """A card's values as its game's declarations accept them (see ``GameDefinition.check_values``)."""

    kind: str | None  # a declared kind, or None (unknown, or not a kind of the game)
    fields: dict[str, Any]  # the valid values, normalised; unknown and invalid values are absent
    problems: tuple[tuple[str, str], ...]  # (where: "kind", "fields" or "fields.<name>", what is wrong)

    @property
    def valid(self) -> bool:
        return not self.problems

    def invalid_fields(self) -> dict[str, str]:
        """Field name -> what is wrong with its stored value (``kind`` for the kind itself)."""
        return {where.removeprefix("fields."): message for where, message in self.problems}
