"""Pages of the strategies players write for a whole game (the strategy editor), under
``/simulator/games/<game>/strategies/``: the list (the player's own, the public ones and the shipped ones), the editor
with the server's verdict by line as one types (htmx), a strategy's page, and sharing like a deck's (private, by link,
public; ``cardsite.sharing``). Thin: reads in ``strategies.selectors``, writes in ``strategies.services``."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.decorators import account_required
from cards.models import Game
from cardsite.labels import pick
from cardsite.sharing import Visibility, can_edit
from cardsite.throttling import rate_limit

from .. import inputs
from ..fullgames import FullGame
from ..models import WrittenStrategy
from ..shared import selectors as fullgame_selectors
from . import selectors as strategy_selectors
from . import services as strategy_services
from .forms import StrategyForm

LISTED = 100


def _writable_game(slug: str) -> tuple[Game, FullGame]:
    game, fullgame = fullgame_selectors.fullgame_or_404(slug)
    if fullgame.read_strategy is None or fullgame.write_strategy is None:
        raise Http404
    return game, fullgame


def _shipped(fullgame: FullGame, language: str) -> list[dict[str, str]]:
    return [
        {"name": name, "label": pick(fullgame.strategy_labels.get(name, {}), language) or name}
        for name in fullgame.strategies
    ]


def _editor_context(game: Game, fullgame: FullGame, form: StrategyForm, language: str) -> dict[str, Any]:
    """What the editor shows beside the text: the syntax, the cards a gain line may name, the choices."""
    cards = fullgame_selectors.game_cards(game, language)
    names = {card.key: card.name for card in cards}
    return {
        "game": game,
        "game_name": pick(fullgame.names, language),
        "form": form,
        "syntax_template": fullgame.syntax_template,
        "gainable": [card for card in cards if card.kind in fullgame.gainable_kinds],
        "questions": [
            {
                "question": question,
                "card": names.get(question.split(":")[0], ""),
                "phrase": asked.phrase,
                "default": asked.default,
            }
            for question, asked in fullgame.questions.items()
        ],
        "check_url": reverse("strategies:check", args=[game.slug]),
    }


@require_GET
def strategy_list(request: HttpRequest, game: str) -> HttpResponse:
    game_obj, fullgame = _writable_game(game)
    language = inputs.language()
    listed = strategy_selectors.strategies_of_game(request.user, game_obj)
    own = list(listed.filter(owner=request.user)[:LISTED]) if request.user.is_authenticated else []
    public = list(listed.filter(visibility=Visibility.PUBLIC).exclude(pk__in=[s.pk for s in own])[:LISTED])
    context = {
        "game": game_obj,
        "game_name": pick(fullgame.names, language),
        "own": own,
        "public": public,
        "shipped": _shipped(fullgame, language),
    }
    return render(request, "simulator/strategy_list.html", context)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def strategy_new(request: HttpRequest, game: str) -> HttpResponse:
    game_obj, fullgame = _writable_game(game)
    language = inputs.language()
    initial: dict[str, Any] = {}
    if request.method == "GET":
        initial = _starting_point(request, game_obj, fullgame)
    form = StrategyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            strategy = strategy_services.create_strategy(owner=request.user, game=game_obj, **form.cleaned_data)
        except strategy_services.StrategyError as refused:
            form.add_refusal(refused)
        else:
            return redirect("strategies:detail", game=game, pk=strategy.pk)
    context = {**_editor_context(game_obj, fullgame, form, language), "strategy": None}
    return render(request, "simulator/strategy_edit.html", context, status=400 if form.errors else 200)


def _starting_point(request: HttpRequest, game: Game, fullgame: FullGame) -> dict[str, Any]:
    """A new strategy starts from a shipped one (``?from=<name>``), a copy of one the user may see
    (``?copy=<id>``, with ``&token=`` for one shared by link), or the first shipped one."""
    assert fullgame.write_strategy is not None
    copy = request.GET.get("copy", "")
    if copy.isdigit():
        source = strategy_selectors.access_strategy(request.user, int(copy), token=request.GET.get("token") or None)
        if source.game_id == game.pk:
            return {"name": source.name, "text": source.text, "description": source.description}
    name = request.GET.get("from", "")
    if name not in fullgame.strategies:
        name = next(iter(fullgame.strategies))
    return {"name": name, "text": fullgame.write_strategy(fullgame.strategies[name])}


@require_POST
@rate_limit("search")
def strategy_check(request: HttpRequest, game: str) -> HttpResponse:
    """The server's verdict on the text being typed (htmx swaps it in beside the editor)."""
    game_obj, _fullgame = _writable_game(game)
    text = request.POST.get("text", "")
    problems = strategy_services.check_text(game_obj, text, request.POST.get("name", ""))
    return render(request, "simulator/_strategy_problems.html", {"problems": problems, "checked": bool(text.strip())})


def _detail(request: HttpRequest, strategy: WrittenStrategy, token: str | None = None) -> HttpResponse:
    game, fullgame = _writable_game(strategy.game.slug)
    language = inputs.language()
    is_owner = can_edit(request.user, strategy)
    share_url = (
        request.build_absolute_uri(reverse("strategies:shared", args=[game.slug, strategy.share_token]))
        if strategy.visibility == Visibility.LINK
        else ""
    )
    usable = is_owner or strategy.visibility == Visibility.PUBLIC
    context = {
        "game": game,
        "game_name": pick(fullgame.names, language),
        "strategy": strategy,
        "is_owner": is_owner,
        "token": token,
        "share_url": share_url,
        "compare_url": f"{reverse('comparisons:compare', args=[game.slug])}?strategy={strategy.reference}"
        if usable and request.user.is_authenticated
        else "",
        "copy_url": f"{reverse('strategies:new', args=[game.slug])}?copy={strategy.pk}"
        + (f"&token={token}" if token else ""),
        "problems": strategy_services.check_text(game, strategy.text, strategy.name),
    }
    return render(request, "simulator/strategy_detail.html", context)


@require_GET
def strategy_detail(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    strategy = strategy_selectors.access_strategy(request.user, pk, token=request.GET.get("token") or None)
    if strategy.game.slug != game:
        raise Http404
    return _detail(request, strategy, token=request.GET.get("token") or None)


@require_GET
def strategy_shared(request: HttpRequest, game: str, token: str) -> HttpResponse:
    strategy = strategy_selectors.access_strategy(request.user, token=token)
    if strategy.game.slug != game:
        raise Http404
    return _detail(request, strategy, token=token)


@require_GET
def shipped_detail(request: HttpRequest, game: str, name: str) -> HttpResponse:
    game_obj, fullgame = _writable_game(game)
    if name not in fullgame.strategies:
        raise Http404
    assert fullgame.write_strategy is not None
    language = inputs.language()
    context = {
        "game": game_obj,
        "game_name": pick(fullgame.names, language),
        "name": name,
        "label": pick(fullgame.strategy_labels.get(name, {}), language) or name,
        "text": fullgame.write_strategy(fullgame.strategies[name]),
    }
    return render(request, "simulator/strategy_shipped.html", context)


@account_required
@require_http_methods(["GET", "POST"])
@rate_limit("deck_write")
def strategy_edit(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    strategy = strategy_selectors.access_strategy(request.user, pk, write=True)
    game_obj, fullgame = _writable_game(strategy.game.slug)
    if game_obj.slug != game:
        raise Http404
    initial = {
        "name": strategy.name,
        "text": strategy.text,
        "description": strategy.description,
        "visibility": strategy.visibility,
    }
    form = StrategyForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            strategy_services.update_strategy(strategy, **form.cleaned_data)
        except strategy_services.StrategyError as refused:
            form.add_refusal(refused)
        else:
            return redirect("strategies:detail", game=game, pk=strategy.pk)
    context = {**_editor_context(game_obj, fullgame, form, inputs.language()), "strategy": strategy}
    return render(request, "simulator/strategy_edit.html", context, status=400 if form.errors else 200)


@account_required
@require_POST
@rate_limit("deck_write")
def strategy_delete(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    strategy = strategy_selectors.access_strategy(request.user, pk, write=True)
    strategy_services.delete_strategy(strategy)
    return redirect("strategies:list", game=game)


@account_required
@require_POST
@rate_limit("deck_write")
def strategy_new_link(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    strategy = strategy_selectors.access_strategy(request.user, pk, write=True)
    strategy_services.regenerate_share_link(strategy)
    return redirect("strategies:detail", game=game, pk=strategy.pk)
