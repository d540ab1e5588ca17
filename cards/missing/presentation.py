"""What is missing, in the reader's language: a card's completeness on its page, and the map of a game's gaps,
each gap linked to the cards concerned (a search) or to where it is filled."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cardsite.labels import Labels, pick

from ..citations import cite
from ..filling import where_to_fill
from ..gamedefs.base import Completeness
from ..models import Card, Game
from ..presentation import LANGUAGE_NAMES, field_label, kind_label, tracks_of


@dataclass
class Link:
    label: str
    url: str


@dataclass
class CompletenessView:
    summary: str  # "4 of 6 values known"
    complete: bool
    unknown: list[Link]  # each unknown value, linked to where it is filled
    missing_texts: list[Link]  # each language of the game without a text, likewise


def completeness_view(card: Card, completeness: Completeness, language: str) -> CompletenessView:
    """A card's completeness as its page shows it: how many of its values are known, and what is missing."""
    expected = completeness.expected
    summary = ngettext("%(known)s of %(expected)s value known", "%(known)s of %(expected)s values known", expected) % {
        "known": len(completeness.known),
        "expected": expected,
    }
    return CompletenessView(
        summary=summary,
        complete=completeness.complete,
        unknown=[
            Link(field_label(card.game, name, language), where_to_fill(card.game, card.key, field=name))
            for name in completeness.unknown
        ],
        missing_texts=[
            Link(str(LANGUAGE_NAMES.get(code, code)), where_to_fill(card.game, card.key, language=code))
            for code in completeness.missing_languages
        ],
    )


def _search_url(query: str) -> str:
    return reverse("cards:search") + "?" + urlencode({"q": query})


def _kinds_label(game: Game, kinds: tuple[str, ...], language: str) -> str:
    return " / ".join(kind_label(game, kind, language) for kind in kinds)


def _kinds_query(kinds: tuple[str, ...]) -> str:
    if len(kinds) == 1:
        return f"kind:{kinds[0]}"
    return "(" + " or ".join(f"kind:{kind}" for kind in kinds) + ")"


@dataclass
class GapRow:
    text: str
    links: list[Link] = field(default_factory=list)
    source: str = ""
    missing: bool = True  # False: nothing missing in this row


@dataclass
class KindGaps:
    label: str
    cards: int
    rows: list[GapRow]
    add: str = ""  # where a card of the kind is added, when none is known


@dataclass
class MissingView:
    summary: str
    incomplete: Link | None
    totals: list[GapRow]
    numbers: list[GapRow]
    blocks: list[GapRow]
    kinds: list[KindGaps]
    unknown_kind: GapRow | None
    texts: list[GapRow]
    stale: list[GapRow] = field(default_factory=list)


NUMBERS_LISTED = 200  # missing numbers linked one by one; the rest are counted


def missing_view(game: Game, missing: Any, language: str) -> MissingView:
    """The map of what is missing (``cardsite.missing.MissingMap``) in the reader's language, each gap linked to
    the cards concerned (a search) or to where it is filled (``cards.filling.where_to_fill``)."""
    slug = game.slug
    multiple_modes = missing.several_modes
    totals = []
    for total in missing.totals:
        label = kind_label(game, total.kind, language) if total.kind else _("All cards")
        if total.expected is None:
            text = _("%(label)s: %(known)s known; the total is unknown (no source gives it)") % {
                "label": label,
                "known": total.known,
            }
        else:
            text = _("%(label)s: %(known)s of %(expected)s known") % {
                "label": label,
                "known": total.known,
                "expected": total.expected,
            }
        short = total.expected is None or total.known < total.expected
        totals.append(
            GapRow(
                text,
                [Link(_("Add a card"), where_to_fill(game, kind=total.kind))] if short else [],
                source=pick(total.source, language) if total.source else "",
                missing=short,
            )
        )
    numbers = []
    for run in missing.numbers:
        text = ngettext(
            "%(count)s number from %(first)s to %(last)s has no card",
            "%(count)s numbers from %(first)s to %(last)s have no card",
            len(run.missing),
        ) % {"count": len(run.missing), "first": run.first, "last": run.last}
        links = [Link(number, where_to_fill(game, number=number)) for number in run.missing[:NUMBERS_LISTED]]
        numbers.append(GapRow(text, links, source=pick(run.source, language), missing=bool(run.missing)))
    blocks = [_shortfall_row(game, shortfall, language, multiple_modes) for shortfall in missing.shortfalls]
    blocks += [_goldfish_row(game, gap, language) for gap in missing.goldfish_gaps]
    blocks += [_simulator_row(game, gap, language) for gap in missing.simulator_gaps]
    blocks += [_rule_row(game, gap, language, multiple_modes) for gap in missing.rule_gaps]
    kinds: dict[str, KindGaps] = {}
    for gap in missing.fields:
        group = kinds.setdefault(
            gap.kind,
            KindGaps(
                kind_label(game, gap.kind, language),
                gap.cards,
                [],
                add="" if gap.cards else where_to_fill(game, kind=gap.kind),
            ),
        )
        if not gap.cards:
            continue  # no card of the kind: the page says so once, not field by field
        label = field_label(game, gap.field, language)
        text = _("%(field)s: unknown on %(unknown)s of %(cards)s") % {
            "field": label,
            "unknown": gap.unknown,
            "cards": gap.cards,
        }
        query = f"game:{slug} kind:{gap.kind} -has:{gap.field}"
        group.rows.append(
            GapRow(
                text, [Link(_("Show these cards"), _search_url(query))] if gap.unknown else [], missing=gap.unknown > 0
            )
        )
    unknown_kind = None
    if missing.unknown_kind:
        text = ngettext(
            "%(count)s card of unknown kind (which values it should have depends on its kind)",
            "%(count)s cards of unknown kind (which values they should have depends on their kind)",
            missing.unknown_kind,
        ) % {"count": missing.unknown_kind}
        unknown_kind = GapRow(text, [Link(_("Show these cards"), _search_url(f"game:{slug} kind:unknown"))])
    texts = []
    for gap in missing.texts:
        name = LANGUAGE_NAMES.get(gap.language, gap.language)
        template = (
            _("Without a text in %(language)s (the original): %(count)s")
            if gap.original
            else _("Without a text in %(language)s (a translation): %(count)s")
        )
        query = f"game:{slug} -lang:{gap.language}"
        texts.append(
            GapRow(
                template % {"language": name, "count": gap.missing},
                [Link(_("Show these cards"), _search_url(query))] if gap.missing else [],
                missing=gap.missing > 0,
            )
        )
    stale = [_stale_row(game, gap, language) for gap in missing.stale]
    summary = ngettext(
        "%(cards)s card known, %(incomplete)s of them incomplete",
        "%(cards)s cards known, %(incomplete)s of them incomplete",
        missing.cards,
    ) % {"cards": missing.cards, "incomplete": missing.incomplete}
    incomplete = Link(_("Show the incomplete cards"), _search_url(f"game:{slug} is:incomplete"))
    return MissingView(
        summary=summary,
        incomplete=incomplete if missing.incomplete else None,
        totals=totals,
        numbers=numbers,
        blocks=blocks,
        kinds=list(kinds.values()),
        unknown_kind=unknown_kind,
        texts=texts,
        stale=stale,
    )


def _stale_row(game: Game, gap: Any, language: str) -> GapRow:
    """Stale translations of one language, each linked to where it is brought up to date: the card's form for
    its main text, the card's translation form for another track's."""
    name = LANGUAGE_NAMES.get(gap.language, gap.language)
    text = _("Stale translations in %(language)s (the original changed since): %(count)s") % {
        "language": name,
        "count": gap.count,
    }
    tracks = dict(tracks_of(game, gap.language).values_list("name", "pk")) if gap.listed else {}
    links = []
    for item in gap.listed:
        label = item.number or item.key
        if item.main:
            url = where_to_fill(game, item.key, language=item.language)
        else:
            label = f"{label} ({cite(item.track, game.definition, language)})"
            url = where_to_fill(game, item.key, track=tracks.get(item.track))
        links.append(Link(label, url))
    return GapRow(text, links, missing=gap.count > 0)


def _mode_prefix(mode: Labels, language: str, several: bool) -> str:
    return f"{pick(mode, language)}: " if several and mode else ""


def _shortfall_row(game: Game, shortfall: Any, language: str, multiple_modes: bool) -> GapRow:
    text = ngettext(
        "No deck can be legal: “%(rule)s” takes at least %(needed)s different %(kinds)s card in %(zone)s; "
        "known: %(known)s",
        "No deck can be legal: “%(rule)s” takes at least %(needed)s different %(kinds)s cards in %(zone)s; "
        "known: %(known)s",
        shortfall.needed,
    ) % {
        "rule": shortfall.rule.statement(language),
        "needed": shortfall.needed,
        "kinds": _kinds_label(game, shortfall.kinds, language),
        "zone": pick(shortfall.zone.labels, language),
        "known": shortfall.known,
    }
    kind = shortfall.kinds[0] if len(shortfall.kinds) == 1 else None
    return GapRow(
        _mode_prefix(shortfall.mode, language, multiple_modes) + text,
        [Link(_("Add a card"), where_to_fill(game, kind=kind))],
    )


def _value_gap_links(game: Game, gap: Any) -> list[Link]:
    if not gap.cards:
        kind = gap.kinds[0] if len(gap.kinds) == 1 else None
        return [Link(_("Add a card"), where_to_fill(game, kind=kind))]
    query = f"game:{game.slug} {_kinds_query(gap.kinds)} -has:{gap.field}"
    return [Link(_("Show these cards"), _search_url(query))]


def _value_gap_values(game: Game, gap: Any, language: str) -> dict[str, Any]:
    """The words of a value gap's row (goldfish or simulator): the value, the kinds, how many cards lack it."""
    return {
        "field": field_label(game, gap.field, language),
        "kinds": _kinds_label(game, gap.kinds, language),
        "unknown": gap.cards - gap.known,
        "cards": gap.cards,
        "blocks": pick(gap.blocks, language),
    }


def _goldfish_row(game: Game, gap: Any, language: str) -> GapRow:
    values = _value_gap_values(game, gap, language)
    if gap.cards:
        text = _("Goldfish: %(field)s is unknown on %(unknown)s of %(cards)s %(kinds)s cards — %(blocks)s") % values
    else:
        text = _("Goldfish: no %(kinds)s card is known, so no %(field)s either — %(blocks)s") % values
    return GapRow(text, _value_gap_links(game, gap))


def _simulator_row(game: Game, gap: Any, language: str) -> GapRow:
    values = _value_gap_values(game, gap, language)
    if gap.cards:
        text = _("Simulator: %(field)s is unknown on %(unknown)s of %(cards)s %(kinds)s cards — %(blocks)s") % values
    else:
        text = _("Simulator: no %(kinds)s card is known, so no %(field)s either — %(blocks)s") % values
    return GapRow(text, _value_gap_links(game, gap))


def _rule_row(game: Game, gap: Any, language: str, multiple_modes: bool) -> GapRow:
    text = _(
        "Deck check: %(field)s is unknown on %(unknown)s of %(cards)s %(kinds)s cards — a deck holding them "
        "cannot be checked against “%(rule)s”"
    ) % {
        "field": field_label(game, gap.field, language),
        "kinds": _kinds_label(game, gap.kinds, language),
        "unknown": gap.cards - gap.known,
        "cards": gap.cards,
        "rule": gap.rule.statement(language),
    }
    return GapRow(_mode_prefix(gap.mode, language, multiple_modes) + text, _value_gap_links(game, gap))


# --- what a player can do in a game today ---------------------------------------------------------------


@dataclass
class GameAbility:
    """One thing a player may try in a game, and whether the game's cards allow it today."""

    text: str
    url: str
    possible: bool
    why_not: list[GapRow] = field(default_factory=list)  # what stands in the way, each row linked to its gap
    state: str = ""  # said beside it: "not possible yet", "possible with placeholder cards"; nothing when plainly so
    how: GapRow | None = None  # the way around what stands in the way, linked to where it is taken
    with_placeholders: bool = False  # possible only with placeholder cards standing in for missing ones


@dataclass
class GameStatus:
    """A game's front door: what a player can do with it today, how complete it is and how to help."""

    abilities: list[GameAbility]
    totals: list[GapRow]  # cards known against the known size, per kind where a source gives one
    helps: list[Link]


def _blocked(text: str, url: str, why_not: list[GapRow]) -> GameAbility:
    return GameAbility(text, url, possible=False, why_not=why_not, state=_("not possible yet"))


def _goldfish_ability(
    game: Game, missing: Any, language: str, new_deck: str, shortfalls: list[GapRow], *, has_placeholders: bool
) -> GameAbility:
    """The goldfish: possible with a legal deck of real cards; where none can be built yet, possible with
    placeholder cards when the game's decks may hold them (they are dealt with their stated values), else not yet."""
    text = _("Goldfish a deck: draw opening hands, see the odds")
    if not shortfalls:
        gaps = [_goldfish_row(game, gap, language) for gap in missing.goldfish_gaps]
        return GameAbility(text, new_deck, possible=True, why_not=gaps)
    if not has_placeholders:
        return _blocked(text, new_deck, shortfalls)
    # A kind no stored card has is played by placeholders with the values the player states: only the stored
    # cards' unknown values still limit the goldfish.
    goldfish_gaps = [_goldfish_row(game, gap, language) for gap in missing.goldfish_gaps if gap.cards]
    how = GapRow(
        _(
            "No legal deck of real cards can be built yet (see above): a placeholder card stands in for a card "
            "the database lacks, with the values you give it, and is dealt like a card."
        ),
        [Link(_("Make a deck and add placeholder cards in its builder"), new_deck)],
        missing=False,
    )
    return GameAbility(
        text,
        new_deck,
        possible=True,
        why_not=goldfish_gaps,
        state=_("possible with placeholder cards"),
        how=how,
        with_placeholders=True,
    )


def _whole_game_ability(
    game: Game, missing: Any, language: str, new_deck: str, shortfalls: list[GapRow]
) -> GameAbility:
    """Whole games: not yet where no legal deck can be built; where only card values are unknown, possible with
    the values a player assumes for their deck (kept apart from the card data and named on every result)."""
    text = _("Play whole games and compare strategies")
    url = reverse("seated:start", args=[game.slug])
    if shortfalls:
        return _blocked(text, url, shortfalls)
    simulator_gaps = [_simulator_row(game, gap, language) for gap in missing.simulator_gaps]
    if not simulator_gaps:
        return GameAbility(text, url, possible=True)
    how = GapRow(
        _(
            "The database lacks values the whole game needs (below). A deck plays with the values you assume for "
            "them: they are kept apart from the card data and named on every result."
        ),
        [Link(_("Make a deck and state its assumed values"), new_deck)],
        missing=False,
    )
    return GameAbility(
        text, url, possible=True, why_not=simulator_gaps, state=_("possible with your assumed values"), how=how
    )


def game_status(
    game: Game, missing: Any, language: str, *, has_engine: bool, has_fullgame: bool, has_placeholders: bool = False
) -> GameStatus:
    """What a player can do in ``game`` today, from its map of what is missing (``cardsite.missing``):
    ``has_placeholders`` when its decks may hold placeholder cards (``cards.extensions``, ``"placeholders"``)."""
    view = missing_view(game, missing, language)
    slug = game.slug
    gaps_url = reverse("cards:game_missing", args=[slug])
    several = missing.several_modes
    shortfalls = [_shortfall_row(game, shortfall, language, several) for shortfall in missing.shortfalls]
    for row in shortfalls:
        row.links.append(Link(_("See what is missing"), gaps_url))
    new_deck = reverse("decks:new") + "?" + urlencode({"game": slug})
    search_text = ngettext("Search its %(count)s card", "Search its %(count)s cards", missing.cards) % {
        "count": missing.cards
    }
    search_url = reverse("cards:search") + "?" + urlencode({"q": f"game:{slug}", "game": slug})
    no_card = [GapRow(_("No card of this game is stored yet."), [Link(_("Add a card"), where_to_fill(game))])]
    abilities = [
        GameAbility(search_text, search_url, possible=True)
        if missing.cards
        else _blocked(search_text, search_url, no_card),
        _blocked(_("Build a legal deck"), new_deck, shortfalls)
        if shortfalls
        else GameAbility(_("Build a legal deck"), new_deck, possible=True),
    ]
    if has_engine:
        abilities.append(
            _goldfish_ability(game, missing, language, new_deck, shortfalls, has_placeholders=has_placeholders)
        )
    if has_fullgame:
        abilities.append(_whole_game_ability(game, missing, language, new_deck, shortfalls))
    helps = [
        Link(_("The map of what is missing"), gaps_url),
        Link(_("Add a card with the card form"), where_to_fill(game)),
        Link(_("Paste many cards at once (bulk sheet)"), reverse("contributions:bulk", args=[slug])),
        Link(_("Read cards from photos"), reverse("readings:upload")),
    ]
    return GameStatus(abilities=abilities, totals=view.totals, helps=helps)


MAX_SHOWN_KEY = 60  # a card address is typed by anyone: the page quotes it cut short


def card_not_found_view(game: Game, key: str) -> dict[str, Any]:
    """The words and links of a card address that no card holds: search for it, or add it (the card form with
    the address as its printed number, where it can be one)."""
    shown = key if len(key) <= MAX_SHOWN_KEY else key[: MAX_SHOWN_KEY - 1] + "…"
    as_number = game.definition.check_number(key, 32) is None
    return {
        "key": shown,
        "search_url": reverse("cards:search") + "?" + urlencode({"q": key[:200], "game": game.slug}),
        "add_url": where_to_fill(game, number=key) if as_number else where_to_fill(game),
        "number": key if as_number else "",
        "missing_url": reverse("cards:game_missing", args=[game.slug]),
    }
