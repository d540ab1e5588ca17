"""Writes to decks. Views, forms and the API call these; nothing else writes decks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Game
from cardsite import pagecache
from cardsite.errors import AppError, Message
from cardsite.sharing import Visibility as SharedVisibility
from cardsite.sharing import set_visibility
from cardsite.text import check_name, check_text
from cardsite.types import SiteUser, signed_in

from . import extensions
from .models import Deck, DeckEntry, DeckPlaceholder, DeckVersion, new_share_token
from .rules import get_rules
from .selectors import access_deck
from .versions.selectors import version as find_version

MAX_COPIES_PER_ENTRY = 99
MAX_DESCRIPTION_LENGTH = 10_000  # characters
VERSION_COALESCE_SECONDS = 60
# Changes that never merge into the version before them: each is a version of its own.
UNCOALESCED_KINDS = frozenset({"restore", "copy"})


class DeckError(AppError, ValueError):
    """A change that cannot be made (unknown zone, a card of another game, …); nothing was written."""

    code = "deck_change_refused"


# What is wrong with a change, as messages the API's field errors and the pages share.


def editable_zones(rules: Any) -> list[str]:
    return [zone.slug for zone in rules.zones if not zone.fixed]


def unknown_zone(game: Game, zone: str) -> Message:
    rules = get_rules(game.slug)
    spec = rules.zone(zone)
    if spec is not None and spec.fixed:
        return Message(
            _("'%(zone)s' is fixed by the game and holds no entries (zones: %(zones)s)."),
            {"zone": zone, "zones": editable_zones(rules)},
        )
    return Message(
        _("'%(zone)s' is not a zone of %(game)s decks (zones: %(zones)s)."),
        {"zone": zone, "game": game.definition.names, "zones": editable_zones(rules)},
    )


def card_of_another_game(card: Card) -> Message:
    return Message(_("%(card)s is a card of another game."), {"card": card.key})


def unknown_mode(game: Game, mode: str) -> Message:
    modes = [m.slug for m in get_rules(game.slug).modes]
    return Message(
        _("'%(mode)s' is not a mode of %(game)s (modes: %(modes)s)."),
        {"mode": mode, "game": game.definition.names, "modes": modes},
    )


def unknown_option(game: Game, option: str) -> Message:
    options = [o.slug for o in get_rules(game.slug).options]
    return Message(
        _("'%(option)s' is not an option of %(game)s (options: %(options)s)."),
        {"option": option, "game": game.definition.names, "options": options},
    )


def not_a_choice(option: str, choices: Iterable[Any]) -> Message:
    return Message(
        _("%(option)s must be one of %(choices)s."),
        {"option": option, "choices": [str(c).lower() if isinstance(c, bool) else str(c) for c in choices]},
    )


def count_out_of_range(minimum: int, card: Card | None = None) -> Message:
    if card is not None:
        return Message(
            _("%(card)s: a count must be between %(minimum)s and %(maximum)s."),
            {"card": card.key, "minimum": minimum, "maximum": MAX_COPIES_PER_ENTRY},
        )
    return Message(
        _("A count must be between %(minimum)s and %(maximum)s."),
        {"minimum": minimum, "maximum": MAX_COPIES_PER_ENTRY},
    )


NAME_REQUIRED = Message(_("A deck needs a name."))
# A deck is private or shared by link; what everyone sees is a published snapshot of it.
PUBLISH_INSTEAD = Message(
    _("A deck cannot be public: publish it to show it to everyone. Its visibility may be “private” or “link”.")
)


def check_visibility(visibility: str) -> None:
    """Refuses a visibility a deck cannot have, telling a caller who asks for "public" to publish instead."""
    if visibility == SharedVisibility.PUBLIC:
        raise DeckError(PUBLISH_INSTEAD, code="publish_instead", errors={"visibility": [PUBLISH_INSTEAD]})
    if visibility not in Deck.Visibility.values:
        message = not_a_choice("visibility", Deck.Visibility.values)
        raise DeckError(message, code="not_a_choice", errors={"visibility": [message]})


def _refuse(message: Message, code: str) -> DeckError:
    return DeckError(message, code=code)


def _check_zone(deck: Deck, zone: str) -> None:
    spec = get_rules(deck.game.slug).zone(zone)
    if spec is None or spec.fixed:
        raise _refuse(unknown_zone(deck.game, zone), "unknown_zone")


def _check_card(deck: Deck, card: Card) -> None:
    if card.game_id != deck.game_id:
        raise _refuse(card_of_another_game(card), "card_of_another_game")


def clean_options(game: Game, mode: str | None, options: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """The deck's mode and options, checked against the game's declarations (defaults filled in)."""
    rules = get_rules(game.slug)
    chosen = mode or rules.modes[0].slug
    if rules.mode(chosen) is None:
        raise _refuse(unknown_mode(game, chosen), "unknown_mode")
    cleaned = rules.default_options()
    for key, value in (options or {}).items():
        option = next((o for o in rules.options if o.slug == key), None)
        if option is None:
            raise _refuse(unknown_option(game, key), "unknown_option")
        if option.choices and value not in option.choices:
            raise _refuse(not_a_choice(key, option.choices), "not_a_choice")
        cleaned[key] = value
    return chosen, cleaned


def _locked(deck: Deck) -> Deck:
    """The deck's row, locked until the transaction ends: one writer at a time per deck.

    Every change of a deck reads what it changes (counts, options) after taking this lock, so two
    requests that change the same deck at once both count (PostgreSQL: SELECT … FOR UPDATE; SQLite
    takes the database's write lock when the transaction begins, see settings).
    """
    return Deck.objects.select_for_update().select_related("game").get(pk=deck.pk)


def _check_name(name: str) -> str:
    cleaned = name.strip()
    if not cleaned:
        raise _refuse(NAME_REQUIRED, "name_required")
    check_name(cleaned, "name", _("name"), DeckError)
    return cleaned


def _check_description(description: str) -> None:
    check_text(description, "description", _("description"), DeckError)
    if len(description) > MAX_DESCRIPTION_LENGTH:
        raise _refuse(
            Message(
                _("A description may have at most %(limit)s characters."),
                {"limit": MAX_DESCRIPTION_LENGTH},
            ),
            "description_too_long",
        )


def _touch(deck: Deck) -> None:
    """Mark the deck changed without writing back fields this request may hold stale copies of."""
    deck.updated_at = timezone.now()
    Deck.objects.filter(pk=deck.pk).update(updated_at=deck.updated_at)
    pagecache.bump("decks")


touch = _touch  # the deck's features (its placeholder cards) mark it changed the same way
lock = _locked  # … and take the deck's lock the same way


@transaction.atomic
def create_deck(
    *,
    owner: SiteUser,
    game: Game,
    name: str,
    description: str = "",
    mode: str | None = None,
    options: Mapping[str, Any] | None = None,
    visibility: str = Deck.Visibility.PRIVATE,
    entries: Iterable[tuple[str, Card, int]] = (),
    placeholders: Iterable[Mapping[str, Any]] = (),
) -> Deck:
    """``placeholders``: the deck's placeholder cards as a version keeps them (``placeholder_rows``), for a copy."""
    owner = signed_in(owner)
    mode, options = clean_options(game, mode, options)
    name = _check_name(name)
    _check_description(description)
    check_visibility(visibility)
    deck = Deck.objects.create(
        owner=owner,
        game=game,
        name=name,
        description=description,
        mode=mode,
        options=options,
        visibility=visibility,
    )
    put_placeholders(deck, placeholders)
    replace_entries(deck, entries, kind="create")
    return deck


@transaction.atomic
def update_deck(
    deck: Deck,
    *,
    name: str | None = None,
    description: str | None = None,
    mode: str | None = None,
    options: Mapping[str, Any] | None = None,
    visibility: str | None = None,
    entries: Iterable[tuple[str, Card, int]] | None = None,
) -> Deck:
    """Change any of the deck's fields and (``entries``) replace its cards, all in one transaction.

    ``options`` are merged into the deck's options as they are when the change is made, not as
    the caller read them.
    """
    current = _locked(deck)
    if name is not None:
        current.name = _check_name(name)
    if description is not None:
        _check_description(description)
        current.description = description
    if mode is not None or options is not None:
        current.mode, current.options = clean_options(
            current.game, mode or current.mode, {**current.options, **(options or {})}
        )
    if visibility is not None:
        check_visibility(visibility)
        set_visibility(current, visibility)  # sharing by link turned off: that link is dead for good
    current.save()
    if entries is not None:
        replace_entries(current, entries)
    _copy_state(current, deck)
    return deck


@transaction.atomic
def regenerate_share_link(deck: Deck) -> str:
    """A new share token for the deck: the old link (and runs started through it) stop working."""
    current = _locked(deck)
    current.share_token = new_share_token()
    current.save(update_fields=["share_token", "updated_at"])
    _copy_state(current, deck)
    return current.share_token


def _copy_state(source: Deck, target: Deck) -> None:
    """Bring the caller's instance up to date with what was written."""
    if source is not target:
        for field in ("name", "description", "mode", "options", "visibility", "share_token", "updated_at"):
            setattr(target, field, getattr(source, field))


def _set(deck: Deck, zone: str, card: Card, count: int) -> None:
    if count == 0:
        DeckEntry.objects.filter(deck=deck, zone=zone, card=card).delete()
    else:
        DeckEntry.objects.update_or_create(deck=deck, zone=zone, card=card, defaults={"count": count})


def _check_count(count: int, minimum: int = 0) -> None:
    if count < minimum or count > MAX_COPIES_PER_ENTRY:
        raise _refuse(count_out_of_range(minimum), "count_out_of_range")


@transaction.atomic
def set_counts(deck: Deck, changes: Iterable[tuple[str, Card, int]]) -> None:
    """Set how many copies of each card its zone holds (0 removes it); other entries are kept."""
    changes = list(changes)
    for zone, card, count in changes:
        _check_zone(deck, zone)
        _check_card(deck, card)
        _check_count(count)
    locked = _locked(deck)
    for zone, card, count in changes:
        _set(locked, zone, card, count)
    _touch(deck)
    record_version(locked, "edit")


def set_count(deck: Deck, zone: str, card: Card, count: int) -> int:
    """Set how many copies of ``card`` the zone holds (0 removes it); returns the new count."""
    set_counts(deck, [(zone, card, count)])
    return count


@transaction.atomic
def add_copies(deck: Deck, zone: str, card: Card, delta: int) -> int:
    """Add (or with a negative delta, remove) copies; returns the new count.

    The count is read under the deck's lock, so two additions made at the same moment give two
    more copies, never one.
    """
    _check_zone(deck, zone)
    _check_card(deck, card)
    locked = _locked(deck)
    current = DeckEntry.objects.filter(deck=locked, zone=zone, card=card).values_list("count", flat=True).first()
    count = max(0, min(MAX_COPIES_PER_ENTRY, (current or 0) + delta))
    _set(locked, zone, card, count)
    _touch(deck)
    record_version(locked, "edit")
    return count


@transaction.atomic
def replace_entries(
    deck: Deck, entries: Iterable[tuple[str, Card, int]], *, kind: str = "replace", note: str = ""
) -> None:
    """Replace every entry of the deck (an import); counts of the same card and zone add up.
    ``kind`` and ``note``: the version this change makes (``record_version``)."""
    totals: dict[tuple[str, int], tuple[Card, int]] = {}
    for zone, card, count in entries:
        _check_zone(deck, zone)
        _check_card(deck, card)
        if count < 1 or count > MAX_COPIES_PER_ENTRY:
            raise _refuse(count_out_of_range(1, card), "count_out_of_range")
        previous = totals.get((zone, card.pk), (card, 0))[1]
        totals[(zone, card.pk)] = (card, previous + count)
    locked = _locked(deck)
    DeckEntry.objects.filter(deck=locked).delete()
    DeckEntry.objects.bulk_create(
        DeckEntry(deck=locked, zone=zone, card=card, count=min(count, MAX_COPIES_PER_ENTRY))
        for (zone, _pk), (card, count) in totals.items()
    )
    _touch(deck)
    record_version(locked, kind, note)


@transaction.atomic
def copy_deck(owner: SiteUser, pk: int, *, token: str | None = None) -> Deck:
    """A private copy for ``owner`` of deck ``pk``, recording where it came from (``Deck.forked_from``).

    Whoever may see the deck may copy it (a deck shared by link: with its ``token``); the check is made here,
    for the page and the API alike (``selectors.access_deck``: a deck the user may not see is a 404)."""
    owner = signed_in(owner)
    deck = access_deck(owner, pk, token=token)
    copy = Deck.objects.create(
        owner=owner,
        game=deck.game,
        forked_from=deck,
        name=_("%(name)s (copy)") % {"name": deck.name},
        description=deck.description,
        mode=deck.mode,
        options=dict(deck.options),
    )
    DeckEntry.objects.bulk_create(
        DeckEntry(deck=copy, zone=entry.zone, card_id=entry.card_id, count=entry.count) for entry in deck.entries.all()
    )
    put_placeholders(copy, placeholder_rows(deck))
    extensions.deck_copied(deck, copy)
    record_version(copy, "copy")
    pagecache.bump("decks")  # the source's page lists its copies
    return copy


# --- versions -------------------------------------------------------------------------------------


def placeholder_rows(deck: Deck) -> list[dict[str, Any]]:
    """The deck's placeholder cards as a version, a copy and a published snapshot keep them."""
    return [
        {"zone": p.zone, "kind": p.kind, "values": dict(p.values), "name": p.name, "count": p.count}
        for p in DeckPlaceholder.objects.filter(deck=deck).order_by("zone", "kind", "pk")
    ]


def put_placeholders(deck: Deck, rows: Iterable[Mapping[str, Any]]) -> None:
    """Give the deck exactly the placeholder cards ``rows`` (``placeholder_rows``'s shape), in the caller's
    transaction: restoring a version, copying a deck or a published one."""
    DeckPlaceholder.objects.filter(deck=deck).delete()
    DeckPlaceholder.objects.bulk_create(
        DeckPlaceholder(
            deck=deck,
            zone=row["zone"],
            kind=row["kind"],
            values=dict(row.get("values") or {}),
            name=row.get("name") or "",
            count=row["count"],
        )
        for row in rows
    )


def version_state(deck: Deck) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The deck's entries as a version stores them (``[{zone, card, count}]``, card keys) and its verdict
    then (``{legal, checked, findings: [{rule, kind, texts}]}``, the messages in every language)."""
    from .selectors import deck_entries, verdict  # selectors read; imported here to keep services first

    rows = list(deck_entries(deck))
    entries = [{"zone": e.zone, "card": e.card.key, "count": e.count} for e in rows]
    result = verdict(deck, "ja", rows)
    findings = [{"rule": f.rule, "kind": f.kind, "texts": dict(f.texts)} for f in result.findings]
    summary: dict[str, Any] = {"legal": result.legal, "checked": result.checked, "findings": findings}
    if result.placeholders:
        summary["placeholders"] = result.placeholders  # "legal apart from N placeholder cards"
    return entries, summary


def record_version(deck: Deck, kind: str, note: str = "") -> DeckVersion | None:
    """Keep the deck's cards as they are now as a version; every service that changes entries calls this,
    in the transaction of the change, with the deck's row locked.

    Coalescing: if the deck's last version was made by the same kind of change (``edit``: counts set or
    copies added, as the builder's "+1"; ``replace``: every entry replaced) less than
    ``VERSION_COALESCE_SECONDS`` (60) seconds ago, that version is updated (its cards, name, verdict and
    time) instead of a new one being added. Restores and copies always make a version of their own. A change
    that leaves the cards and name as the last version has them makes none. Returns the version written.
    """
    entries, verdict_summary = version_state(deck)
    now = timezone.now()
    placeholders = placeholder_rows(deck)
    last = DeckVersion.objects.filter(deck=deck).order_by("-number").first()
    if last is not None and last.entries == entries and last.placeholders == placeholders and last.name == deck.name:
        return None
    if (
        last is not None
        and kind == last.kind
        and kind not in UNCOALESCED_KINDS
        and (now - last.created_at).total_seconds() < VERSION_COALESCE_SECONDS
    ):
        last.entries, last.name, last.verdict, last.created_at = entries, deck.name, verdict_summary, now
        last.placeholders, last.note = placeholders, note or last.note
        last.save(update_fields=["entries", "placeholders", "name", "verdict", "created_at", "note"])
        return last
    return DeckVersion.objects.create(
        deck=deck,
        number=(last.number if last else 0) + 1,
        created_at=now,
        kind=kind,
        entries=entries,
        placeholders=placeholders,
        name=deck.name,
        verdict=verdict_summary,
        note=note,
    )


def _version_cards(deck: Deck, version: DeckVersion) -> list[tuple[str, Card, int]]:
    keys = {row["card"] for row in version.entries}
    cards = {card.key: card for card in Card.objects.filter(game=deck.game, key__in=keys)}
    missing = sorted(keys - cards.keys())
    if missing:
        raise _refuse(
            Message(_("Cards of this version are no longer in the database: %(cards)s."), {"cards": missing}),
            "version_cards_missing",
        )
    return [(row["zone"], cards[row["card"]], row["count"]) for row in version.entries]


@transaction.atomic
def restore_version(deck: Deck, version: DeckVersion) -> DeckVersion | None:
    """Give the deck the cards (and placeholder cards) of one of its versions: a new version (``restore``), the
    old ones kept."""
    locked = _locked(deck)
    note = _("Restored version %(number)s") % {"number": version.number}
    cards = _version_cards(locked, version)
    put_placeholders(locked, version.placeholders)
    replace_entries(locked, cards, kind="restore", note=str(note))
    _copy_state(locked, deck)
    return DeckVersion.objects.filter(deck=locked).order_by("-number").first()


@transaction.atomic
def branch_version(owner: SiteUser, pk: int, number: Any, *, token: str | None = None) -> Deck:
    """A new private deck of ``owner`` with the cards of version ``number`` of deck ``pk`` (``forked_from`` = that
    deck). Whoever may see the deck may do it (``selectors.access_deck``, checked here for every caller); an
    unknown version is a 404 (``versions.version``)."""
    owner = signed_in(owner)
    deck = access_deck(owner, pk, token=token)
    version = find_version(deck, number)
    copy = Deck.objects.create(
        owner=owner,
        game=deck.game,
        forked_from=deck,
        name=(_("%(name)s (version %(number)s)") % {"name": version.name, "number": version.number})[:120],
        description=deck.description,
        mode=deck.mode,
        options=dict(deck.options),
    )
    note = _("Copied from version %(number)s") % {"number": version.number}
    cards = _version_cards(copy, version)
    put_placeholders(copy, version.placeholders)
    replace_entries(copy, cards, kind="copy", note=str(note))
    extensions.deck_copied(deck, copy)
    pagecache.bump("decks")
    return copy


def delete_deck(deck: Deck) -> None:
    deck.delete()
