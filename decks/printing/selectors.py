"""A deck as ``printing.PrintedDeck``: its cards as the deck page shows them (``presentation.deck_view``), in the
reader's language, with their stored pictures; what the picture and PDF pages and the API's printouts draw."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from cards.images.selectors import card_pictures, with_pictures
from cards.models import Card

from .. import presentation
from ..models import Deck
from ..placeholders import selectors as placeholder_selectors
from . import drawing as printing


def proxies_refused(error: printing.TooManyProxies) -> str:
    return _("Proxies are printed for at most %(limit)s cards at once; this deck has %(count)s.") % {
        "limit": printing.MAX_PROXIES,
        "count": error.count,
    }


def _picture_of(card: Card | None, thumbnail: bool) -> Callable[[], bytes | None] | None:
    """Reads the card's first shown picture when called (the file is read only if it is drawn)."""
    pictures = card_pictures(card) if card is not None else []
    if not pictures:
        return None
    stored = pictures[0].image

    def read() -> bytes | None:
        file = stored.thumbnail if thumbnail and stored.thumbnail else stored.file
        try:
            with file.open("rb") as opened:
                return opened.read()
        except OSError:  # a file gone from the store: drawn as a card without a picture
            return None

    return read


def printed_deck(deck: Deck, language: str, *, thumbnails: bool) -> printing.PrintedDeck:
    view = presentation.deck_view(deck, language)
    zones = [zone for zone in (*view.zones, *view.fixed_zones) if zone.entries]
    with_pictures([entry.card for zone in zones for entry in zone.entries if entry.card is not None])
    printed_zones = []
    for zone in zones:
        cards = []
        for entry in zone.entries:
            text = entry.card.text_in(language) if entry.card is not None else None
            if text is None and entry.card is not None:
                text = entry.card.text_in(entry.card.game.definition.original_language)
            cards.append(
                printing.PrintedCard(
                    key=entry.key,
                    name=str(entry.name) or entry.key,
                    number=(entry.card.number or "") if entry.card is not None else "",
                    count=entry.count,
                    values=[(label, value) for label, value in entry.summary],
                    text=text.text if text is not None and text.text else "",
                    picture=_picture_of(entry.card, thumbnails),
                )
            )
        printed_zones.append(printing.PrintedZone(zone.label, cards))
    verdict = view.verdict
    if not verdict.checked:
        summary = _("No construction rules")
    elif verdict.legal:
        summary = _("Legal: the deck follows every construction rule.")
    elif verdict.legal_apart_from_placeholders:
        summary = ngettext(
            "Legal apart from %(counter)s placeholder card: a placeholder is never legal until a real card replaces "
            "it.",
            "Legal apart from %(counter)s placeholder cards: a placeholder is never legal until a real card "
            "replaces it.",
            verdict.placeholders,
        ) % {"counter": verdict.placeholders}
    else:
        summary = ngettext(
            "Not legal: %(counter)s violation", "Not legal: %(counter)s violations", len(verdict.violations)
        ) % {"counter": len(verdict.violations)}
    return printing.PrintedDeck(
        name=deck.name,
        game=view.game_name,
        mode=view.mode_label,
        owner=deck.owner.get_username(),
        zones=printed_zones,
        verdict=summary,
        problems=[*verdict.violations, *verdict.unchecked],
        language=language,
        total=view.total,
        placeholders=[
            printing.PrintedCard(
                key=placeholder_selectors.plain_key(placeholder),
                name=placeholder_selectors.label(deck.game, placeholder, language),
                count=placeholder.count,
                values=placeholder_selectors.stated_pairs(deck.game, placeholder, language),
                placeholder=True,
            )
            for placeholder in placeholder_selectors.placeholders(deck)
        ],
        labels={
            "sheet": _("Deck registration sheet"),
            "deck": _("Deck"),
            "game": _("Game"),
            "player": _("Player"),
            "event": pgettext("registration sheet", "Event"),
            "date": _("Date"),
            "total": _("Total"),
            "proxies": _("Proxies"),
            "proxy": _("Proxy: not a real card"),
            "placeholder": _("Placeholder"),
            "placeholders": _("Placeholder cards"),
            "not_registrable": _(
                "Not for registration: this deck holds placeholder cards, which no tournament accepts. "
                "Replace them with real cards first."
            ),
        },
    )
