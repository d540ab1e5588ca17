"""Reads of the table a whole game is played on. A whole game is played on a deck: for エンドブレイカー！SCG the
deck is the table's choice of piles (the deck rules' ``supply`` zone holds the 9 ability piles, ``jobs`` the 3
job piles), built and checked in the deck builder, and every whole-game tool (a comparison, a seated game, a
strategy search, one strategy on several decks) takes a deck, or the game's default piles (the first by card
number), and plays the piles the deck holds.

A deck is chosen among the user's own decks of the game; a deck someone shared by link is chosen by its link
(``<id>:<token>``, as the deck's page presets it). A set-up saved before set-ups became decks leads to the deck it
became (``MovedSetup``). The game's verdict on a choice of piles names every missing card and value (with where
to fill it) and every pile choice that does not add up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from cards.models import Game
from cardsite.errors import FieldProblems
from cardsite.sharing import can_edit
from decks.models import Deck, DeckEntry
from decks.rules import get_rules
from decks.selectors import access_deck

from ..assumptions.selectors import deck_assumed
from ..fullgames import FullGame, SetupProblem
from ..models import MovedSetup
from ..shared import selectors as fullgame_selectors
from ..shared.selectors import DEFAULT_DECK

LISTED = 100


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
    """The whole game's verdict on the piles ``choices`` names ([]: the game's default piles)."""
    setup, missing, problems = fullgame_selectors.setup_or_refusal(game, fullgame, language, choices)
    return SetupVerdict(setup, missing, problems)


@dataclass(frozen=True)
class TableChoice:
    """What a whole game is played on: a deck's piles, or (``deck`` None) the piles an API request named, [] for
    the game's default piles."""

    name: str
    piles: list[str]
    deck: Deck | None = None


def default_name() -> str:
    return _("The first piles by card number")


def pile_zones(game: Game, fullgame: FullGame) -> tuple[str, ...]:
    """The deck zones that hold the piles the whole game lets a table choose (the zones of the game's deck rules
    that take the whole game's ``choosable`` kinds)."""
    try:
        rules = get_rules(game.slug)
    except KeyError:
        return ()
    return tuple(zone.slug for zone in rules.zones if set(zone.kinds) & set(fullgame.choosable))


def deck_piles(deck: Deck, fullgame: FullGame) -> list[str]:
    """The keys of the piles ``deck`` holds, in card-number order."""
    entries = DeckEntry.objects.filter(deck=deck, zone__in=pile_zones(deck.game, fullgame)).select_related("card")
    return [entry.card.key for entry in entries.order_by("card__sort_key", "card__pk")]


def own_decks(user: Any, game: Game) -> list[Deck]:
    """The decks of ``game`` a user may choose from a list: their own, not archived, the last changed first."""
    if not user.is_authenticated:
        return []
    return list(Deck.objects.filter(owner=user, game=game, archived_at__isnull=True).order_by("-updated_at")[:LISTED])


def assumptions_deck(user: Any, game: Game, reference: str) -> Deck | None:
    """The deck whose assumed-values page a refused set-up points to, where the missing values are filled in
    bulk: the chosen deck when it is the user's own, else the user's last changed deck of the game; None for
    a reader with no deck of it."""
    own = own_decks(user, game)
    pk = reference.partition(":")[0]
    chosen = [deck for deck in own if str(deck.pk) == pk]
    return next(iter(chosen or own), None)


def deck_choices(user: Any, game: Game, *presets: str) -> list[tuple[str, str]]:
    """The choices of a deck field: the user's own decks, and each deck named by ``presets`` (a deck shared by
    link, from its page) that the user may see."""
    own = own_decks(user, game)
    choices = [(str(deck.pk), deck.name) for deck in own]
    for preset in presets:
        if not preset or preset == DEFAULT_DECK or preset in dict(choices):
            continue
        try:
            chosen = choose(user, game, preset)
        except Http404:
            continue
        if chosen.deck is not None and chosen.deck not in own:
            choices.append((preset, f"{chosen.deck.name} ({chosen.deck.owner.get_username()})"))
    return choices


def choose(user: Any, game: Game, reference: str, fullgame: FullGame | None = None) -> TableChoice:
    """The table a reference names (``default``, ``<id>`` or ``<id>:<token>``); Http404 for a deck the user may
    not see or of another game. ``fullgame``: read the deck's piles too."""
    if reference in ("", DEFAULT_DECK):
        return TableChoice(default_name(), [])
    pk, _sep, token = reference.partition(":")
    if not pk.isdigit():
        raise Http404
    deck = access_deck(user, int(pk), token=token or None)
    if deck.game_id != game.pk:
        raise Http404
    return TableChoice(deck.name, deck_piles(deck, fullgame) if fullgame is not None else [], deck)


def table_verdict(game: Game, fullgame: FullGame, table: TableChoice, language: str) -> SetupVerdict:
    """The whole game's verdict on the piles of ``table``. A deck that holds no piles is refused for its count
    (it is not the game's default, which only ``default`` names)."""
    if table.deck is not None and not table.piles:
        problem = SetupProblem("choose_count", {"count": fullgame.choose_count, "chosen": 0})
        return SetupVerdict(None, [], fullgame_selectors.problem_texts([problem]))
    assumed = deck_assumed(table.deck) if table.deck is not None else []
    setup, missing, problems = fullgame_selectors.setup_or_refusal(game, fullgame, language, table.piles, assumed)
    return SetupVerdict(setup, missing, problems)


def moved_deck(setup_id: int) -> Deck | None:
    """The deck a set-up saved before set-ups became decks is now (None: no such set-up, or its deck was
    deleted)."""
    moved = MovedSetup.objects.select_related("deck", "deck__game").filter(setup_id=setup_id).first()
    return moved.deck if moved is not None else None


def deck_address(user: Any, deck: Deck, token: str | None) -> str:
    """Where a deck is seen: its page for someone who may see it by id, its shared address for a link."""
    if can_edit(user, deck) or token is None or token != deck.share_token:
        return reverse("decks:detail", args=[deck.pk])
    return reverse("decks:shared", args=[token])


def requested(request: Any) -> str:
    """The deck a page is asked to play on: the posted choice, else the page's ``?deck=`` (a deck's page presets
    it), else the game's default piles."""
    return str(request.POST.get("deck") or request.GET.get("deck") or DEFAULT_DECK)


DECK_HELP = (
    "The deck whose piles the table lays out: `<id>` (your own deck of the game) or `<id>:<token>` (shared by "
    "link). Without it, `abilities` names the piles, or the game's default piles are played."
)


def api_table(user: Any, game: Game, fullgame: FullGame, deck: str, abilities: list[str]) -> TableChoice:
    """What an API request plays on: ``deck`` (a reference as ``choose`` reads it) or the piles ``abilities``
    names (none: the game's default piles). FieldProblems for a deck the user may not use, or both given."""
    if not deck:
        return TableChoice(default_name(), list(abilities))
    if abilities:
        raise FieldProblems({"deck": [_("Give a deck or the ability piles, not both.")]}, code="deck_and_piles")
    try:
        return choose(user, game, deck, fullgame)
    except Http404:
        raise FieldProblems({"deck": [_("Not a deck of this game you may use.")]}, code="unknown_deck") from None


def refused_fields(field: str, found: SetupVerdict) -> FieldProblems:
    """The verdict's refusal as the API states it, under ``field``."""
    return FieldProblems({field: found.problems or [row.text for row in found.missing]}, code="setup_not_ready")


@dataclass
class ShownVerdict:
    """The verdict a whole-game page shows before anything is posted, and where the player may assume what is
    missing: the deck's assumptions page (its owner), else None."""

    setup: Any
    missing: list[Any]
    problems: list[str]
    assumptions_url: str | None


def shown_verdict(user: Any, game: Game, fullgame: FullGame, reference: str, language: str) -> ShownVerdict:
    """The verdict on the table a page is asked to play on (``requested``): a deck's piles with its assumed values,
    so that a deck its assumptions complete is offered as playable; the game's default piles when no deck is asked
    for or the one asked for may not be seen."""
    try:
        table = choose(user, game, reference, fullgame)
    except Http404:
        table = choose(user, game, DEFAULT_DECK)
    if table.deck is None:
        setup, missing, problems = fullgame_selectors.setup_or_refusal(game, fullgame, language, [])
        return ShownVerdict(setup, missing, problems, None)
    found = table_verdict(game, fullgame, table, language)
    owner = getattr(user, "pk", None) is not None and table.deck.owner_id == user.pk
    url = reverse("assumptions:page", kwargs={"pk": table.deck.pk}) if owner else None
    return ShownVerdict(found.setup, found.missing, found.problems, url)
