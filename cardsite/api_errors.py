"""One shape for every error the API answers, whoever raised it:

    {"detail": "what is wrong, in the request's language", "code": "stable_code", "errors": {"field.path": [...]}}

``errors`` names each field with a problem (``entries[2].card``); it is empty when no field is at fault.
Some answers add keys of their own (a query error's ``position``). The handler is set once in
``REST_FRAMEWORK["EXCEPTION_HANDLER"]``; no view shapes its own errors.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from . import db, errorpages
from .errors import AppError


def error_body(detail: str, code: str, errors: dict[str, list[str]] | None = None, **extra: Any) -> dict[str, Any]:
    return {"detail": detail, "code": code, "errors": errors or {}, **extra}


def merge_errors(target: dict[str, list[str]], more: dict[str, list[str]]) -> None:
    for path, messages in more.items():
        target.setdefault(path, []).extend(messages)


def flatten_errors(detail: Any, path: str = "") -> dict[str, list[str]]:
    """DRF's nested validation errors as ``{"entries[2].count": [...]}``."""
    if isinstance(detail, dict):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            if key == api_settings.NON_FIELD_ERRORS_KEY:
                sub = path
            elif isinstance(key, int):  # a list's items, by index
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            merge_errors(out, flatten_errors(value, sub))
        return out
    if isinstance(detail, list):
        if all(isinstance(item, str) for item in detail):
            return {path or "body": [str(item) for item in detail]} if detail else {}
        out = {}
        for index, item in enumerate(detail):
            merge_errors(out, flatten_errors(item, f"{path}[{index}]"))
        return out
    return {path or "body": [str(detail)]}


def summary(errors: dict[str, list[str]]) -> str:
    return "; ".join(f"{path}: {' '.join(messages)}" for path, messages in errors.items())


def _code(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    return codes if isinstance(codes, str) else exc.default_code


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, AppError):
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        body = error_body(exc.message, exc.code, exc.errors, **exc.extra())
        return Response(body, status=exc.status, headers=headers)
    if isinstance(exc, exceptions.Throttled):
        # DRF's own text mixes languages (its catalogue has the first sentence, not the wait): the site's
        # one message for a rate limit instead, as the pages say it.
        wait = max(1, math.ceil(getattr(exc, "wait", None) or 1))
        body = error_body(errorpages.throttled_message(wait), "throttled")
        return Response(body, status=429, headers={"Retry-After": str(wait)})
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        kind = db.failure_kind(exc)
        if kind is None:
            return None  # a bug: Django's 500 handler logs it and answers
        answer = errorpages.unavailable(kind)
        headers = {"Retry-After": str(answer.retry_after)}
        return Response(error_body(answer.message, answer.code), status=503, headers=headers)
    if isinstance(exc, exceptions.ValidationError):
        errors = flatten_errors(exc.detail)
        response.data = error_body(summary(errors), "invalid", errors)
    elif isinstance(exc, exceptions.APIException):
        detail = exc.detail if isinstance(exc.detail, str) else summary(flatten_errors(exc.detail))
        response.data = error_body(str(detail), _code(exc))
    return response


class ErrorSerializer(serializers.Serializer):
    """The body of every error the API answers (``error_body``): declared once, for the schema of every app."""

    detail = serializers.CharField(help_text="What is wrong, in the request's language.")
    code = serializers.CharField(help_text="A stable code for programs: not_found, invalid, throttled, …")
    # Declared fields are taken off the class by DRF's serializer metaclass: no clash with Serializer.errors.
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        help_text="The problems of each field at fault, by the field's path (entries[2].card); empty when none is.",
    )
