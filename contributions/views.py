"""Pages of contributions: thin views over ``contributions.selectors`` and ``contributions.services``."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib import messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.decorators import account_required, same_site_path
from cards import selectors as card_selectors
from cards.history_presentation import changes_view
from cards.images.services import ImageError, image_store
from cards.models import Card, Game, StoredImage
from cards.revisions import diff_values, flatten_state
from cards.services import card_state, record_from_state, state_digest
from cardsite.errors import QuotaExceeded
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit

from . import bulk, editor_actions, presentation, selectors, services
from .forms import BulkContributionForm, CardContributionForm, TranslationContributionForm, mutable_copy
from .models import ChangeSet
from .uploads import refuse_oversized_uploads


def _kind(definition: Any, wanted: str | None) -> str | None:
    return wanted if wanted and definition.kind(wanted) is not None else None


def _game_to_contribute(request: HttpRequest, slug: str) -> Game:
    """The game whose cards the request would change: 404 if there is none, 403 if the user may not."""
    game = get_object_or_404(Game, slug=slug)
    refusal = services.contribution_refusal(request.user, game)
    if refusal is not None:
        raise PermissionDenied(refusal)
    return game


def card_to_contribute(request: HttpRequest, slug: str, key: str) -> tuple[Game, Card]:
    """The game and the card the request would change: 404 if there is none, 403 if the user may not."""
    game = _game_to_contribute(request, slug)
    try:
        return game, card_selectors.card_detail(game, key)
    except Card.DoesNotExist:
        raise Http404 from None


def thanks(request: HttpRequest, change_set: ChangeSet) -> HttpResponse:
    if change_set.status == ChangeSet.Status.ACCEPTED:
        messages.success(request, _("Thank you: your change is applied."))
    else:
        messages.success(request, _("Thank you: your change waits for an editor's review."))
    return redirect("contributions:change_set", change_set.pk)


def _stored_photo(request: HttpRequest, upload: Any, field: str) -> StoredImage | None:
    """The uploaded picture, checked and kept (``cards.images.services``); None when none was sent."""
    if upload is None:
        return None
    return image_store(uploader=request.user, stream=upload, field=field)


def _submit(
    request: HttpRequest,
    form: CardContributionForm | TranslationContributionForm,
    game: Game,
    record: dict[str, Any],
    tracks: list[dict[str, str]] | None = None,
) -> HttpResponse | None:
    """Submit a form's card as a change set; None (the form, with its errors) when it is refused."""
    data = form.cleaned_data
    try:
        change_set = services.submit_change_set(
            author=request.user,
            game=game,
            cards=[record],
            source_kind=data["source_kind"],
            source_detail=data.get("source_detail", ""),
            comment=data.get("comment", ""),
            seen={record["key"]: data.get("seen") or ""},
            source_photo=_stored_photo(request, data.get("source_photo"), "source_photo"),
            tracks=tracks,
        )
    except (ImageError, QuotaExceeded) as error:
        form.add_error("source_photo", str(error))
        form.status = error.status
        return None
    except services.CardChangedSince as error:
        show_refusal(request, error, form=form)
        form.current = error.cards.get(record["key"])
        return None
    except services.ContributionError as error:
        show_refusal(request, error, form=form)
        for path, problems in error.errors.items():
            name = form.field_for_path(path)
            for problem in problems:
                form.add_error(name, f"{path}: {problem}" if name is None else str(problem))
        return None
    return thanks(request, change_set)


def _form_page(request: HttpRequest, game: Game, form: CardContributionForm, card: Card | None) -> HttpResponse:
    current = getattr(form, "current", None)
    if current is not None:  # the card as someone else changed it, shown as a card page shows values
        current = changes_view(game.definition, diff_values({}, flatten_state(current)), get_language())
    context = {
        "game": game,
        "search_game": game,
        "form": form,
        "card": card,
        "kinds": [(spec.slug, spec.label(get_language())) for spec in game.definition.kinds],
        "chosen_kind": form.initial.get("kind") or (form.data.get("kind") if form.is_bound else ""),
        "current": current,
    }
    return render(request, "contributions/card_form.html", context, status=getattr(form, "status", 200))


@account_required
@require_http_methods(["GET", "POST"])
@refuse_oversized_uploads
@rate_limit("contribution")
def card_new(request: HttpRequest, game: str) -> HttpResponse:
    game_row = _game_to_contribute(request, game)
    definition = game_row.definition
    kind = _kind(definition, request.POST.get("kind") or request.GET.get("kind"))
    number = request.GET.get("number", "")[:32]  # a number the map of what is missing knows no card of
    initial = {"kind": kind or "", "seen": "", "number": number, "key": number}
    form = CardContributionForm(definition, kind, request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        done = _submit(request, form, game_row, form.card_record())
        if done is not None:
            return done
    return _form_page(request, game_row, form, None)


@account_required
@require_http_methods(["GET", "POST"])
@refuse_oversized_uploads
@rate_limit("contribution")
def card_edit(request: HttpRequest, game: str, key: str) -> HttpResponse:
    game_row, card = card_to_contribute(request, game, key)
    definition = game_row.definition
    state = card_state(card)
    kind = _kind(definition, request.POST.get("kind") or request.GET.get("kind") or state["kind"])
    initial = {
        **CardContributionForm.initial_from_state(state),
        "kind": kind or "",
        "seen": state_digest(state),
    }
    form = CardContributionForm(
        definition, kind, request.POST or None, request.FILES or None, initial=initial, key=card.key
    )
    if request.method == "POST" and form.is_valid():
        # The card's other translation tracks are not on this form: they stay as they are (the state the form
        # was made from, which ``seen`` holds the service to).
        record = {**form.card_record(), "translations": state.get("translations") or {}}
        done = _submit(request, form, game_row, record)
        if done is not None:
            return done
    return _form_page(request, game_row, form, card)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("contribution")
def card_translate(request: HttpRequest, game: str, key: str) -> HttpResponse:
    """Add a translation track, or a card's text in one, or correct it: a change set as every other."""
    game_row, card = card_to_contribute(request, game, key)
    definition = game_row.definition
    state = card_state(card)
    tracks = [track for track in card_selectors.tracks_of(game_row) if not track.main]
    language = request.GET.get("language") or ""
    chosen = next((track for track in tracks if str(track.pk) == request.GET.get("track")), None)
    initial: dict[str, Any] = {"seen": state_digest(state), "track": TranslationContributionForm.NEW}
    if language in definition.translation_languages:
        initial["language"] = language
    if chosen is not None:
        initial.update(language=chosen.language, track=str(chosen.pk))
        initial.update((state.get("translations") or {}).get(chosen.language, {}).get(chosen.name, {}))
    form = TranslationContributionForm(definition, tracks, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        current = dataclasses.asdict(record_from_state(card.key, state))
        done = _submit(request, form, game_row, form.card_record(current), form.new_tracks())
        if done is not None:
            return done
    context = {
        "game": game_row,
        "search_game": game_row,
        "form": form,
        "card": card,
        "tracks": tracks,
        "track_fields": [form[name] for name in ("language", "track", "track_name", "credits")],
        "text_fields": [form[name] for name in ("name", "text", "notes", "source")],
    }
    return render(request, "contributions/translation_form.html", context)


def change_set(request: HttpRequest, pk: int) -> HttpResponse:
    found = selectors.change_set_detail(pk)
    if found is None:
        raise Http404
    context = {
        "change_set": found,
        "game": found.game,
        "cards": presentation.change_set_cards(found, get_language(), selectors.cards_in_database(found)),
        "may_review": found.status == ChangeSet.Status.PENDING and selectors.may_review(request.user, found.game),
        # An editor may block (or unblock) the author here, as on the review queue.
        "may_block": selectors.user_to_block(request.user, found.game, found.author_id) is not None,
        "author_blocked": selectors.is_blocked(found.author, found.game),
        "image_changes": selectors.image_changes_of(found),
        "new_tracks": presentation.new_tracks_view(found.tracks or []),
    }
    return render(request, "contributions/change_set.html", context)


@account_required
@require_POST
def review(request: HttpRequest, pk: int) -> HttpResponse:
    decision = request.POST.get("decision")
    reason = request.POST.get("reason", "")
    try:
        if decision == "accept":
            services.accept_change_set(editor=request.user, change_set_id=pk, reason=reason)
            messages.success(request, _("Accepted: the cards are changed."))
        elif decision == "reject":
            services.reject_change_set(editor=request.user, change_set_id=pk, reason=reason)
            messages.success(request, _("Rejected: the author has been told why."))
        else:
            show_refusal(request, _("Choose to accept or to reject."))
    except services.NotAllowed as error:
        raise PermissionDenied(str(error)) from None
    except services.ContributionError as error:
        show_refusal(request, error)
    return redirect("contributions:change_set", pk)


@account_required
def review_queue(request: HttpRequest) -> HttpResponse:
    games = list(selectors.reviewed_games(request.user))
    if not games:
        raise PermissionDenied(_("Only editors review change sets."))
    game = next((game for game in games if game.slug == request.GET.get("game")), None)
    language = get_language()
    conflicts = selectors.seed_conflicts(request.user, game)[:200]
    context = {
        "queue": selectors.review_queue(request.user, game)[:200],
        "seed_conflicts": [presentation.seed_conflict_view(conflict, language) for conflict in conflicts],
        "games": games,
        "game": game,
    }
    return render(request, "contributions/review_queue.html", context)


def _done_or_refused(request: HttpRequest, work: Any, done: str) -> None:
    """Run an editor's ``work`` (a service call); say what became of it as a message on the next page."""
    try:
        work()
    except services.NotAllowed as error:
        raise PermissionDenied(str(error)) from None
    except services.NoSuchItem:
        raise Http404 from None
    except services.ContributionError as error:
        show_refusal(request, error)
    else:
        messages.success(request, done)


@account_required
@require_POST
def seed_conflict_resolve(request: HttpRequest, pk: int) -> HttpResponse:
    take = request.POST.get("take", "")
    _done_or_refused(
        request,
        lambda: editor_actions.seed_conflict_resolve(
            editor=request.user,
            conflict_id=pk,
            take=take,
            seen=request.POST.get("seen", ""),
            seed_seen=request.POST.get("seed_seen", ""),
        ),
        _("The seed's values are taken.")
        if take == editor_actions.SeedChoice.SEED
        else _("The current values are kept."),
    )
    return redirect("contributions:review_queue")


@account_required
@require_POST
def card_revert(request: HttpRequest, game: str, key: str) -> HttpResponse:
    game_row = get_object_or_404(Game, slug=game)
    try:
        revision = int(request.POST.get("revision", ""))
    except ValueError:
        raise Http404 from None
    _done_or_refused(
        request,
        lambda: editor_actions.card_revert(
            editor=request.user, game=game_row, key=key, revision_id=revision, seen=request.POST.get("seen", "")
        ),
        _("Reverted: the card is as it was before that revision, and the revert is a revision of its own."),
    )
    return redirect("cards:card_history", game_row.slug, key)


def deleted_cards(request: HttpRequest, game: str) -> HttpResponse:
    """The game's deleted cards, each restorable by an editor from its last revision (anyone may read them,
    as anyone reads a card's history)."""
    game_row = get_object_or_404(Game, slug=game)
    context = {
        "game": game_row,
        "search_game": game_row,
        "cards": card_selectors.deleted_cards(game_row),
        "may_restore": selectors.may_review(request.user, game_row),
    }
    return render(request, "contributions/deleted_cards.html", context)


@account_required
@require_POST
def card_restore(request: HttpRequest, game: str, version: int) -> HttpResponse:
    game_row = get_object_or_404(Game, slug=game)
    restored: list[Card] = []
    _done_or_refused(
        request,
        lambda: restored.append(editor_actions.card_restore(editor=request.user, game=game_row, version_id=version)),
        _("Restored: the card is back as its last revision kept it."),
    )
    if restored:
        return redirect("cards:card_history", game_row.slug, restored[0].key)
    return redirect("contributions:deleted_cards", game_row.slug)


@account_required
@require_POST
def user_block(request: HttpRequest, game: str, user: int) -> HttpResponse:
    """Block (or unblock: ``action``) a user's contributions to a game; back to the page the form was on."""
    game_row = get_object_or_404(Game, slug=game)
    if request.POST.get("action") == "unblock":
        _done_or_refused(
            request,
            lambda: editor_actions.user_unblock(editor=request.user, game=game_row, user_id=user),
            _("Unblocked: this user may contribute again."),
        )
    else:
        _done_or_refused(
            request,
            lambda: editor_actions.user_block(
                editor=request.user, game=game_row, user_id=user, note=request.POST.get("note", "")
            ),
            _("Blocked: this user's change sets to this game are refused from now on."),
        )
    back = same_site_path(request, request.POST.get("next"))
    return redirect(back or "contributions:review_queue")


@account_required
def mine(request: HttpRequest) -> HttpResponse:
    # The news of change sets is in the one inbox (``notifications``), with every other kind.
    context = {
        "change_sets": selectors.change_sets_of(request.user)[:200],
        "reviews": selectors.reviewed_games(request.user).exists(),
    }
    return render(request, "contributions/mine.html", context)


def _bulk_photo(request: HttpRequest, form: BulkContributionForm) -> StoredImage | None:
    """The bulk form's source photo: a file chosen now (checked and stored, as on the single-card form), else
    the one a preview kept for this user (``BulkContributionForm``); None when there is none. A refusal is put
    on the ``source_photo`` field, with its status, and the kept photo is let go."""
    try:
        photo = _stored_photo(request, form.cleaned_data.get("source_photo"), "source_photo")
        if photo is None:
            kept = form.kept_photo_id(request.user)
            photo = selectors.stored_image(kept) if kept is not None else None
            if kept is not None and photo is None:
                raise signing.BadSignature("no such image")
    except (ImageError, QuotaExceeded) as error:
        form.add_error("source_photo", str(error))
        form.status = error.status
    except signing.BadSignature:
        form.add_error("source_photo", _("The photo kept from your preview cannot be used: choose it again."))
        form.status = 400
    else:
        if photo is not None:
            form.keep_photo(photo, request.user)
        return photo
    posted = mutable_copy(form.data)
    posted.pop("kept_photo", None)
    form.data = posted
    return None


@require_http_methods(["GET"])
def bulk_sheet(request: HttpRequest, game: str) -> HttpResponse:
    """The game's bulk sheet to fill in (CSV): its columns, what each takes in the reader's language, and its
    cards as they are now, for corrections. Anyone may read it, as anyone may read the cards."""
    game_row = get_object_or_404(Game, slug=game)
    response = HttpResponse(presentation.bulk_sheet(game_row, get_language()), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{game_row.slug}-cards.csv"'
    return response


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("contribution")
def bulk_contribution(request: HttpRequest, game: str) -> HttpResponse:
    """Paste a table or upload a file, with an optional source photo; see what it would change; submit it as
    one change set. The photo is stored at the preview and kept for the submission (``BulkContributionForm``)."""
    game_row = _game_to_contribute(request, game)
    form = BulkContributionForm(request.POST or None, request.FILES or None)
    result = None
    valid = request.method == "POST" and form.is_valid()
    # The photo is kept even while another field waits to be corrected: the browser will not send it again.
    photo = _bulk_photo(request, form) if form.is_bound else None
    if valid:
        result = bulk.preview(game_row, form.cleaned_data["text"])
        if request.POST.get("action") == "submit" and result.can_submit and not form.errors:
            data = form.cleaned_data
            try:
                change_set = services.submit_change_set(
                    author=request.user,
                    game=game_row,
                    cards=bulk.card_records(result),
                    partial=True,  # each row changes what it names, as in the preview
                    source_kind=data["source_kind"],
                    source_detail=data.get("source_detail", ""),
                    comment=data.get("comment", ""),
                    source_photo=photo,
                )
            except services.ContributionError as error:
                if "source_photo" in error.errors:  # a photo the user may not attach: said on its field
                    form.add_error("source_photo", str(error))
                    form.status = error.status
                else:
                    show_refusal(request, error, form=form)
            else:
                return thanks(request, change_set)
    context = {
        "game": game_row,
        "search_game": game_row,
        "form": form,
        "preview": presentation.preview_view(game_row, result, get_language()) if result is not None else None,
    }
    return render(request, "contributions/bulk.html", context, status=getattr(form, "status", 200))
