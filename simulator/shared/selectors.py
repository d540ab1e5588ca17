"""Reads for the whole games (``simulator.fullgames``): the set-up built from the stored cards, and what the
database lacks for it, each card and value linked to where it is filled (``cards.filling.where_to_fill``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from cards.filling import where_to_fill
from cards.models import Card, Game
from cards.presentation import field_label, kind_label
from cardsite.labels import pick

from ..adapters import sim_card
from ..assumptions.overlay import Assumed, overlay
from ..core import SimCard
from ..fullgames import SETUP_PROBLEMS, FullGame, SetupRefused, get_fullgame
from .results import setup_from_dict

DEFAULT_DECK = "default"  # in a choice of decks: the game's default piles (the first by card number)


def fullgame_or_404(slug: str) -> tuple[Game, FullGame]:
    """The game and its whole game; 404 for a game the site does not know or that has no whole game."""
    fullgame = get_fullgame(slug)
    game = Game.objects.filter(slug=slug).first()
    if fullgame is None or game is None:
        raise Http404
    return game, fullgame


def game_cards(game: Game, language: str) -> list[SimCard]:
    """Every card of ``game`` as the simulator sees it, in card-number order."""
    cards = Card.objects.filter(game=game).select_related("game").prefetch_related("texts").order_by("sort_key", "pk")
    return [sim_card(card, language) for card in cards]


def build_setup(
    game: Game, fullgame: FullGame, abilities: Sequence[str], language: str, assumed: Sequence[Assumed] = ()
) -> Any:
    """The whole game's set-up from the stored cards, with a deck's ``assumed`` values overlaid (the only place
    where the engines meet them: ``assumptions.overlay``); raises ``SetupRefused`` naming what is missing."""
    return fullgame.build_setup(overlay(game_cards(game, language), assumed), list(abilities))


@dataclass(frozen=True)
class MissingRow:
    """One value (or card) a set-up lacks, in the reader's language, with where to fill it."""

    key: str
    name: str
    value: str  # the value's name; "" when the card itself is missing
    role: str
    url: str
    text: str
    name_language: str | None = None  # the language of ``name`` when it is not the reader's (a card name in Japanese)

    @property
    def html(self) -> SafeString:
        """``text`` for a page: the card's name marked with its language inside a sentence of another, so that
        screen readers and fonts read it as what it is."""
        if not self.value or not self.name_language:
            return escape(self.text)
        name = format_html('<span lang="{}">{}</span>', self.name_language, self.name)
        sentence = escape(_("%(name)s (%(key)s, %(role)s): %(value)s is unknown."))
        values = {"name": name, "key": escape(self.key), "role": escape(self.role), "value": escape(self.value)}
        return mark_safe(sentence % values)  # every part is escaped above


def _foreign(shown: Any, language: str) -> str | None:
    """The language of a shown name when it is not the reader's ``language``."""
    code = shown.language
    return code if code and code.lower() != language.lower() else None


def refusal_rows(game: Game, fullgame: FullGame, refused: SetupRefused, language: str) -> list[MissingRow]:
    names = dict(Card.objects.filter(game=game, key__in=[r.key for r in refused.refused]).values_list("key", "pk"))
    cards = {card.key: card for card in Card.objects.filter(pk__in=names.values()).prefetch_related("texts")}
    rows = []
    for entry in refused.refused:
        role = pick(fullgame.roles.get(entry.role, {}), language) or entry.role
        if entry.field is None:
            kind = kind_label(game, entry.kind, language) if entry.kind else ""
            if entry.key:
                text = _("%(key)s (%(role)s) is not in the database.") % {"key": entry.key, "role": role}
                url = where_to_fill(game, kind=entry.kind, number=entry.key if "-" in entry.key else None)
            else:
                text = _("Too few %(kind)s cards are known for the %(role)s.") % {"kind": kind, "role": role}
                url = where_to_fill(game, kind=entry.kind)
            rows.append(MissingRow(entry.key, entry.key, "", role, url, text))
            continue
        card = cards.get(entry.key)
        shown = card.shown_name(language) if card else None
        name = shown.text if shown else entry.key
        value = field_label(game, entry.field, language)
        text = _("%(name)s (%(key)s, %(role)s): %(value)s is unknown.") % {
            "name": name,
            "key": entry.key,
            "role": role,
            "value": value,
        }
        url = where_to_fill(game, entry.key, field=entry.field)
        rows.append(MissingRow(entry.key, name, value, role, url, text, _foreign(shown, language) if shown else None))
    if any(not row.value for row in rows):
        # While a card is missing the set-up is not built, so the values it would read are not asked of the
        # cards there are: they are listed too, so that the whole of what is missing shows at once.
        rows += _values_of_present_cards(game, fullgame, language, {(row.key, row.value) for row in rows})
    order: dict[str, int] = {}
    for row in rows:
        order.setdefault(row.role, len(order))
    return sorted(rows, key=lambda row: order[row.role])  # grouped by role, in the order the roles first come


def _values_of_present_cards(
    game: Game, fullgame: FullGame, language: str, listed: set[tuple[str, str]]
) -> list[MissingRow]:
    """The values the whole game reads (``FullGame.card_needs``) that the game's cards lack, one row a value."""
    kinds = {kind for need in fullgame.card_needs for kind in need.kinds}
    cards = Card.objects.filter(game=game).select_related("game").prefetch_related("texts").order_by("sort_key")
    if kinds and not any(not need.kinds for need in fullgame.card_needs):
        cards = cards.filter(kind__in=kinds)
    rows = []
    for card in cards:
        checked = card.checked
        kind = checked.kind
        for need in fullgame.card_needs:
            if (need.kinds and kind not in need.kinds) or need.field in checked.fields:
                continue
            if kind is not None and not any(spec.name == need.field for spec in game.definition.fields_for_kind(kind)):
                continue
            value = field_label(game, need.field, language)
            if (card.key, value) in listed:
                continue
            listed.add((card.key, value))
            shown = card.shown_name(language)
            name = shown.text
            role = kind_label(game, kind, language)
            text = _("%(name)s (%(key)s, %(role)s): %(value)s is unknown.") % {
                "name": name,
                "key": card.key,
                "role": role,
                "value": value,
            }
            url = where_to_fill(game, card.key, field=need.field)
            rows.append(MissingRow(card.key, name, value, role, url, text, _foreign(shown, language)))
    return rows


def result_notes(fullgame: FullGame, setups: Sequence[dict[str, Any]], language: str) -> list[str]:
    """The assumptions the results on these stored set-ups rest on (``FullGame.result_notes``), each said once."""
    if fullgame.result_notes is None or fullgame.setup_type is None:
        return []
    notes: list[str] = []
    for data in setups:
        if data:
            for note in fullgame.result_notes(setup_from_dict(fullgame.setup_type, data), language):
                if note not in notes:
                    notes.append(note)
    return notes


def strategy_labels(fullgame: FullGame, names: Sequence[str], written: dict[str, Any], language: str) -> dict[str, str]:
    """What each seat's strategy is called: a shipped one by its label in ``language``, a written one by the name
    it had when the run started."""
    labels = {}
    for name in names:
        if name in written:
            labels[name] = written[name]["name"]
        else:
            labels[name] = pick(fullgame.strategy_labels.get(name, {}), language) or name
    return labels


def setup_or_refusal(
    game: Game, fullgame: FullGame, language: str, abilities: list[str], assumed: Sequence[Assumed] = ()
) -> tuple[Any, list[Any], list[str]]:
    """The set-up, or None with the rows of what is missing and the problems of the chosen piles."""
    try:
        return build_setup(game, fullgame, abilities, language, assumed), [], []
    except SetupRefused as refused:
        return None, refusal_rows(game, fullgame, refused, language), problem_texts(refused.problems)


def problem_texts(problems: Sequence[Any]) -> list[str]:
    """The set-up's problems (``SetupProblem``) in the active language."""
    return [_(SETUP_PROBLEMS[problem.code]) % dict(problem.params) for problem in problems]
