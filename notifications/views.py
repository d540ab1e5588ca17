"""The inbox page, marking read and the e-mail settings: thin, over ``selectors`` and ``services``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required

from . import selectors, services


@account_required
@require_GET
def inbox(request: HttpRequest) -> HttpResponse:
    page = selectors.page_of(request.user, request.GET.get("page"))
    return render(request, "notifications/inbox.html", {"page": page})


@account_required
@require_POST
def mark_read(request: HttpRequest) -> HttpResponse:
    ids = [int(value) for value in request.POST.getlist("id") if value.isascii() and value.isdigit()][:500]
    services.mark_read(request.user, ids or None)
    return redirect("notifications:inbox")


@account_required
@require_http_methods(["GET", "POST"])
def email_settings(request: HttpRequest) -> HttpResponse:
    choices = selectors.email_choices(request.user)
    if request.method == "POST":
        wanted = set(request.POST.getlist("email"))
        services.set_email_preferences(request.user, {kind.key: kind.key in wanted for kind, _email in choices})
        messages.success(request, _("Your e-mail choices are saved."))
        return redirect("notifications:settings")
    return render(request, "notifications/settings.html", {"choices": choices})
