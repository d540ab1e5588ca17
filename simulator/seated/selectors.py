"""Reads of games played one choice at a time: the game replayed from its seed and answers, and what the page and
the API show of it in the reader's language (the table, the log by turn, the pending choice with its options
named)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from cards.models import Card
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
    """The game replayed from its seed with the person's answers (``FullGame.advance``). Answers kept under an
    earlier version of the game's choices are replayed up to the first one the game no longer offers (the person
    is asked again from there; ``answered`` says how many were used)."""
    assert fullgame.advance is not None and fullgame.setup_type is not None
    setup = setup_from_dict(fullgame.setup_type, seated.setup)
    strategies = [
        None if seat == PERSON_SEAT else comparisons.strategy_of(seated, fullgame, seat)  # type: ignore[arg-type]
        for seat in seated.seats
    ]
    try:
        return fullgame.advance(setup, strategies, seated.seed, seated.answers, after_turns=after_turns)
    except fullgame.wrong_answer as outdated:
        used = seated.answers[: getattr(outdated, "index", 0)]
        return fullgame.advance(setup, strategies, seated.seed, used, after_turns=after_turns)


def card_texts(seated: SeatedGame, language: str) -> dict[str, str]:
    """Each card's main text in the reader's language, else in the game's original language (one query)."""
    original = seated.game.definition.original_language
    texts = {}
    for card in Card.objects.filter(game=seated.game).prefetch_related("texts"):
        found = card.text_in(language) or card.text_in(original)
        if found is not None and found.text:
            texts[card.key] = found.text
    return texts


def short_label(label: str) -> str:
    """A strategy's label without its explanation in brackets, for the log's narrow column."""
    for bracket in ("（", " ("):
        if bracket in label:
            return label.split(bracket, 1)[0]
    return label


@dataclass
class Option:
    value: str
    label: str
    # A gain's card as it would come into play (its skill, cost and AT: the table's ``supply_cards``), else None.
    card: dict[str, Any] | None = None


def _pending(
    fullgame: FullGame, pending: Any, names: dict[str, str], language: str, piles: dict[str, Any]
) -> dict[str, Any]:
    """The choice the person is asked, in the words the game declares (``FullGame.describe_choice``); an option
    that gains a pile's card carries that card's values, so the player sees what each gain costs and brings."""
    assert fullgame.describe_choice is not None
    prompt, labels = fullgame.describe_choice(pending.kind, pending.options, names, language)
    gains = piles if pending.kind == "gain" else {}
    options = [Option(value, label, gains.get(value)) for value, label in zip(pending.options, labels, strict=True)]
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
    short_names = [short_label(name) for name in seat_names]
    kinds = {kind.slug: kind.labels for kind in (*CORE_EVENT_KINDS, *fullgame.event_kinds)}
    log = [
        {
            "turn": entry.turn,
            "seat": entry.seat,
            "who": "" if entry.seat is None else short_names[entry.seat],
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
    texts = card_texts(seated, language)
    table = fullgame.table_view(game, seated.person, texts=texts)
    for player in table["players"]:
        player["name"] = seat_names[player["seat"]]
        player["short_name"] = short_names[player["seat"]]
        player["hand_named"] = [
            {**card, "name": names.get(card["key"], card["key"]), "text": texts.get(card["key"], "")}
            for card in player.get("hand_cards") or []
        ]
        player["field_named"] = [{**card, "name": names.get(card["key"], card["key"])} for card in player["field"]]
    for masquerade in table["masquerades"]:
        masquerade["name"] = names.get(masquerade["key"], "") if masquerade["key"] else ""
    if table["junction"]:
        table["junction"]["name"] = names.get(table["junction"]["key"], table["junction"]["key"])
    piles = table.get("supply_cards") or {}
    table["supply_named"] = [
        {"key": key, "name": names.get(key, key), "left": left, "card": piles.get(key)}
        for key, left in table["supply"].items()
    ]
    return {
        "table": table,
        "seat_names": seat_names,
        "log": log,
        "turns": game.turn,
        "answered": played.answered,
        "pending": None if pending is None else _pending(fullgame, pending, names, language, piles),
        # The skills the person's field offers at this choice (what a gain or the scenario is paid with).
        "pool": None if seated.person is None else table["players"][seated.person].get("pool"),
        "winners": [seat_names[seat] for seat in game.winners],
    }
