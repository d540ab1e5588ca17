"""The API's OpenAPI schema (drf-spectacular): the answers every operation can give, stated in one place.

Views declare their successful answers and the errors particular to them (a search's query error).
``SiteAutoSchema`` (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``) adds the answers that follow from how the
site is built, each with the one error body of ``cardsite.api_errors``, so that no view repeats them:

- 400 where there is a body or a query parameter to get wrong (every operation takes ``?lang=``);
- 401 where credentials are read: a wrong, expired or revoked token is refused even where none is needed;
- 403 for changes where a session can sign in (its CSRF token) or an owner is required;
- 404 where the path names something, and for a page past the last;
- 413 where there is a body: larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``cardsite.middleware``);
- 415 where there is a body: the API reads JSON only;
- 429 where a rate limit applies (the view's ``throttle_scope``), with Retry-After;
- 503 everywhere: the database may be read-only or out of reach (``cardsite.errorpages.unavailable``).

It also states ``?lang=`` on every operation (``cardsite.middleware.ApiLanguageMiddleware``) and, per
operation, whether credentials are needed (not where anonymous use is allowed: decided by asking the
view's permissions about an anonymous request), the headers that come with an
answer (Location, ETag, Retry-After, WWW-Authenticate), and that no request string may hold a NUL
character (DRF refuses it: PostgreSQL cannot store one), nor name a key its object does not declare
(``additionalProperties: false``).
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.validators import RegexValidator
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import SAFE_METHODS

from .api_errors import ErrorSerializer
from .api_inputs import KnownKeysSerializer
from .labels import LANGUAGES
from .middleware import LANGUAGE_PARAMETER

# Every request string the API takes: no NUL (DRF's CharField refuses one with a 400).
NO_NUL_PATTERN = r"^[^\x00]*$"
# What Python's str.strip() removes, so what DRF trims from a string before refusing it as blank: not ECMA-262's
# \s, which leaves out \x1c-\x1f and \x85 and takes in \ufeff.
_TRIMMED = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
# A string without NUL that trimming leaves non-empty.
NOT_BLANK_PATTERN = rf"^[^\x00]*[^\x00{_TRIMMED}][^\x00]*$"
# Formats the site names itself (not JSON Schema's): "card-query" is a query in the search language
# (/search/syntax/), "" included.
CARD_QUERY_FORMAT = "card-query"
RETRY_AFTER = {
    "schema": {"type": "integer", "minimum": 1},
    "description": "Seconds to wait before trying again.",
}

# Every operation takes ?lang= (cardsite.middleware.ApiLanguageMiddleware); an operation that uses it in a
# particular way (a search's order by name) states it itself.
LANGUAGE: dict[str, Any] = {
    "in": "query",
    "name": LANGUAGE_PARAMETER,
    "required": False,
    "schema": {"type": "string", "enum": list(LANGUAGES)},
    "description": "The language of the answer: its messages, labels and names. Default: the request's "
    "Accept-Language. Any other value is a 400 (`invalid`, under `errors.lang`) on every operation.",
}

# code: (description, response headers)
STANDARD_ERRORS: dict[str, tuple[str, dict[str, Any]]] = {
    "400": (
        "The request cannot be used: a parameter or the body breaks a constraint, or the body is not "
        "readable JSON. Every problem is listed under `errors`, by field.",
        {},
    ),
    "401": (
        "The credentials sent are not valid (a wrong, expired or revoked token), or the operation needs "
        "credentials and none were sent.",
        {
            "WWW-Authenticate": {
                "schema": {"type": "string"},
                "required": True,
                "description": "`Token`: send `Authorization: Token <token>` (POST /api/accounts/token/).",
            }
        },
    ),
    "403": (
        "Not allowed: signed in by session without the CSRF token, or not the owner of what would change.",
        {},
    ),
    "404": ("Nothing here, or nothing this user may see; or a page past the last.", {}),
    "413": ("The body is larger than the limit the answer names (`body_too_large`). Nothing was changed.", {}),
    "415": ("The body is not JSON (`Content-Type: application/json`).", {}),
    "429": (
        "Too many requests in a short time (see Retry-After), or too many Monte Carlo runs waiting.",
        {"Retry-After": {**RETRY_AFTER, "required": False}},
    ),
    "503": (
        "The database cannot answer right now (read-only, out of reach, or the request took too long). "
        "Nothing was changed.",
        {"Retry-After": {**RETRY_AFTER, "required": True}},
    ),
}

SUCCESS_HEADERS: dict[str, dict[str, Any]] = {
    "201": {
        "Location": {
            "schema": {"type": "string", "format": "uri"},
            "required": True,
            "description": "Where the new resource is read.",
        }
    },
}
ETAG = {
    "ETag": {
        "schema": {"type": "string"},
        "required": True,
        "description": "Send it back in If-None-Match to be answered 304 while nothing has changed.",
    }
}

ETAG_ANONYMOUS_ONLY = (
    "Sent to requests without credentials: send it back in If-None-Match to be answered 304 while nothing has "
    "changed. A request with a token or a session gets none (its answer may depend on who asks)."
)


class SiteAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema plus the site's standard answers, security and string rules."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        parameters = operation.setdefault("parameters", [])
        if not any(p["in"] == "query" and p["name"] == LANGUAGE_PARAMETER for p in parameters):
            parameters.append(LANGUAGE)
        responses = operation["responses"]
        error = self._error_schema()
        for code in self._standard_error_codes(operation):
            description, headers = STANDARD_ERRORS[code]
            response = responses.setdefault(code, {"description": description})
            response.setdefault("content", {"application/json": {"schema": error}})
            if headers:
                response["headers"] = {**headers, **response.get("headers", {})}
        for code, headers in SUCCESS_HEADERS.items():
            if code in responses:
                responses[code]["headers"] = {**headers, **responses[code].get("headers", {})}
        if getattr(self.view, "conditional_get", False) and self.method == "GET":
            etag = ETAG
            if getattr(self.view, "etag_anonymous_only", False):
                # An answer that may depend on who asks (a search with owned:) has no ETag when credentials are sent.
                etag = {"ETag": {**ETAG["ETag"], "required": False, "description": ETAG_ANONYMOUS_ONLY}}
            responses["200"]["headers"] = {**etag, **responses["200"].get("headers", {})}
            responses.setdefault(
                "304", {"description": "Not modified since the ETag in If-None-Match.", "headers": ETAG}
            )
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _error_schema(self) -> dict[str, Any]:
        return self.resolve_serializer(ErrorSerializer, "response").ref

    def _standard_error_codes(self, operation: dict[str, Any]) -> list[str]:
        parameters = operation.get("parameters", [])
        has_body = "requestBody" in operation
        codes = []
        if has_body or any(p["in"] == "query" and p["name"] != "page" for p in parameters):
            codes.append("400")
        authenticators = self.view.get_authenticators()
        if authenticators:
            codes.append("401")
            if self.method not in SAFE_METHODS and any(isinstance(a, SessionAuthentication) for a in authenticators):
                codes.append("403")
        if any(p["in"] == "path" for p in parameters) or any(p["name"] == "page" for p in parameters):
            codes.append("404")
        if has_body:
            codes.extend(("413", "415"))
        if getattr(self.view, "throttle_scope", None):
            codes.append("429")
        codes.append("503")
        return codes

    def get_auth(self) -> list[dict[str, Any]]:
        if not self.view.get_authenticators():
            return []  # the operation reads no credentials at all
        auths = super().get_auth()
        if {} not in auths and self._allows_anonymous():
            auths.append({})  # credentials optional
        return auths

    def _allows_anonymous(self) -> bool:
        """Whether every permission of the view lets an anonymous request make this operation."""
        request = SimpleNamespace(method=self.method, user=AnonymousUser(), auth=None, query_params={}, data={})
        permissions = self.view.get_permissions()
        return all(permission.has_permission(request, self.view) for permission in permissions)  # type: ignore[arg-type]

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema = super()._map_basic_serializer(serializer, direction)
        if isinstance(serializer, KnownKeysSerializer) or (
            isinstance(serializer, type) and issubclass(serializer, KnownKeysSerializer)
        ):
            schema["additionalProperties"] = False  # any other key is refused (cardsite.api_inputs)
        return schema

    def _insert_field_validators(self, field: serializers.Field, schema: dict[str, Any]) -> None:
        super()._insert_field_validators(field, schema)
        # drf-spectacular states a blank-allowed string with a pattern as oneOf [the pattern, ""]; when the
        # pattern takes "" too, "" matches both and oneOf refuses it. One schema says it right.
        branches = schema.get("oneOf")
        if branches and len(branches) == 2 and branches[1] == {"type": "string", "maxLength": 0}:
            inner = branches[0]
            takes_empty = (
                not inner.get("minLength")
                and inner.get("format") in (None, CARD_QUERY_FORMAT)
                and re.search(inner.get("pattern", ""), "") is not None
            )
            if takes_empty:
                del schema["oneOf"]
                schema.update(inner)

    def _map_serializer_field(self, field: serializers.Field, direction: str, bypass_extensions: bool = False) -> Any:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(field, serializers.ListSerializer) and isinstance(schema, dict) and schema.get("type") == "array":
            # many=True(max_length=…): DRF refuses more items; drf-spectacular leaves the bound out.
            bounds = {"maxItems": getattr(field, "max_length", None), "minItems": getattr(field, "min_length", None)}
            schema = {**schema, **{key: value for key, value in bounds.items() if value is not None}}
        if (
            direction == "request"
            and isinstance(field, serializers.CharField)
            and isinstance(schema, dict)
            and schema.get("type") == "string"
            and "enum" not in schema
        ):
            schema = dict(schema)  # a copy: an extend_schema_field dict is shared
            plain = next((v for v in field.validators if hasattr(v, "forbidden_class")), None)
            if plain is not None:  # cardsite.text's check of a name or a text: the characters it refuses
                forbidden = plain.forbidden_class  # NUL among them
                schema["pattern"] = (
                    rf"^[^{forbidden}]*$"
                    if field.allow_blank
                    else rf"^[^{forbidden}]*[^{forbidden}{_TRIMMED}][^{forbidden}]*$"
                )
            elif not any(isinstance(v, RegexValidator) for v in field.validators):  # its own pattern excludes NUL
                schema.setdefault("pattern", NO_NUL_PATTERN)
            if not field.allow_blank:
                schema.setdefault("minLength", 1)  # DRF refuses ""
                if field.trim_whitespace and schema.get("pattern") == NO_NUL_PATTERN:
                    schema["pattern"] = NOT_BLANK_PATTERN  # and, trimming, white space alone
        return schema
