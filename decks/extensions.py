"""What a deck's page shows of the apps built on decks, without knowing them.

``decks`` sits below the simulator, community and collections, so it never imports them. A higher app registers
here, in its ``AppConfig.ready()``, a panel of the deck page: ``register_deck_panel(name, panel)``, where
``panel(request, deck, token)`` gives the panel's HTML for that deck (already escaped; "" to show nothing). The
simulator's ``"whole_game"`` panel gives the whole game's verdict on an エンドブレイカー！SCG deck's piles.
Nobody registered: no panel, and the deck page stands on its own.

A higher app that keeps something of its own with a deck registers ``register_deck_copied(hook)``: when a deck is
copied (``services.copy_deck``; ``services.branch_version``, a deck made from one of its versions; a published
deck's copy, ``community.services.copy_publication``), every hook is called as ``hook(source, copy)`` inside the
copy's transaction, so that the copy takes what the app keeps with the source (the simulator: the deck's assumed
values) or nothing is copied at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.safestring import SafeString

Panel = Callable[[Any, Any, str | None], SafeString | str]
CopiedHook = Callable[[Any, Any], object]

_panels: dict[str, Panel] = {}
_copied: list[CopiedHook] = []


def register_deck_panel(name: str, panel: Panel) -> None:
    # The same panel again is harmless (ready() may run twice in tests); another one under a taken name is a mistake.
    if _panels.get(name, panel) is not panel:
        raise ValueError(f"{name!r} is registered twice")
    _panels[name] = panel


def deck_panels(request: Any, deck: Any, token: str | None) -> list[SafeString | str]:
    """The panels every registered app gives for ``deck`` (seen by ``request``'s user, through ``token`` for a
    deck shared by link), in the order they were registered, less the empty ones."""
    return [html for panel in _panels.values() if (html := panel(request, deck, token))]


def register_deck_copied(hook: CopiedHook) -> None:
    # The same hook again is harmless (ready() may run twice in tests).
    if hook not in _copied:
        _copied.append(hook)


def deck_copied(source: Any, copy: Any) -> None:
    """Tell every registered app that ``copy`` was made from ``source`` (called inside the copy's transaction)."""
    for hook in _copied:
        hook(source, copy)
