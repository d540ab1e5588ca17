"""How the API reads its inputs: query parameters and JSON bodies exactly as the schema states them.

DRF reads form-like input leniently: a query parameter given empty (``?lang=``) counts as absent, and a
JSON ``5`` is taken for the string ``"5"`` (or ``"5"`` for the integer 5). The schema says a parameter
is one of its values and a body field has one JSON type, so the API holds to that: an empty value is a
value (and refused when the field cannot be empty), a body field of the wrong JSON type is a 400
naming the field, and a key the body's object does not declare is a 400 naming it. Every API serializer
that reads a request derives from one of the classes here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination

from .labels import LANGUAGES

# What a body field of each kind must be in JSON; the first matching class decides. Floats are left to
# IntegerField, which takes 5.0 (as JSON Schema does) and refuses 5.5.
_JSON_TYPES: tuple[tuple[type[serializers.Field], type | tuple[type, ...]], ...] = (
    (serializers.BooleanField, bool),
    (serializers.IntegerField, (int, float)),
    (serializers.CharField, str),
    (serializers.DictField, dict),
)


def _json_type_error(field: serializers.Field, value: Any) -> str | None:
    """The message for ``value`` when its JSON type is not the one ``field`` takes, else None."""
    if value is None or isinstance(field, serializers.JSONField):
        return None  # null: the field's own allow_null decides; a JSONField takes any JSON
    if isinstance(field, serializers.ChoiceField):
        types = {type(choice) for choice in field.choices}
        if types and all(issubclass(kind, str) for kind in types) and not isinstance(value, str):
            return str(field.error_messages["invalid_choice"]).format(input=value)
        return None
    for kind, expected in _JSON_TYPES:
        if isinstance(field, kind):
            if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
                if isinstance(field, serializers.DictField):
                    return str(field.error_messages["not_a_dict"]).format(input_type=type(value).__name__)
                return str(field.error_messages["invalid"])
            if isinstance(field, serializers.DictField) and field.child is not None and isinstance(value, dict):
                for item in value.values():
                    problem = _json_type_error(field.child, item)
                    if problem:
                        return problem
            return None
    return None


# A form's CSRF token, which DRF's session authentication reads from a form body (the token and upload
# endpoints take forms): never a key the API does not know.
_FORM_KEYS = frozenset({"csrfmiddlewaretoken"})


def refuse_unknown_keys(data: Any, known: Iterable[str]) -> None:
    """A 400 naming each key of ``data`` (a request body, or an object in it) that is not one of ``known``: a
    misspelt key (``sean`` for ``seen``) would otherwise be ignored, and what it meant silently not done."""
    if not isinstance(data, Mapping):
        return
    names = sorted(known)
    allowed = set(names) | (_FORM_KEYS if isinstance(data, QueryDict) else set())
    unknown = [key for key in data if key not in allowed]
    if unknown:
        message = _("Unknown key: the keys taken here are %(keys)s.") % {"keys": ", ".join(names) or "-"}
        raise serializers.ValidationError({str(key): [message] for key in unknown})


class KnownKeysSerializer(serializers.Serializer):
    # A request body (or an object in one) that names only the fields declared: any other key is a 400 naming
    # it, and nothing is done. Every serializer that reads a request derives from this one (through
    # JSONBodySerializer for JSON), nested ones and list items too; the schema says additionalProperties: false
    # (cardsite.api_schema). Said in a comment: a docstring would become every subclass's description.

    def to_internal_value(self, data: Any) -> Any:
        refuse_unknown_keys(data, (name for name, field in self.fields.items() if not field.read_only))
        return super().to_internal_value(data)


class JSONBodySerializer(KnownKeysSerializer):
    # A JSON request body: each field must have the JSON type the schema gives it (no "5" for 5). Said in a
    # comment: drf-spectacular would take a docstring for the description of every subclass's schema.

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            errors: dict[str, Any] = {
                name: [problem]
                for name, field in self.fields.items()
                if not field.read_only and name in data and (problem := _json_type_error(field, data[name])) is not None
            }
            for name in list(errors):
                field, value = self.fields[name], data[name]
                if isinstance(field, serializers.DictField) and field.child is not None and isinstance(value, dict):
                    # a value of the object: named by its key (``values.cost``), not by the object alone
                    errors[name] = {
                        str(key): [problem]
                        for key, item in value.items()
                        if (problem := _json_type_error(field.child, item)) is not None
                    }
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


# A whole number as a query string writes it: DRF's IntegerField also takes "5.0" and "5.", which the schema's
# integer does not (a client writing them has made a mistake worth a 400, not a guess).
_WHOLE_NUMBER = re.compile(r"\s*[-+]?[0-9]+\s*")


class QueryParametersSerializer(serializers.Serializer):
    # Query parameters: a parameter given empty is given (?lang= is refused, not taken as absent). Use
    # read(query_params); the last value of a repeated parameter counts, as in QueryDict.get.

    def to_internal_value(self, data: Any) -> Any:
        errors = {
            name: [str(field.error_messages["invalid"])]
            for name, field in self.fields.items()
            if isinstance(field, serializers.IntegerField)
            and isinstance(data.get(name), str)
            and data.get(name) != ""
            and not _WHOLE_NUMBER.fullmatch(data[name])
        }
        if errors:
            raise serializers.ValidationError(errors)
        return super().to_internal_value(data)

    @classmethod
    def of(cls, query_params: Mapping[str, Any]) -> QueryParametersSerializer:
        """The serializer over ``query_params``, not yet validated."""
        # A plain dict rather than the QueryDict: DRF treats "" in form-like input as a missing value.
        return cls(data={name: query_params.get(name) for name in query_params})

    @classmethod
    def read(cls, query_params: Mapping[str, Any]) -> dict[str, Any]:
        """The validated parameters, or a 400 naming each one at fault."""
        if not query_params:
            return dict(cls._read_nothing())
        serializer = cls.of(query_params)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    @classmethod
    @cache
    def _read_nothing(cls) -> dict[str, Any]:
        # No parameters always read the same (the defaults; a missing required one raises every time, as an
        # exception is not cached): read once per class, since building and validating a serializer costs
        # more than the rest of a cheap API answer (e.g. a remembered verdict).
        serializer = cls.of({})
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)


class PathSegmentConverter:
    """``<segment:name>``: one path segment, as ``str`` but without NUL, which no stored key holds and which
    PostgreSQL refuses in a query (``cardsite.api_schema.PATH_SEGMENT_PATTERN`` states it)."""

    regex = "[^/\x00]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class Pagination(PageNumberPagination):
    """Pages of 50 by ``?page=`` (from 1); a page that is not one, or is given empty, is a 404 ("Invalid page")."""

    def get_page_number(self, request: Any, paginator: Any) -> Any:
        number = request.query_params.get(self.page_query_param, 1)  # DRF takes ?page= for page 1
        return paginator.num_pages if number in self.last_page_strings else number

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"]["minimum"] = 1
        return parameters


# A name: not only white space, no NUL. Checked on the name as sent (the schema's maxLength too), then
# stored without the white space around it.
NAME_PATTERN = r"^[^\x00]*[^\s\x00][^\x00]*$"


class LanguageSerializer(QueryParametersSerializer):
    """``?lang=``: the language of names and messages of one operation (every app's API takes it)."""

    lang = serializers.ChoiceField(
        choices=list(LANGUAGES), required=False, help_text="Language of names and messages; default: the request's."
    )
