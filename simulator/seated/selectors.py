"""Reads of games played one choice at a time: the game replayed from its seed and answers, and what the page and
the API show of it in the reader's language (the table, the log by turn, the pending choice with its options
named)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from cardsite.labels import pick

from ..comparisons import services as comparisons
from ..core import CORE_EVENT_KINDS
from ..fullgames import FullGame
from ..models import PERSON_SEAT, SeatedGame
from ..shared import selectors as fullgame_selectors
from ..shared.results import setup_from_dict


def own_game(user: Any, pk: int, game: str | None = None) -> SeatedGame:
    """A played game is its owner's alone: 404 for anyone else (its existence is not revealed)."""
    if not user.is_authenticated:
        raise Http404
    found = SeatedGame.objects.select_related("game").filter(pk=pk, owner=user).first()
    if found is None or (game is not None and found.game.slug != game):
        raise Http404
    return found


def advanced(seated: SeatedGame, fullgame: FullGame, after_turns: int | None = None) -> Any:
    """The game replayed from its seed with the person's answers (``FullGame.advance``)."""
    assert fullgame.advance is not None and fullgame.setup_type is not None
    setup = setup_from_dict(fullgame.setup_type, seated.setup)
    strategies = [
        None if seat == PERSON_SEAT else comparisons.strategy_of(seated, fullgame, seat)  # type: ignore[arg-type]
        for seat in seated.seats
    ]
    return fullgame.advance(setup, strategies, seated.seed, seated.answers, after_turns=after_turns)


@dataclass
class Option:
    value: str
    label: str


def _pending(fullgame: FullGame, pending: Any, names: dict[str, str], language: str) -> dict[str, Any]:
    """The choice the person is asked, in the words the game declares (``FullGame.describe_choice``)."""
    assert fullgame.describe_choice is not None
    prompt, labels = fullgame.describe_choice(pending.kind, pending.options, names, language)
    options = [Option(value, label) for value, label in zip(pending.options, labels, strict=True)]
    return {"kind": pending.kind, "prompt": prompt, "options": options}


def view(seated: SeatedGame, fullgame: FullGame, language: str, after_turns: int | None = None) -> dict[str, Any]:
    """The page's and the API's data: seats named, the table, the log by turn, the pending choice."""
    assert fullgame.table_view is not None
    played = advanced(seated, fullgame, after_turns)
    game = played.game
    names = {card.key: card.name for card in fullgame_selectors.game_cards(seated.game, language)}
    labels = fullgame_selectors.strategy_labels(
        fullgame, [seat for seat in seated.seats if seat != PERSON_SEAT], seated.written, language
    )
    seat_names = [_("You") if seat == PERSON_SEAT else labels[seat] for seat in seated.seats]
    kinds = {kind.slug: kind.labels for kind in (*CORE_EVENT_KINDS, *fullgame.event_kinds)}
    log = [
        {
            "turn": entry.turn,
            "seat": entry.seat,
            "who": "" if entry.seat is None else seat_names[entry.seat],
            "kind": entry.kind,
            "kind_label": pick(kinds.get(entry.kind, {}), language) or entry.kind,
            "card": entry.card,
            "card_name": names.get(entry.card or "", entry.card or ""),
            "amount": entry.amount,
            "detail": entry.detail,
        }
        for entry in game.log
    ]
    pending = played.pending
    table = fullgame.table_view(game, seated.person)
    for player in table["players"]:
        player["name"] = seat_names[player["seat"]]
        player["hand_named"] = [{"key": key, "name": names.get(key, key)} for key in player["hand"] or []]
        player["field_named"] = [{**card, "name": names.get(card["key"], card["key"])} for card in player["field"]]
    for masquerade in table["masquerades"]:
        masquerade["name"] = names.get(masquerade["key"], "") if masquerade["key"] else ""
    if table["junction"]:
        table["junction"]["name"] = names.get(table["junction"]["key"], table["junction"]["key"])
    table["supply_named"] = [
        {"key": key, "name": names.get(key, key), "left": left} for key, left in table["supply"].items()
    ]
    return {
        "table": table,
        "seat_names": seat_names,
        "log": log,
        "turns": game.turn,
        "answered": played.answered,
        "pending": None if pending is None else _pending(fullgame, pending, names, language),
        "winners": [seat_names[seat] for seat in game.winners],
    }
