"""Deck pages: thin views over ``decks.selectors`` (reads), ``decks.services`` (writes) and
``decks.presentation`` (layout). Whether a deck is legal is only ever decided by the game's rules
on the server; the builder shows the verdict the server sends with every change.

Who may do what:

- A private deck is seen only by its owner (404 for everyone else, logged in or not).
- A deck shared by link is seen by its owner at /decks/<pk>/ and by anyone at /decks/shared/<token>/;
  for anyone else /decks/<pk>/ and every other URL with its pk answer 404.
- A deck is never public: what everyone sees is its published snapshot. The page of a deck that was public
  before (``/decks/<pk>/``) sends everyone but its owner to that snapshot, and ``/decks/public/`` to the published
  list (``decks.public_space``), so that no old link dies.
- Only the owner changes a deck. Someone else gets 403 where they can see the deck, 404 where not.
- Anyone not logged in who asks for a page that needs an account (my decks, new deck, the builder,
  settings, copy, delete, any change) is sent to the login page (htmx requests: HX-Redirect).
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required
from cards import extensions
from cards import selectors as card_selectors
from cards.images.selectors import with_pictures
from cards.models import Card, Game
from cards.search.selectors import QueryError, run_search
from cardsite import pagecache
from cardsite.htmx import vary_on_htmx
from cardsite.pagecache import cached_for_readers, kept_for_reader
from cardsite.refusals import refused_page, show_refusal
from cardsite.throttling import rate_limit
from cardsite.types import HtmxRequest

from . import extensions as deck_extensions
from . import presentation, public_space, selectors, services
from .forms import DeckSettingsForm, EntryChangeForm, NewDeckForm
from .models import Deck
from .organise import selectors as organise_selectors
from .placeholders import selectors as placeholder_selectors
from .placeholders.forms import PlaceholderForm
from .rules import get_rules

SEARCH_PAGE_SIZE = 30


def _language() -> str:
    return get_language() or "ja"


def _builder_message(request: HtmxRequest, message: str, status: int) -> HttpResponse:
    """An error of the builder: shown in its message area, nothing else changes."""
    if not request.htmx:
        return refused_page(request, message, status, back_url=reverse("decks:my_decks"), back_label=_("My decks"))
    response = render(request, "decks/_builder_message.html", {"message": message}, status=status)
    response["HX-Retarget"] = "#builder-message"
    response["HX-Reswap"] = "innerHTML"
    return response


def builder_errors(view):
    """Builder requests answer a missing or foreign deck with a message for the builder."""

    @wraps(view)
    def wrapper(request: HtmxRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Http404:
            return _builder_message(request, _("There is no such deck, or it is not yours."), 404)
        except PermissionDenied:
            return _builder_message(request, _("Only the owner of this deck can change it."), 403)

    return wrapper


# --- lists ------------------------------------------------------------------------------------------


def public_decks(request: HttpRequest) -> HttpResponse:
    """The former list of public decks: the published list of the same game (a permanent move)."""
    slug = request.GET.get("game") or None
    target = public_space.list_url(slug if slug and Game.objects.filter(slug=slug).exists() else None)
    if target is None:
        raise Http404
    return redirect(target, permanent=True)


# --- one deck ---------------------------------------------------------------------------------------


def _deck_layout(deck: Deck, language: str, counts: list[tuple[str, int, int]]) -> str:
    """The deck page's zones, verdict, mode and charts, the same for every reader: rendered once for each
    state of the deck's entries, mode and options and of the cards (``pagecache.fragment``), so that its
    owner and signed-in readers, whom the page cache does not serve, get it without the rules being run."""
    placeholders = placeholder_selectors.state(deck)
    state = (deck.pk, deck.game.slug, deck.mode, sorted(deck.options.items()), counts, placeholders)

    def render() -> str:
        return render_to_string(
            "decks/_deck_layout.html", {"deck": deck, "view": presentation.deck_view(deck, language)}
        )

    # A template's output, escaped when it was rendered: kept in the cache, it may come back a plain str.
    return mark_safe(pagecache.fragment(("decks:detail", *state), ("cards",), render))


def _detail(request: HttpRequest, deck: Deck, *, token: str | None = None) -> HttpResponse:
    language = _language()
    counts = selectors.entry_counts(deck)
    context = {
        "deck": deck,
        "head": presentation.deck_head(deck, language, counts),
        "layout": _deck_layout(deck, language, counts),
        "is_owner": selectors.can_edit(request.user, deck),
        "lineage": dict(zip(("source", "source_hidden", "forks"), selectors.lineage(request.user, deck), strict=True)),
        "token": token,
        "panels": deck_extensions.deck_panels(request, deck, token),  # what higher apps show of this deck
        "share_url": request.build_absolute_uri(reverse("decks:shared", args=[deck.share_token]))
        if deck.visibility == Deck.Visibility.LINK
        else "",
    }
    if context["is_owner"]:  # the owner's own organisation (folder, tags, archive), shown to the owner alone
        context["folders"] = organise_selectors.folders_of(request.user)
        context["deck_tags"] = ", ".join(tag.name for tag in deck.tags.all())
        context["no_folder"] = organise_selectors.NO_FOLDER
        if get_rules(deck.game.slug).placeholders:  # the owner's form for cards not in the database yet
            context["placeholder_form"] = PlaceholderForm(deck=deck, language=language)
            context["own_placeholders"] = presentation.placeholder_views(deck, language)
    return render(request, "decks/detail.html", context)


@cached_for_readers("cards", "decks")
@kept_for_reader()
def deck_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        deck = selectors.access_deck(request.user, pk)
    except Http404:
        # A deck that was public before decks stopped being public: its old link leads to its published
        # snapshot (a temporary move: the author may withdraw it).
        moved = public_space.deck_url(pk)
        if moved is None:
            raise
        return redirect(moved)
    return _detail(request, deck)


@cached_for_readers("cards", "decks")
def shared_deck(request: HttpRequest, token: str) -> HttpResponse:
    deck = selectors.access_deck(request.user, token=token)
    return _detail(request, deck, token=token)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def new_deck(request: HttpRequest) -> HttpResponse:
    game = Game.objects.filter(slug=request.GET.get("game", "")).first()
    form = NewDeckForm(request.POST or None, game=game if request.method == "GET" else None)
    if request.method == "POST" and form.is_valid():
        try:
            deck = services.create_deck(
                owner=request.user,
                game=form.cleaned_data["game"],
                name=form.cleaned_data["name"],
                mode=form.cleaned_data["mode"] or None,
            )
        except services.DeckError as error:
            show_refusal(request, error, form=form)
        else:
            return redirect("decks:edit", deck.pk)
    return render(request, "decks/new.html", {"form": form})


@account_required
@require_GET
@kept_for_reader()
def deck_builder(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.access_deck(request.user, pk, write=True)
    language = _language()
    context = {
        "deck": deck,
        "view": presentation.deck_view(deck, language),
        "kinds": presentation.builder_kinds(deck, language),
        "is_owner": True,
        **_search_context(request, deck),
    }
    if get_rules(deck.game.slug).placeholders:  # cards not in the database yet, added here as on the deck page
        context["placeholder_form"] = PlaceholderForm(deck=deck, language=language)
        context["own_placeholders"] = presentation.placeholder_views(deck, language)
    return render(request, "decks/builder.html", context)


def _search_context(request: HttpRequest, deck: Deck) -> dict:
    """Cards of the deck's game for the builder: the query (search syntax), a kind, a page."""
    query = request.GET.get("q", "").strip()
    kind = request.GET.get("kind") or ""
    owned_only = request.GET.get("owned") == "1"
    language = _language()
    context: dict = {"query": query, "kind": kind, "owned_only": owned_only}
    rules = get_rules(deck.game.slug)

    def narrow(cards: QuerySet[Card]) -> QuerySet[Card]:
        if kind == "unknown":
            cards = cards.filter(kind__isnull=True)
        elif kind:
            cards = cards.filter(kind=kind)
        if owned_only:
            owned_ids = extensions.user_card_ids("owned", request.user)
            cards = cards.none() if owned_ids is None else cards.filter(pk__in=owned_ids)
        return cards

    def rows(page: Page) -> list[dict]:
        return [presentation.builder_row(card, rules, language) for card in with_pictures(page)]

    if query:
        try:
            found = run_search(
                query,
                language,
                game=deck.game,
                user=request.user,
                page=request.GET.get("page"),
                per_page=SEARCH_PAGE_SIZE,
                narrow=narrow if kind or owned_only else None,
                rows=rows,
            )
        except QueryError as failure:
            context["error"] = failure.message
            return context
        page, context["rows"] = found.page, found.rows
    else:  # no query, no search: the game's cards in their order
        page = Paginator(narrow(card_selectors.cards_of_game(deck.game)), SEARCH_PAGE_SIZE).get_page(
            request.GET.get("page")
        )
        context["rows"] = rows(page)
    context["owned"] = extensions.user_card_counts("owned", request.user, [row["card"] for row in context["rows"]])
    context["page"] = page
    return context


@account_required
@builder_errors
@require_GET
@vary_on_htmx
@rate_limit("search", methods=("GET",))
@kept_for_reader()
def builder_search(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.access_deck(request.user, pk, write=True)
    context = {"deck": deck, **_search_context(request, deck)}
    return render(request, "decks/_search_results.html", context)


@account_required
@builder_errors
@require_POST
@rate_limit("deck_write")
def change_entry(request: HtmxRequest, pk: int) -> HttpResponse:
    """Add or remove copies of a card in a zone; answer with the zone, verdict, charts and total."""
    deck = selectors.access_deck(request.user, pk, write=True)
    form = EntryChangeForm(request.POST, deck=deck)
    if not form.is_valid():
        return _builder_message(request, form.error_message(), 400)
    zone, card = form.cleaned_data["zone"], form.cleaned_data["card"]
    try:
        if form.cleaned_data["count"] is not None:
            services.set_count(deck, zone, card, form.cleaned_data["count"])
        else:
            services.add_copies(deck, zone, card, form.cleaned_data["delta"])
    except services.DeckError as error:
        return _builder_message(request, str(error), 400)
    if not request.htmx:
        return redirect("decks:edit", deck.pk)
    change = presentation.change_view(deck, zone, _language())
    return render(request, "decks/_entry_changed.html", {"deck": deck, "change": change})


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def deck_settings(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.access_deck(request.user, pk, write=True)
    form = DeckSettingsForm(request.POST or None, deck=deck)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_deck(
                deck,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                mode=form.cleaned_data["mode"],
                options=form.chosen_options(),
                visibility=form.cleaned_data["visibility"],
            )
        except services.DeckError as error:
            show_refusal(request, error, form=form)
        else:
            messages.success(request, _("The deck settings were saved."))
            return redirect("decks:detail", deck.pk)
    return render(request, "decks/settings.html", {"deck": deck, "form": form})


@account_required
@require_POST
@rate_limit("deck_write")
def new_share_link(request: HttpRequest, pk: int) -> HttpResponse:
    """Replace the deck's share link: whoever has the old one can no longer see the deck through it."""
    deck = selectors.access_deck(request.user, pk, write=True)
    services.regenerate_share_link(deck)
    messages.success(request, _("The deck has a new share link; the old one no longer works."))
    return redirect("decks:detail", deck.pk)


@account_required
@require_POST
@rate_limit("deck_write")
def copy_deck(request: HttpRequest, pk: int) -> HttpResponse:
    """A private copy for the user of any deck they can see (a shared deck: with its token)."""
    copy = services.copy_deck(request.user, pk, token=request.POST.get("token") or None)
    deck = copy.forked_from
    assert deck is not None  # a copy records the deck it copies
    messages.success(request, _("This is your copy of “%(name)s”.") % {"name": deck.name})
    return redirect("decks:edit", copy.pk)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def delete_deck(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.access_deck(request.user, pk, write=True)
    if request.method == "POST":
        name = deck.name
        services.delete_deck(deck)
        messages.success(request, _("The deck “%(name)s” was deleted.") % {"name": name})
        return redirect("decks:my_decks")
    return render(request, "decks/delete.html", {"deck": deck})
