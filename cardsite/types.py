"""Types the apps share for what Django hands a view: who is asking, and a request that htmx may have made.

Only for annotations (the modules that use them have ``from __future__ import annotations``): the user
model is Django's own (``django.contrib.auth``), read by the type checker, never imported here at run time,
so that this module is safe to import before the apps are ready.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .errors import AppError

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django_htmx.middleware import HtmxDetails

# Who makes a request: a signed-in user, or the anonymous one (``request.user``).
SiteUser: TypeAlias = "User | AnonymousUser"
# A user with an account: an owner, an author, a user named by id (``signed_in`` gives one from a SiteUser).
SignedInUser: TypeAlias = "User"


class HtmxRequest(HttpRequest):
    """A request as ``django_htmx.middleware.HtmxMiddleware`` leaves it: ``request.htmx`` says whether htmx
    made it (and which element asked)."""

    htmx: HtmxDetails


class NotSignedIn(AppError):
    """Something only a signed-in user can do was asked on behalf of the anonymous one."""

    code = "not_authenticated"
    status = 401


def signed_in(user: SiteUser) -> User:
    """``user``, who must be signed in: a write or a read of one's own things (a collection, a folder, a
    notification) on behalf of the anonymous user is refused (``NotSignedIn``) rather than failing in the
    database."""
    if not user.is_authenticated:
        raise NotSignedIn(_("Sign in first: this needs an account."))
    return user
