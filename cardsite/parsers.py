"""The API's JSON parser, with the limits of ``cardsite.jsonlimits`` and the request size limit.

A body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE``, nested too deeply, not JSON, or holding text that is
not valid Unicode (a lone surrogate escape) is answered 400 with what is wrong and where; none reaches a
view, and none costs more than reading it once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from . import jsonlimits
from .errors import AppError, render


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise ParseError(_("The body is larger than %(limit)s bytes.") % {"limit": f"{limit:,}"})
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ParseError(_("The body is not UTF-8 text (byte %(byte)s).") % {"byte": error.start}) from None
        try:
            return jsonlimits.loads(text)
        except json.JSONDecodeError as error:
            raise ParseError(
                _("The body is not valid JSON: %(problem)s (line %(line)s, column %(column)s).")
                % {
                    "problem": _(jsonlimits.PROBLEMS[jsonlimits.syntax_problem(error)]),
                    "line": error.lineno,
                    "column": error.colno,
                }
            ) from None
        except jsonlimits.JSONLimitError as error:
            problem = render(_(jsonlimits.PROBLEMS[error.code]), error.params)
            detail = _("The body cannot be read: %(problem)s.") % {"problem": problem}
            if error.code == "not_unicode":  # a place in the body: named in ``errors``, as a field's problem is
                problems = {error.params["place"]: [_("This text is not valid Unicode.")]}
                raise AppError(detail, code="parse_error", errors=problems) from None
            raise ParseError(detail) from None
