"""Pages of the set-up builder, under ``/simulator/games/<game>/setups/``: choose the piles, see the
game's verdict as you choose (htmx asks the server, which alone decides), name and share the set-up like a deck,
and use it: its piles preset the comparison, play and search forms, and ``/simulator/games/<game>/compare/setups/``
compares one strategy on two to four set-ups. Thin: reads and writes in ``setups.services``."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required
from cardsite.errors import AppError
from cardsite.labels import pick
from cardsite.sharing import Visibility, can_edit
from cardsite.throttling import rate_limit

from .. import inputs
from ..models import SavedSetup
from ..shared import selectors as fullgame_selectors
from . import services as setup_services
from .forms import SetupForm

LISTED = 100


def _choosable(game: Any, fullgame: Any, language: str) -> list[Any]:
    return [card for card in fullgame_selectors.game_cards(game, language) if card.kind in fullgame.choosable]


@require_GET
def setup_list(request: HttpRequest, game: str) -> HttpResponse:
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    listed = setup_services.setups_of_game(request.user, game_obj)
    own = list(listed.filter(owner=request.user)[:LISTED]) if request.user.is_authenticated else []
    public = list(listed.filter(visibility=Visibility.PUBLIC).exclude(pk__in=[s.pk for s in own])[:LISTED])
    context = {"game": game_obj, "game_name": pick(fullgame.names, inputs.language()), "own": own, "public": public}
    return render(request, "simulator/setup_list.html", context)


def _editor(request: HttpRequest, game: str, saved: SavedSetup | None) -> HttpResponse:
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    language = inputs.language()
    initial = (
        {"name": saved.name, "abilities": saved.choices, "visibility": saved.visibility} if saved is not None else {}
    )
    form = SetupForm(
        request.POST or None, fullgame=fullgame, abilities=_choosable(game_obj, fullgame, language), initial=initial
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {"name": data["name"], "choices": data["abilities"], "visibility": data["visibility"]}
        try:
            if saved is None:
                saved = setup_services.create_setup(
                    owner=request.user, game=game_obj, fullgame=fullgame, language=language, **fields
                )
            else:
                saved = setup_services.update_setup(saved, fullgame, language=language, **fields)
        except AppError as refused:
            for field_name, messages in refused.errors.items():
                for message in messages:
                    form.add_error("abilities" if field_name == "choices" else field_name, message)
        else:
            return redirect("setups:detail", game=game, pk=saved.pk)
    chosen = form.data.getlist("abilities") if form.is_bound else list(initial.get("abilities", []))
    context = {
        "game": game_obj,
        "game_name": pick(fullgame.names, language),
        "form": form,
        "saved": saved,
        "verdict": setup_services.verdict(game_obj, fullgame, chosen, language),
        "check_url": reverse("setups:check", args=[game]),
    }
    return render(request, "simulator/setup_edit.html", context, status=400 if form.errors else 200)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def setup_new(request: HttpRequest, game: str) -> HttpResponse:
    return _editor(request, game, None)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def setup_edit(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    saved = setup_services.access_setup(request.user, pk, write=True)
    if saved.game.slug != game:
        raise Http404
    return _editor(request, game, saved)


@require_POST
@rate_limit("search")
def setup_check(request: HttpRequest, game: str) -> HttpResponse:
    """The game's verdict on the piles being chosen (htmx swaps it in)."""
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    found = setup_services.verdict(game_obj, fullgame, request.POST.getlist("abilities"), inputs.language())
    return render(request, "simulator/_setup_verdict.html", {"verdict": found})


@require_GET
def setup_detail(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    token = request.GET.get("token") or None
    saved = setup_services.access_setup(request.user, pk, token=token)
    if saved.game.slug != game:
        raise Http404
    game_obj, fullgame = fullgame_selectors.fullgame_or_404(game)
    language = inputs.language()
    names = {card.key: card.name for card in _choosable(game_obj, fullgame, language)}
    context = {
        "game": game_obj,
        "game_name": pick(fullgame.names, language),
        "saved": saved,
        "piles": [{"key": key, "name": names.get(key, "")} for key in saved.choices],
        "verdict": setup_services.verdict(game_obj, fullgame, saved.choices, language),
        "is_owner": can_edit(request.user, saved),
        "share_url": request.build_absolute_uri(
            f"{reverse('setups:detail', args=[game, saved.pk])}?token={saved.share_token}"
        )
        if saved.visibility == Visibility.LINK and can_edit(request.user, saved)
        else "",
        "preset": "&".join(f"abilities={key}" for key in saved.choices),
        "usable": can_edit(request.user, saved) or saved.visibility == Visibility.PUBLIC,
    }
    return render(request, "simulator/setup_detail.html", context)


@account_required
@require_POST
@rate_limit("deck_write")
def setup_delete(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    setup_services.delete_setup(setup_services.access_setup(request.user, pk, write=True))
    return redirect("setups:list", game=game)
