"""Writes to the card database. Every write of cards goes through here."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import reversion
from django.db import connection, transaction
from reversion.models import Revision, Version

from cardsite import pagecache
from cardsite.types import SiteUser

from .gamedefs import all_games
from .gamedefs.messages import Problem
from .importing import (
    CARD_TEXT_PARTS,
    CardBundle,
    CardRecord,
    ImportProblem,
    RuleRecord,
    TermRecord,
    TrackRecord,
    parse_file,
)
from .models import (
    Card,
    CardText,
    Game,
    RevisionSource,
    RuleSection,
    RuleText,
    SeedConflict,
    SeedState,
    Term,
    TermText,
    TrackPreference,
    TranslationTrack,
)
from .revisions import card_revision
from .search.indexing import index_cards


class ImportRejected(Exception):
    """A file had problems; nothing was written."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = problems


@dataclass(frozen=True)
class ImportSummary:
    game: str
    created: int
    updated: int
    terms: int
    rule_sections: int
    # Seed cards left as they are: unchanged seeds, and changed seeds of cards changed since (conflicts).
    unchanged: int = 0
    conflicts: int = 0


def card_sort_key(number: str | None, key: str) -> str:
    """Printed numbers in natural order (EB1-9 before EB1-10), then unnumbered cards by key."""
    if number:
        return "0" + re.sub(r"\d+", lambda match: match.group().zfill(6), number)
    return "1" + key


def sync_games() -> list[Game]:
    """Make sure every registered game has its row."""
    games = []
    for definition in all_games():
        game, _ = Game.objects.update_or_create(slug=definition.slug, defaults={"sort_order": definition.sort_order})
        games.append(game)
    return games


def _replace_texts(owner_field: str, owner, model, texts: dict[str, dict[str, str]]) -> None:
    model.objects.filter(**{owner_field: owner}).exclude(language__in=texts).delete()
    for language, parts in texts.items():
        model.objects.update_or_create(**{owner_field: owner, "language": language}, defaults=parts)


def _parts(parts: dict[str, str]) -> dict[str, str]:
    return {part: parts.get(part, "") for part in CARD_TEXT_PARTS}


def _state(
    number: str | None,
    kind: str | None,
    fields: Any,
    source: str,
    texts: dict[str, Any],
    translations: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A card's values in one comparable shape: texts by language, each with every part ("" when absent), and
    the texts of other translation tracks by language and track name (only when there are any, so that the
    state of a card without them, a seed state kept before tracks, is as it was)."""
    state = {
        "number": number,
        "kind": kind,
        "fields": fields,
        "source": source,
        "texts": {language: _parts(parts) for language, parts in sorted(texts.items())},
    }
    tracks = {
        language: {name: _parts(parts) for name, parts in sorted(by_track.items())}
        for language, by_track in sorted((translations or {}).items())
        if by_track
    }
    if tracks:
        state["translations"] = tracks
    return state


def record_state(record: CardRecord) -> dict[str, Any]:
    """A card as a file gives it, comparable with ``card_state``."""
    return _state(record.number, record.kind, record.fields, record.source, record.texts, record.translations)


def card_state(card: Card) -> dict[str, Any]:
    """A stored card's number, kind, fields, source and texts, comparable with ``record_state``."""
    texts: dict[str, dict[str, str]] = {}
    translations: dict[str, dict[str, dict[str, str]]] = {}
    for text in card.texts.all():
        parts = {part: getattr(text, part) for part in CARD_TEXT_PARTS}
        if text.is_main:
            texts[text.language] = parts
        else:
            translations.setdefault(text.language, {})[text.track.name] = parts
    return _state(card.number, card.kind, card.fields, card.source, texts, translations)


def card_states(game: Game, keys: list[str]) -> dict[str, dict[str, Any]]:
    """``card_state`` of each of the game's cards with these keys that exists, read in one plain query (a bulk
    preview compares a thousand rows: model instances, or the ORM's work on a thousand-key filter, would cost
    more than the comparison)."""
    if not keys:
        return {}
    placeholders = ", ".join(["%s"] * len(keys))
    text_columns = ", ".join(f"t.{part}" for part in CARD_TEXT_PARTS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT c.key, c.number, c.kind, c.fields, c.source, t.language, tr.name, tr.main, {text_columns}"
            " FROM cards_card AS c LEFT JOIN cards_cardtext AS t ON t.card_id = c.id"
            " LEFT JOIN cards_translationtrack AS tr ON tr.id = t.track_id"
            f" WHERE c.game_id = %s AND c.key IN ({placeholders})",
            [game.pk, *keys],
        )
        rows = cursor.fetchall()
    values: dict[str, tuple] = {}
    texts: dict[str, dict[str, dict[str, str]]] = {}
    translations: dict[str, dict[str, dict[str, dict[str, str]]]] = {}
    for key, number, kind, fields, source, language, track, main, *parts in rows:
        if key not in values:
            values[key] = (number, kind, json.loads(fields) if isinstance(fields, str) else fields, source)
            texts[key], translations[key] = {}, {}
        if language is None:  # a card without texts comes once, with NULLs
            continue
        if track is None or main:
            texts[key][language] = dict(zip(CARD_TEXT_PARTS, parts, strict=True))
        else:
            translations[key].setdefault(language, {})[track] = dict(zip(CARD_TEXT_PARTS, parts, strict=True))
    return {key: _state(*card, texts[key], translations[key]) for key, card in values.items()}


def state_digest(state: dict[str, Any] | None) -> str:
    """A short fingerprint of a card's state (``card_state``); "" for a card that does not exist.

    Whoever changes a card says which state they changed (a contribution form, an API client reading
    ``state_digest`` from the card's API answer); a change made on a state that is no longer the card's is
    refused (``contributions.services``).
    """
    if state is None:
        return ""
    encoded = json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(encoded.encode()).hexdigest()[:32]


class TrackMissing(Exception):
    """A card names a translation track its game does not have (checked before anything is written)."""


def game_tracks(game: Game) -> dict[tuple[str, str], TranslationTrack]:
    """The game's translation tracks by (language, name)."""
    return {(track.language, track.name): track for track in TranslationTrack.objects.filter(game=game)}


def unknown_tracks(game: Game, records: list[CardRecord], declared: list[TrackRecord]) -> list[ImportProblem]:
    """A problem for each translation of ``records`` that names a track neither the game has nor ``declared``, or
    a language's main track (whose text is the card's ``texts`` entry)."""
    tracks = game_tracks(game)
    known = {place for place, track in tracks.items() if not track.main}
    known |= {(track.language, track.name) for track in declared if not track.main}
    problems = []
    for index, record in enumerate(records):
        for language, by_track in record.translations.items():
            for name in by_track:
                if (language, name) in known:
                    continue
                code = "main_track_in_translations" if (language, name) in tracks else "no_such_track"
                problem = Problem(code, {"game": game.definition.names, "track": name})
                where = f"cards[{index}] ({record.key})"
                problems.append(ImportProblem("", where, f"translations.{language}.{name}", problem.english(), problem))
    return problems


def ensure_tracks(game: Game, tracks: list[TrackRecord]) -> dict[str, TranslationTrack]:
    """Create the declared tracks the game does not have yet; return the declared main track of each language.

    A track that exists keeps its credits and status (an editor may have changed them). A main track is only
    made by a file that declares it, and only where its language has none yet."""
    mains: dict[str, TranslationTrack] = {}
    for declared in tracks:
        track = TranslationTrack.objects.filter(game=game, language=declared.language, name=declared.name).first()
        if track is None:
            main = (
                declared.main
                and not TranslationTrack.objects.filter(game=game, language=declared.language, main=True).exists()
            )
            track = TranslationTrack.objects.create(
                game=game,
                language=declared.language,
                name=declared.name,
                credits=declared.credits,
                status=declared.status,
                main=main,
            )
        if declared.main and track.main:
            mains[track.language] = track
    return mains


def _write_texts(
    card: Card,
    record: CardRecord,
    tracks: dict[tuple[str, str], TranslationTrack],
    mains: dict[str, TranslationTrack],
) -> None:
    """Make the card's texts those of ``record``: its main texts by language, and its texts in other tracks.

    A main text keeps its track; a new one goes into the main track its file declares for its language
    (``mains``: a seed's translation is credited to the seed), else into none (a contributor's text is
    credited by its revision). Rows that do not change are not written."""
    wanted: dict[tuple[str, str | None], dict[str, str]] = {
        (language, None): _parts(parts) for language, parts in record.texts.items()
    }
    for language, by_track in record.translations.items():
        wanted.update({(language, name): _parts(parts) for name, parts in by_track.items()})
    for text in CardText.objects.filter(card=card):
        place = (text.language, None if text.is_main else text.track.name)
        parts = wanted.pop(place, None)
        if parts is None:
            text.delete()
        elif any(getattr(text, part) != value for part, value in parts.items()):
            for part, value in parts.items():
                setattr(text, part, value)
            text.save()
    for (language, name), parts in wanted.items():
        track = mains.get(language) if name is None else tracks.get((language, name))
        if name is not None and track is None:
            raise TrackMissing(f"{card.game.slug} has no track {name!r} in {language}")
        CardText.objects.create(card=card, language=language, track=track, **parts)


def _write_card(
    game: Game,
    record: CardRecord,
    tracks: dict[tuple[str, str], TranslationTrack] | None = None,
    mains: dict[str, TranslationTrack] | None = None,
) -> Card:
    card, _created = Card.objects.update_or_create(
        game=game,
        key=record.key,
        defaults={
            "number": record.number,
            "kind": record.kind,
            "fields": record.fields,
            "source": record.source,
            "sort_key": card_sort_key(record.number, record.key),
        },
    )
    _write_texts(card, record, game_tracks(game) if tracks is None else tracks, mains or {})
    return card


def record_from_state(key: str, state: dict[str, Any]) -> CardRecord:
    """The card record a state (``record_state``/``card_state``) describes."""
    texts = {
        language: {part: value for part, value in parts.items() if value}
        for language, parts in (state.get("texts") or {}).items()
    }
    return CardRecord(
        key=key,
        number=state.get("number"),
        kind=state.get("kind"),
        fields=dict(state.get("fields") or {}),
        texts={language: parts for language, parts in texts.items() if parts},
        source=state.get("source") or "",
        translations={
            language: kept_tracks
            for language, by_track in (state.get("translations") or {}).items()
            if (
                kept_tracks := {
                    name: kept for name, parts in by_track.items() if (kept := {p: v for p, v in parts.items() if v})
                }
            )
        },
    )


def write_cards(
    game: Game, records: list[CardRecord], *, kind: str, detail: str, user: SiteUser, url: str = "", photo: Any = None
) -> Revision:
    """Write checked card records of one game as one revision (by ``user``, from ``kind``/``detail``, about
    which ``url`` says more, ``photo`` a photo of the card it came from), index them, and return the revision.
    The caller holds the transaction and has checked that nobody changed them."""
    tracks = game_tracks(game)
    with card_revision(kind, detail, user, url, photo):
        cards = [_write_card(game, record, tracks) for record in records]
    index_cards([card.pk for card in cards])
    pagecache.bump("cards")
    return Version.objects.get_for_object(cards[0]).select_related("revision").first().revision


def _seed_card(game: Game, record: CardRecord, mains: dict[str, TranslationTrack]) -> str:
    """Write a seed file's card unless that would overwrite someone's change; what happened, as a word.

    "created", "updated" (the seed changed and nobody else had), "unchanged" (the seed as last loaded, or
    the card already as it says) or "conflict" (the seed changed a card changed since: kept, for an editor).
    The card's texts in other translation tracks are the community's, never a seed's: they are left out of
    the comparison and kept as they are.
    """
    wanted = record_state(record)
    card = Card.objects.select_for_update().filter(game=game, key=record.key).first()
    if card is None:
        SeedState.objects.create(card=_write_card(game, record, mains=mains), record=wanted)
        return "created"
    state = SeedState.objects.filter(card=card).first()
    if state is not None and state.record == wanted:
        return "unchanged"  # whatever changed the card since, the seed has nothing new to say
    current = card_state(card)
    others = current.pop("translations", {})
    if current == wanted or (state is not None and current == state.record):
        if current != wanted:
            _write_card(game, dataclasses.replace(record, translations=others), mains=mains)
        elif not Version.objects.get_for_object(card).exists():
            # A card loaded before revisions were kept: the seed, as it stands, becomes its first revision.
            reversion.add_to_revision(card)
        SeedState.objects.update_or_create(card=card, defaults={"record": wanted})
        SeedConflict.objects.filter(card=card).delete()
        return "updated" if current != wanted else "unchanged"
    SeedConflict.objects.update_or_create(
        card=card, defaults={"base": state.record if state is not None else None, "seed": wanted}
    )
    return "conflict"


def _write_terms(game: Game, terms: list[TermRecord]) -> None:
    for position, record in enumerate(terms):
        term, _ = Term.objects.update_or_create(
            game=game, key=record.key, defaults={"category": record.category, "sort_order": position}
        )
        _replace_texts("term", term, TermText, record.texts)


def _write_rules(game: Game, rules: list[RuleRecord]) -> None:
    RuleSection.objects.filter(game=game).delete()
    for record in rules:
        section = RuleSection.objects.create(game=game, key=record.key, order=record.order)
        RuleText.objects.bulk_create(
            RuleText(section=section, language=language, **parts) for language, parts in record.texts.items()
        )


@transaction.atomic
def import_bundle(bundle: CardBundle, *, seed: bool = False, detail: str = "") -> ImportSummary:
    """Write a checked bundle, as one revision of its cards (``cards.revisions``).

    An import (``seed=False``) matches cards by game and key and replaces them whole: the editor who imports
    means it, and the revision keeps what was there. Seed files (``seed=True``, ``loadcards`` at every start
    of the site) never overwrite a change made since they were loaded (``_seed_card``).

    Terms present in the bundle are replaced by key; when the bundle has rules,
    they replace the game's rules. Cards, terms and rules the bundle does not
    name are left alone.
    """
    sync_games()
    game = Game.objects.get(slug=bundle.game)
    outcomes: dict[str, int] = {"created": 0, "updated": 0, "unchanged": 0, "conflict": 0}
    kind = RevisionSource.Kind.SEED if seed else RevisionSource.Kind.IMPORT
    mains = ensure_tracks(game, bundle.tracks)
    problems = unknown_tracks(game, bundle.cards, [])
    if problems:
        raise ImportRejected(problems)
    tracks = game_tracks(game)
    with card_revision(kind, detail or bundle.game):
        for record in bundle.cards:
            if seed:
                outcomes[_seed_card(game, record, mains)] += 1
            else:
                existed = Card.objects.filter(game=game, key=record.key).exists()
                _write_card(game, record, tracks, mains)
                outcomes["updated" if existed else "created"] += 1
    index_cards(
        Card.objects.filter(game=game, key__in=[record.key for record in bundle.cards]).values_list("pk", flat=True)
    )
    if bundle.terms:
        _write_terms(game, bundle.terms)
    if bundle.rules:
        _write_rules(game, bundle.rules)
    pagecache.bump("cards")  # bulk writes send no model signals
    return ImportSummary(
        game=bundle.game,
        created=outcomes["created"],
        updated=outcomes["updated"],
        terms=len(bundle.terms),
        rule_sections=len(bundle.rules),
        unchanged=outcomes["unchanged"],
        conflicts=outcomes["conflict"],
    )


def import_files(paths: list[str], *, seed: bool = False) -> list[ImportSummary]:
    """Check every file first; write all of them in one transaction, or none (``seed``: see import_bundle)."""
    bundles: list[tuple[str, CardBundle]] = []
    problems: list[ImportProblem] = []
    for path in paths:
        bundle, file_problems = parse_file(path)
        problems.extend(file_problems)
        if bundle is not None:
            bundles.append((path, bundle))
    if problems:
        raise ImportRejected(problems)
    with transaction.atomic():
        return [import_bundle(bundle, seed=seed, detail=Path(path).name) for path, bundle in bundles]


def reindex_card(card: Card) -> None:
    """Bring one card's search index and list order up to date after an edit (e.g. in the admin)."""
    Card.objects.filter(pk=card.pk).update(sort_key=card_sort_key(card.number, card.key))
    index_cards([card.pk])
    pagecache.bump("cards")


def reindex_all_cards() -> int:
    """Rebuild every card's search document and field values; returns how many cards."""
    count = index_cards()
    pagecache.bump("cards")
    return count


def track_preference_set(
    *, user: SiteUser, cookie: str, game: Game, language: str, track: TranslationTrack | None
) -> str:
    """Make ``track`` (None: the main text) the reader's choice for ``language`` of ``game``; return the reader's
    track cookie as it should now be (``selectors.TRACK_COOKIE``). A signed-in reader's choice is kept in the
    database as well, so that it follows them to another browser."""
    from .selectors import cookie_tracks

    same_language = set(TranslationTrack.objects.filter(game=game, language=language).values_list("pk", flat=True))
    kept = [pk for pk in cookie_tracks(cookie) if pk not in same_language]
    if track is not None:
        kept.append(track.pk)
    if user is not None and user.is_authenticated:
        with transaction.atomic():
            if track is None:
                TrackPreference.objects.filter(user=user, game=game, language=language).delete()
            else:
                TrackPreference.objects.update_or_create(
                    user=user, game=game, language=language, defaults={"track": track}
                )
    return ".".join(str(pk) for pk in kept)
