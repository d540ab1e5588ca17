"""Types the apps share for what Django hands a view: who is asking, and a request that htmx may have made.

Only for annotations (the modules that use them have ``from __future__ import annotations``): the user
model is Django's own (``django.contrib.auth``), read by the type checker, never imported here at run time,
so that this module is safe to import before the apps are ready.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from django.http import HttpRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django_htmx.middleware import HtmxDetails

# Who makes a request: a signed-in user, or the anonymous one (``request.user``).
SiteUser: TypeAlias = "User | AnonymousUser"


class HtmxRequest(HttpRequest):
    """A request as ``django_htmx.middleware.HtmxMiddleware`` leaves it: ``request.htmx`` says whether htmx
    made it (and which element asked)."""

    htmx: HtmxDetails
