"""Pages of a player's organisation of their own decks: "My decks" filtered and sorted, the folders page, and the
organising form on a deck's page. Thin: reads through ``organise_selectors``, writes through
``organise_services``; only the owner organises (``selectors.access_deck(..., write=True)``: 403 for someone who
can see the deck, 404 for anyone else)."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required
from cards.models import Game
from cardsite.refusals import show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest

from .. import presentation, selectors
from ..models import Deck, DeckFolder
from ..services import DeckError
from . import selectors as organise_selectors
from . import services as organise_services


def _language() -> str:
    return get_language() or "ja"


@account_required
@require_GET
def my_decks(request: HtmxRequest) -> HttpResponse:
    chosen = organise_selectors.DeckFilter.from_query(request.GET)
    language = _language()
    found = organise_selectors.filtered_decks(request.user, chosen, language)
    context = {
        "decks": presentation.with_verdicts(presentation.with_card_counts(found), language),
        "show_verdict": True,
        "show_organisation": True,
        "chosen": chosen,
        "folders": list(organise_selectors.folders_of(request.user)),
        "tags": list(organise_selectors.tags_of(request.user)),
        "games": Game.objects.order_by("sort_order", "slug"),
        "sorts": [
            ("changed", _("Last change, newest first")),
            ("oldest_change", _("Last change, oldest first")),
            ("name", _("Name")),
            ("created", _("Created, newest first")),
        ],
        "no_folder": organise_selectors.NO_FOLDER,
    }
    template = "decks/_my_decks_list.html" if request.htmx else "decks/my_decks.html"
    return render(request, template, context)


@account_required
@require_POST
@rate_limit("deck_write")
def organise(request: HttpRequest, pk: int) -> HttpResponse:
    """The deck page's organising form: folder (an existing one, none, or a new one by name), tags as one line,
    archived or not; all or nothing."""
    deck = selectors.access_deck(request.user, pk, write=True)
    choice = request.POST.get("folder", "")
    try:
        with transaction.atomic():  # a new folder, the tags and the archive: all or nothing
            _organise_from(request, deck, choice)
    except DeckError as error:
        show_refusal(request, error)
    else:
        messages.success(request, _("Saved."))
    return redirect("decks:detail", deck.pk)


def _organise_from(request: HttpRequest, deck: Deck, choice: str) -> None:
    """The form's choices as one ``organise_services.organise`` (run inside the view's transaction)."""
    folder: DeckFolder | object | None = organise_services.KEEP
    typed = request.POST.get("new_folder", "")
    # A typed name is the folder meant, even when "A new folder named…" was not chosen in the menu: the deck goes
    # into the user's folder of that name, made if there is none (it used to be dropped under "Saved.").
    if choice == "new" or typed.strip():
        folder = organise_selectors.folder_named(request.user, typed.strip()) or organise_services.create_folder(
            request.user, typed
        )
    elif choice == organise_selectors.NO_FOLDER:
        folder = None
    elif choice.isascii() and choice.isdigit():
        folder = organise_selectors.folder_of(request.user, int(choice))
        if folder is None:
            raise DeckError(_("That folder is not one of yours."))
    tags = organise_services.parse_tags(request.POST["tags"]) if "tags" in request.POST else None
    archived = {"1": True, "0": False}.get(request.POST.get("archived", ""))
    organise_services.organise(deck, folder=folder, tags=tags, archived=archived)  # type: ignore[arg-type]


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def folders(request: HttpRequest) -> HttpResponse:
    """The user's folders: make one, rename one, delete one (its decks stay, out of any folder)."""
    if request.method == "POST":
        action = request.POST.get("action", "")
        folder = None
        if action in ("rename", "delete"):
            raw = request.POST.get("folder", "")
            folder = organise_selectors.folder_of(request.user, int(raw)) if raw.isascii() and raw.isdigit() else None
            if folder is None:
                show_refusal(request, _("That folder is not one of yours."))
                return redirect("decks:folders")
        try:
            if action == "create":
                made = organise_services.create_folder(request.user, request.POST.get("name", ""))
                messages.success(request, _("Folder “%(name)s” made.") % {"name": made.name})
            elif action == "rename" and folder is not None:
                organise_services.rename_folder(folder, request.POST.get("name", ""))
                messages.success(request, _("Folder renamed to “%(name)s”.") % {"name": folder.name})
            elif action == "delete" and folder is not None:
                organise_services.delete_folder(folder)
                messages.success(request, _("Folder “%(name)s” deleted; its decks are kept.") % {"name": folder.name})
            else:
                show_refusal(request, _("Unknown action."))
        except DeckError as error:
            show_refusal(request, error)
        return redirect("decks:folders")
    context = {"folders": organise_selectors.folders_of(request.user), "limits": organise_services}
    return render(request, "decks/folders.html", context)
