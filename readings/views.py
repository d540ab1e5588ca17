"""Pages of the readings: upload a batch of card photos, follow its queue (htmx polling while photos wait), cancel
it, and review each photo's card (the regions read outlined on the photo, each value editable) to submit it as a
change set. Thin views over ``readings.services``, ``readings.selectors`` and ``readings.presentation``; a batch
is its uploader's alone (404 for anyone else)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.decorators import account_required
from cards.images.services import too_large_upload
from cardsite import errorpages
from cardsite.errors import AppError
from cardsite.htmx import vary_on_htmx
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest, signed_in
from contributions.services import CardChangedSince
from contributions.uploads import too_large_text

from . import presentation, reviewing, selectors, services, submissions
from .forms import BatchUploadForm, PhotoReviewForm
from .models import PhotoReading, ReadingBatch


def _partial(request: HtmxRequest) -> bool:
    return bool(request.htmx) and not request.htmx.history_restore_request


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("contribution")
def upload(request: HttpRequest) -> HttpResponse:
    """The upload form (a game, one photo or many) and the user's recent batches."""
    initial = {"game": request.GET.get("game")} if request.GET.get("game") else None
    status = 200
    photo_errors: list[str] = []
    if request.method == "POST" and services.batch_body_too_large(request.META.get("CONTENT_LENGTH")):
        # Refused unread, in the page: the form again with the refusal beside the photos (the page's script
        # refuses such photos as soon as they are chosen, so that this is rare).
        error = too_large_upload("photo")
        if errorpages.wants_json(request) or request.headers.get("HX-Request"):
            return errorpages.refused(request, error.status, error.message, error.code)
        form = BatchUploadForm(None, initial=initial)
        photo_errors, status = [str(error.message)], error.status
    else:
        form = BatchUploadForm(request.POST or None, initial=initial)
    if request.method == "POST" and not photo_errors and form.is_valid():
        try:
            batch = services.reading_batch_create(
                user=request.user,
                game=form.cleaned_data["game"],
                files=request.FILES.getlist("photo"),
                printing=form.cleaned_data.get("printing") or "",
            )
        except AppError as error:
            photo_errors = [str(message) for messages_ in error.errors.values() for message in messages_] or [
                error.message
            ]
            status = error.status
        else:
            return redirect("readings:batch", batch.pk)
    elif request.method == "POST" and not photo_errors:
        status = 400
    batches = ReadingBatch.objects.filter(user=signed_in(request.user)).select_related("game")[:20]
    context = {
        "form": form,
        "photo_errors": photo_errors,
        "batches": batches,
        "max_photos": services.max_photos(),
        "max_bytes": settings.IMAGE_MAX_BYTES,
        "too_large": too_large_text(),
    }
    return render(request, "readings/upload.html", context, status=status)


@account_required
@require_http_methods(["GET", "HEAD"])
@vary_on_htmx
def batch(request: HtmxRequest, batch_id: int) -> HttpResponse:
    """The batch's queue: each photo's thumbnail, state and matched card; polled while photos wait."""
    batch = selectors.batch_of(request.user, batch_id)
    template = "readings/_queue.html" if _partial(request) else "readings/batch.html"
    return render(request, template, {"batch": batch, "photos": list(batch.photos.all())})


@account_required
@require_POST
def cancel(request: HtmxRequest, batch_id: int) -> HttpResponse:
    batch = selectors.batch_of(request.user, batch_id)
    services.reading_cancel(batch=batch)
    if _partial(request):
        batch = selectors.batch_of(request.user, batch_id)
        return render(request, "readings/_queue.html", {"batch": batch, "photos": list(batch.photos.all())})
    return redirect("readings:batch", batch.pk)


def _current_values(form: PhotoReviewForm, current: dict[str, Any] | None, language: str) -> dict[str, Any]:
    """The matched card's values now, by the form field's name, shown beside what was read."""
    if current is None:
        return {}
    now: dict[str, Any] = {"number": current.get("number") or "", "kind": current.get("kind") or ""}
    texts = (current.get("texts") or {}).get(language) or {}
    now.update({"name": texts.get("name", ""), "text": texts.get("text", "")})
    for code, translated in (current.get("texts") or {}).items():
        if code != language:
            now.update({f"name_{code}": translated.get("name", ""), f"text_{code}": translated.get("text", "")})
    for name, value in (current.get("fields") or {}).items():
        now[f"field_{name}"] = value
    shown: dict[str, Any] = {}
    for name, value in now.items():
        if name not in form.fields:
            continue
        # A value among choices (the kind, an attribute) is shown by its label, as the list offers it.
        labels = {str(choice): label for choice, label in getattr(form.fields[name], "choices", ())}
        shown[name] = labels.get(str(value), value) if value not in ("", None) else value
    return shown


def _rows(
    form: PhotoReviewForm, suggestions: dict[str, presentation.Suggestion], now: dict[str, Any], *, only: Any = None
) -> list[dict[str, Any]]:
    """The review's rows: each value's box, what was read, the stored value and the choice between them."""
    return [
        {
            "field": form[name],
            "suggestion": suggestions.get(name),
            "now": now.get(name),
            "choice": form[f"choice_{name}"] if name in form.choice_names else None,
        }
        for name in form.fields
        if name not in ("image", "seen") and not name.startswith("choice_") and (only is None or name in only)
    ]


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("contribution")
def batch_review(request: HttpRequest, batch_id: int) -> HttpResponse:
    """Every photo of a batch read and not yet submitted, on one page, submitted as one change set: a new card
    with all its values, a matched card with only the values whose reading differs from the stored one, and beside
    each card the number of values the contributor has to decide (the readings not sure)."""
    batch = selectors.batch_of(request.user, batch_id)
    definition = batch.game.definition
    data = request.POST or None
    entries: list[dict[str, Any]] = []
    for photo in batch.photos.all():
        if photo.status != PhotoReading.Status.DONE or photo.change_set_id is not None:
            continue
        card, current, suggestions, form = reviewing.review_form(photo, data, prefix=f"p{photo.index}")
        if card is not None:
            only: Any = set(form.choice_names)
            to_decide = [name for name in form.choice_names if name not in form.sure]
        else:
            only = None
            to_decide = [name for name, suggestion in suggestions.items() if not suggestion.sure]
        now = _current_values(form, current, definition.original_language)
        entries.append(
            {
                "photo": photo,
                "card": card,
                "form": form,
                "rows": _rows(form, suggestions, now, only=only),
                "actions": len(to_decide),
            }
        )
    status = 200
    if request.method == "POST":
        status = 400
        if all(entry["form"].is_valid() for entry in entries):
            values = {
                entry["photo"].index: entry["form"].values() for entry in entries if not entry["form"].changes_nothing()
            }
            try:
                change_set = submissions.submit_batch(user=request.user, batch=batch, values=values)
            except AppError as error:
                status = error.status
                show_refusal(request, error)
                forms_by_index = {str(entry["photo"].index): entry["form"] for entry in entries}
                for path, problems in error.errors.items():
                    index, _dot, rest = path.partition(".")
                    shown = forms_by_index.get(index)
                    name = shown.field_for(rest) if shown is not None else None
                    for problem in problems:
                        if shown is not None:
                            shown.add_error(name, problem if name else f"{rest}: {problem}")
            else:
                if change_set is None:
                    messages.info(request, _("Nothing was changed: the cards stay as they are."))
                else:
                    messages.success(
                        request, _("The batch is submitted as change set #%(number)s.") % {"number": change_set.pk}
                    )
                return redirect("readings:batch", batch.pk)
    width_height = {entry["photo"].index: presentation.photo_size(entry["photo"]) for entry in entries}
    for entry in entries:
        entry["width"], entry["height"] = width_height[entry["photo"].index]
    context = {
        "batch": batch,
        "entries": entries,
        "sure_offered": any(name in entry["form"].sure for entry in entries for name in entry["form"].choice_names),
    }
    return render(request, "readings/batch_review.html", context, status=status)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("contribution")
def review(request: HttpRequest, batch_id: int, index: int) -> HttpResponse:
    """One photo: the photo with the regions read outlined, the card proposed beside it, each value editable."""
    batch = selectors.batch_of(request.user, batch_id)
    photo = submissions.photo_of(batch, index)
    definition = batch.game.definition
    card, current, suggestions, form = reviewing.review_form(photo, request.POST or None)
    photos = list(batch.photos.all())
    following = next((other for other in photos if other.index > photo.index), None)
    previous = next((other for other in reversed(photos) if other.index < photo.index), None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid() and form.changes_nothing():
            messages.info(request, _("Nothing was changed: the card stays as it is."))
            if following is not None:
                return redirect("readings:review", batch.pk, following.index)
            return redirect("readings:batch", batch.pk)
        if form.is_valid():
            try:
                change_set, created = submissions.submit_photo(
                    user=request.user, batch=batch, index=photo.index, values=form.values()
                )
            except CardChangedSince as error:
                show_refusal(request, error, form=form)
                status = error.status
            except AppError as error:
                status = error.status
                show_refusal(request, error, form=form)
                for path, problems in error.errors.items():
                    name = form.field_for(path)
                    for problem in problems:
                        form.add_error(name, problem if name else f"{path}: {problem}")
            else:
                if created:
                    messages.success(
                        request,
                        _("Photo %(index)s is submitted as change set #%(number)s.")
                        % {"index": photo.index, "number": change_set.pk},
                    )
                if following is not None:
                    return redirect("readings:review", batch.pk, following.index)
                return redirect("readings:batch", batch.pk)
    width, height = presentation.photo_size(photo)
    now = _current_values(form, current, definition.original_language)
    rows = _rows(form, suggestions, now)
    context = {
        "batch": batch,
        "photo": photo,
        "card": card,
        "form": form,
        "rows": rows,
        "regions": presentation.regions(photo),
        "width": width,
        "height": height,
        "following": following,
        "previous": previous,
        "keywords": [data["value"] for data in photo.proposals or [] if data.get("field") == "keyword"],
        "sure_offered": any(name in form.sure for name in form.choice_names),
    }
    return render(request, "readings/review.html", context, status=status)
