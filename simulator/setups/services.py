"""Reads and writes of saved set-ups (``models.SavedSetup``: the set-up builder's named choices of piles). A set-up is
checked by its game's own rules (``FullGame.build_setup`` over the stored cards) when it is saved and again when
it is used, as a deck is validated by its game's construction rules; the verdict names every missing card and
value (with where to fill it) and every pile choice that does not add up."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from cards.models import Game
from cardsite.errors import AppError, Message
from cardsite.sharing import Visibility, access_shared, set_visibility, visible_to
from cardsite.text import name_problem

from ..fullgames import FullGame
from ..models import SavedSetup
from ..shared import selectors as fullgame_selectors

NAME_LIMIT = 120


class SetupError(AppError):
    code = "setup_refused"


@dataclass
class SetupVerdict:
    """What a set-up's choices make: ``setup`` (None when refused), the missing values and the problems."""

    setup: Any
    missing: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return self.setup is not None


def verdict(game: Game, fullgame: FullGame, choices: list[str], language: str) -> SetupVerdict:
    setup, missing, problems = fullgame_selectors.setup_or_refusal(game, fullgame, language, choices)
    return SetupVerdict(setup, missing, problems)


def setups_of_game(user: Any, game: Game) -> Any:
    return visible_to(SavedSetup.objects.filter(game=game).select_related("owner", "game"), user)


def access_setup(user: Any, pk: int | None = None, *, token: str | None = None, write: bool = False) -> SavedSetup:
    return access_shared(SavedSetup.objects.select_related("owner", "game"), user, pk, token=token, write=write)


def _checked(game: Game, fullgame: FullGame, name: str, choices: list[str], visibility: str, language: str) -> None:
    errors: dict[str, list[Any]] = {}
    if not name.strip():
        errors["name"] = [_("A set-up needs a name.")]
    elif len(name.strip()) > NAME_LIMIT:
        errors["name"] = [Message(_("A name is at most %(limit)s characters long."), {"limit": NAME_LIMIT})]
    elif (problem := name_problem(name.strip())) is not None:
        errors["name"] = [problem]
    if visibility not in Visibility.values:
        errors["visibility"] = [
            Message(_("“%(value)s” is not one of %(choices)s."), {"value": visibility, "choices": Visibility.values})
        ]
    found = verdict(game, fullgame, choices, language)
    if found.problems:
        errors["choices"] = list(found.problems)
    if errors:
        raise SetupError(_("The set-up was not saved: see the problems below."), errors=errors)


def create_setup(
    *, owner: Any, game: Game, fullgame: FullGame, name: str, choices: list[str], visibility: str, language: str
) -> SavedSetup:
    """Saves the set-up; one that the cards cannot make yet only because values are missing is saved (the values
    may be filled in later) and says so wherever it is shown; piles that do not add up are refused."""
    _checked(game, fullgame, name, choices, visibility, language)
    return SavedSetup.objects.create(
        owner=owner, game=game, name=name.strip(), choices=list(choices), visibility=visibility
    )


@transaction.atomic
def update_setup(
    saved: SavedSetup, fullgame: FullGame, *, name: str, choices: list[str], visibility: str, language: str
) -> SavedSetup:
    current = SavedSetup.objects.select_for_update().select_related("game").get(pk=saved.pk)
    _checked(current.game, fullgame, name, choices, visibility, language)
    current.name, current.choices = name.strip(), list(choices)
    set_visibility(current, visibility)
    current.save()
    return current


@transaction.atomic
def delete_setup(saved: SavedSetup) -> None:
    SavedSetup.objects.filter(pk=saved.pk).delete()
