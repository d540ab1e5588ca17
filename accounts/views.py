"""Account pages: sign up, log in and out, change the password, API tokens (mounted at /accounts/).

Password reset is not offered: sign-up asks for no e-mail address and the site sends no mail.
Log-in and sign-up are rate-limited per address (``cardsite.throttling``); a user name that failed
too often from one address is locked for a while (django-axes, ``settings.AXES_*``), answered by
``locked_out``.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods
from knox.settings import knox_settings

from cardsite import errorpages
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit

from . import selectors, services
from .decorators import account_required
from .forms import SignupForm


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` URL of the request if it is on this site, else ""."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return ""


@sensitive_post_parameters("password1", "password2")
@rate_limit("signup")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account (user name and password) and log in with it."""
    if request.user.is_authenticated:
        return redirect(_safe_next(request) or resolve_url(settings.LOGIN_REDIRECT_URL))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.sign_up(form)
        except services.NameLooksTaken as refused:  # taken by another sign-up since the form's check
            form.add_error("username", refused.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_safe_next(request) or resolve_url(settings.LOGIN_REDIRECT_URL))
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request)})


@method_decorator(rate_limit("login"), name="dispatch")
class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True


def locked_out(request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None):
    """django-axes' answer to a user name and address that failed too often: 429 until the lock ends."""
    wait = max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds()))
    return errorpages.too_many_requests(
        request,
        wait,
        message=_(
            "Too many failed log-in attempts for this user name from your address. Try again in %(minutes)s minutes."
        )
        % {"minutes": math.ceil(wait / 60)},
    )


@account_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    """The user's API tokens: make one (its secret is shown once), revoke one or all."""
    new_secret = None
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "create":
            try:
                _token, new_secret = services.token_create(user=request.user)
            except services.TokenLimitReached as refused:
                show_refusal(request, refused)
                status = refused.status
        elif action == "revoke":
            if services.token_revoke(user=request.user, token_key=request.POST.get("token_key", "")):
                messages.success(request, _("The token was revoked; programs using it can no longer log in."))
            else:
                show_refusal(request, _("There is no such token."))
            return redirect("account_tokens")
        elif action == "revoke-all":
            services.tokens_revoke_all(user=request.user)
            messages.success(request, _("Every token was revoked."))
            return redirect("account_tokens")
    context = {
        "tokens": selectors.tokens_of(request.user),
        "new_secret": new_secret,
        "lifetime_days": knox_settings.TOKEN_TTL.days,
    }
    return render(request, "registration/tokens.html", context, status=status)
