"""Writes of written strategies. Every path (the pages, the API, the admin) saves through here, so a strategy is
stored only once its game's engine has read its text without a problem; the problems come back by line, in the
reader's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from cards.models import Game
from cardsite.errors import AppError, Message
from cardsite.sharing import Visibility, new_share_token, set_visibility
from cardsite.text import name_problem, text_problem

from ..fullgames import FullGame, get_fullgame
from ..models import WrittenStrategy
from . import selectors as strategy_selectors

NAME_LIMIT = 120
DESCRIPTION_LIMIT = 5_000
TEXT_LIMIT = 20_000  # characters; the engine also bounds the lines


class StrategyError(AppError):
    """A strategy that cannot be saved as written; nothing was stored."""

    code = "strategy_refused"


def problem_messages(fullgame: FullGame, problems: Sequence[Any]) -> list[Message]:
    """The engine's problems (line, code, params) as messages in the reader's language."""
    messages = []
    for problem in problems:
        what = Message(_(fullgame.strategy_messages[problem.code]), dict(problem.params))
        if problem.line:
            messages.append(Message(_("Line %(line)s: %(problem)s"), {"line": problem.line, "problem": what}))
        else:
            messages.append(what)
    return messages


def check_text(game: Game, text: str, name: str = "") -> list[Message]:
    """What is wrong with ``text`` as a strategy of ``game`` ([] when the engine reads it)."""
    fullgame = _fullgame(game)
    if len(text) > TEXT_LIMIT:
        return [Message(_("A strategy is at most %(limit)s characters long."), {"limit": TEXT_LIMIT})]
    try:
        strategy_selectors.read(fullgame, game, text, name or "strategy")
    except Exception as error:  # the engine's own error type; it carries the problems
        problems = getattr(error, "problems", None)
        if problems is None:
            raise
        return problem_messages(fullgame, problems)
    return []


def _fullgame(game: Game) -> FullGame:
    fullgame = get_fullgame(game.slug)
    if fullgame is None or fullgame.read_strategy is None:
        raise StrategyError(Message(_("%(game)s has no strategies to write."), {"game": game.definition.names}))
    return fullgame


def _checked(game: Game, *, name: str, description: str, text: str, visibility: str) -> None:
    errors: dict[str, list[Any]] = {}
    if not name.strip():
        errors["name"] = [_("A strategy needs a name.")]
    elif len(name.strip()) > NAME_LIMIT:
        errors["name"] = [Message(_("A name is at most %(limit)s characters long."), {"limit": NAME_LIMIT})]
    elif (problem := name_problem(name.strip())) is not None:
        errors["name"] = [problem]
    if len(description) > DESCRIPTION_LIMIT:
        errors["description"] = [
            Message(_("A description is at most %(limit)s characters long."), {"limit": DESCRIPTION_LIMIT})
        ]
    elif (problem := text_problem(description, _("description"))) is not None:
        errors["description"] = [problem]
    if visibility not in Visibility.values:
        errors["visibility"] = [
            Message(_("“%(value)s” is not one of %(choices)s."), {"value": visibility, "choices": Visibility.values})
        ]
    problems = check_text(game, text, name)
    if problems:
        errors["text"] = problems
    if errors:
        raise StrategyError(_("The strategy was not saved: see the problems below."), errors=errors)


@transaction.atomic
def create_strategy(
    *, owner: Any, game: Game, name: str, text: str, description: str = "", visibility: str = Visibility.PRIVATE
) -> WrittenStrategy:
    _checked(game, name=name, description=description, text=text, visibility=visibility)
    return WrittenStrategy.objects.create(
        owner=owner, game=game, name=name.strip(), description=description, text=text, visibility=visibility
    )


@transaction.atomic
def update_strategy(
    strategy: WrittenStrategy,
    *,
    name: str | None = None,
    text: str | None = None,
    description: str | None = None,
    visibility: str | None = None,
) -> WrittenStrategy:
    """Changes what is given; the row is locked while it is read and written (one writer at a time)."""
    current = WrittenStrategy.objects.select_for_update().select_related("game").get(pk=strategy.pk)
    name = current.name if name is None else name
    text = current.text if text is None else text
    description = current.description if description is None else description
    visibility = current.visibility if visibility is None else visibility
    _checked(current.game, name=name, description=description, text=text, visibility=visibility)
    current.name, current.text, current.description = name.strip(), text, description
    set_visibility(current, visibility)
    current.save()
    return current


@transaction.atomic
def regenerate_share_link(strategy: WrittenStrategy) -> str:
    """A new link: the old one stops working."""
    current = WrittenStrategy.objects.select_for_update().get(pk=strategy.pk)
    current.share_token = new_share_token()
    current.save(update_fields=["share_token", "updated_at"])
    return current.share_token


@transaction.atomic
def delete_strategy(strategy: WrittenStrategy) -> None:
    """Deletes it; comparisons already started keep the text they play (``ComparisonRun.written``)."""
    WrittenStrategy.objects.filter(pk=strategy.pk).delete()
