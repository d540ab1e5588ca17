"""What the card pages show of the apps built on cards, without knowing them.

``cards`` sits below decks, collections, contributions and the simulator, so it never imports them. Each
of those apps registers here, in its ``AppConfig.ready()``, what it adds to a card or game page:

- ``register_user_cards(name, counts, ids)``: cards a user holds (``"owned"``: the collection's counts, shown
  beside each card of a search or the deck builder, and the ids of those cards, to list only them);
- ``register_game_right(name, check)``: what a user may do on a game's card pages (``"revert"``: who may revert
  a card's revision, said once with who reviews contributions);
- ``register_game_tool(name, has)``: a tool a game may have (``"fullgame"``: whole-game tools, strategies compared;
  ``"placeholders"``: decks may hold placeholder cards, so a deck can be goldfished before the database holds a
  legal deck's cards);
- ``register_missing_part(name, part)``: a declaration the map of what is missing measures cards against
  (``"rules"``: deck rules; ``"engine"``: the goldfish; ``"fullgame"``: the whole game, where there is one).

Asking for a name nobody registered answers "nothing" (no cards, no right, no tool, no part), so the card
pages stand on their own when a higher app is not installed. The search's ``owned:`` field has its own
registry (``cards.search.compiler.register_user_field``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from cardsite.types import SiteUser


@dataclass(frozen=True)
class UserCards:
    counts: Callable[[Any, Iterable[Any]], Mapping[int, int]]  # (user, cards) -> card id -> copies
    ids: Callable[[Any], QuerySet]  # user -> a subquery of card ids (``cards.filter(pk__in=...)``)


_user_cards: dict[str, UserCards] = {}
_game_rights: dict[str, Callable[[Any, Any], bool]] = {}
_game_tools: dict[str, Callable[[str], bool]] = {}
_missing_parts: dict[str, Callable[[str], Any]] = {}


def _register(registry: dict[str, Any], name: str, item: Any) -> None:
    # The same item again is harmless (ready() may run twice in tests); another one under a taken name is a mistake.
    if registry.get(name, item) is not item:
        raise ValueError(f"{name!r} is registered twice")
    registry[name] = item


def register_user_cards(
    name: str, counts: Callable[[Any, Iterable[Any]], Mapping[int, int]], ids: Callable[[Any], QuerySet]
) -> None:
    existing = _user_cards.get(name)
    if existing is not None and (existing.counts is not counts or existing.ids is not ids):
        raise ValueError(f"{name!r} is registered twice")
    _user_cards[name] = UserCards(counts, ids)


def user_card_counts(name: str, user: SiteUser, cards: Iterable[Any]) -> Mapping[int, int]:
    """Card id -> copies ``user`` holds under ``name``, of ``cards``; empty when nobody registered ``name``."""
    registered = _user_cards.get(name)
    return {} if registered is None else registered.counts(user, cards)


def user_card_ids(name: str, user: SiteUser) -> QuerySet | None:
    """The ids of the cards ``user`` holds under ``name`` (a subquery); None when nobody registered ``name``."""
    registered = _user_cards.get(name)
    return None if registered is None else registered.ids(user)


def register_game_right(name: str, check: Callable[[Any, Any], bool]) -> None:
    _register(_game_rights, name, check)


def may(name: str, user: SiteUser, game: Any) -> bool:
    """Whether ``user`` may do ``name`` on ``game``'s card pages; False when nobody registered ``name``."""
    check = _game_rights.get(name)
    return check is not None and check(user, game)


def register_game_tool(name: str, has: Callable[[str], bool]) -> None:
    _register(_game_tools, name, has)


def game_has(name: str, slug: str) -> bool:
    """Whether the game ``slug`` has the tool ``name``; False when nobody registered ``name``."""
    has = _game_tools.get(name)
    return has is not None and has(slug)


def register_missing_part(name: str, part: Callable[[str], Any]) -> None:
    _register(_missing_parts, name, part)


def missing_part(name: str, slug: str) -> Any:
    """The declaration ``name`` of the game ``slug`` for the map of what is missing; None when there is none."""
    part = _missing_parts.get(name)
    return None if part is None else part(slug)
