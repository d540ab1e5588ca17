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
from cards.models import Card
from cards.services import card_state, state_digest
from cardsite import errorpages
from cardsite.errors import AppError
from cardsite.htmx import vary_on_htmx
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest, signed_in
from contributions.services import CardChangedSince
from contributions.uploads import too_large_text

from . import presentation, selectors, services
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
                user=request.user, game=form.cleaned_data["game"], files=request.FILES.getlist("photo")
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


def _initial(photo: PhotoReading, current: dict[str, Any] | None, card: Card | None) -> dict[str, Any]:
    """The form's values: what was read for each value (the contributor confirms or corrects it)."""
    initial: dict[str, Any] = {"image": True, "seen": state_digest(current) if current is not None else ""}
    if card is not None:
        initial["card"] = card.key
    for field, proposal in presentation.proposals_of(photo).items():
        value = proposal.value
        initial[presentation.form_name(field)] = ("true" if value else "false") if isinstance(value, bool) else value
    for field, languages in presentation.text_languages(photo).items():
        text, _suggestion = presentation.remaining_text(photo, languages)
        if text:
            initial[field] = text
    if current is None and photo.proposals:
        initial["key"] = initial.get("number") or initial.get("name") or ""
    return initial


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


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("contribution")
def review(request: HttpRequest, batch_id: int, index: int) -> HttpResponse:
    """One photo: the photo with the regions read outlined, the card proposed beside it, each value editable."""
    batch = selectors.batch_of(request.user, batch_id)
    photo = services.photo_of(batch, index)
    definition = batch.game.definition
    matched = services.matched_card(photo)
    card = Card.objects.prefetch_related("texts").filter(pk=matched.pk).first() if matched is not None else None
    current = card_state(card) if card is not None else None
    initial = _initial(photo, current, card)
    form = PhotoReviewForm(definition, request.POST or None, new_card=card is None, initial=initial)
    photos = list(batch.photos.all())
    following = next((other for other in photos if other.index > photo.index), None)
    previous = next((other for other in reversed(photos) if other.index < photo.index), None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                change_set, created = services.submit_photo(
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
    suggestions = presentation.suggestions(photo)
    now = _current_values(form, current, definition.original_language)
    rows = [
        {"field": form[name], "suggestion": suggestions.get(name), "now": now.get(name, None)}
        for name in form.fields
        if name not in ("image", "seen")
    ]
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
    }
    return render(request, "readings/review.html", context, status=status)
