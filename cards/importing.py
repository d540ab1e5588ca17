"""Reading and checking card files (JSON or CSV, see docs/card-format.md).

Plain Python, no Django: ``parse_file`` turns a file into a ``CardBundle`` and a
list of ``ImportProblem``; the service layer writes a bundle only when the list
is empty, so a bad file writes nothing.

Run ``python -m cards.importing validate FILE...`` to check files without a database.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardsite import jsonlimits
from cardsite import text as plain_text
from cardsite.csvfiles import restore

from .gamedefs import LANGUAGES, get_game
from .gamedefs.base import GameDefinition
from .gamedefs.messages import FieldProblem, Problem

FORMAT_TAG = "cardsite-cards/1"
RULE_KEYS = ("overview", "construction", "setup", "turn", "combat", "win", "other")
TERM_CATEGORIES = ("term", "keyword", "symbol")
CARD_TEXT_PARTS = ("name", "text", "notes", "source")
# The database's column widths (cards.models); longer values are reported, not cut.
MAX_FILE_BYTES = 50_000_000
MAX_LENGTHS = {"key": 100, "number": 32, "name": 200, "title": 200, "source": 300, "track": 100, "credits": 300}
TRACK_STATUSES = ("draft", "reviewed")
TERM_TEXT_PARTS = ("name", "text", "source")
RULE_TEXT_PARTS = ("title", "body", "source")


@dataclass(frozen=True)
class ImportProblem:
    file: str
    where: str  # "cards[3] (EB1-010)", "line 4", "file"
    field: str  # "fields.cost", "kind", "" when the problem is the whole row
    message: str  # in English (the command line)
    # The same as a code and parameters (cards.gamedefs.messages), for a reader of another language;
    # None for the problems of a whole file, which only the command line and the admin meet.
    problem: Problem | FieldProblem | None = None

    def __str__(self) -> str:
        place = f"{self.file}: {self.where}"
        if self.field:
            place += f", {self.field}"
        return f"{place}: {self.message}"


@dataclass
class CardRecord:
    key: str
    number: str | None
    kind: str | None
    fields: dict[str, Any]
    texts: dict[str, dict[str, str]]  # each language's main text
    source: str = ""
    # The texts of other translation tracks: language -> track name -> parts.
    translations: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class TrackRecord:
    """A translation track a file declares: ``main``, the one its cards' ``texts`` in that language belong to."""

    language: str
    name: str
    credits: str = ""
    status: str = "draft"
    main: bool = False


@dataclass
class TermRecord:
    key: str
    category: str
    texts: dict[str, dict[str, str]]


@dataclass
class RuleRecord:
    key: str
    order: int
    texts: dict[str, dict[str, str]]


@dataclass
class CardBundle:
    game: str
    cards: list[CardRecord] = field(default_factory=list)
    terms: list[TermRecord] = field(default_factory=list)
    rules: list[RuleRecord] = field(default_factory=list)
    tracks: list[TrackRecord] = field(default_factory=list)


class _Checker:
    """Collects problems for one file while records are checked."""

    def __init__(self, file_label: str, key_of_number: Mapping[str, str] | None = None) -> None:
        self.file = file_label
        self.problems: list[ImportProblem] = []
        # A correction may name a card by its printed number alone: the number's card gives the key.
        self.key_of_number = key_of_number or {}

    def problem(self, where: str, field_name: str, message: str | Problem | FieldProblem) -> None:
        if isinstance(message, str):
            self.problems.append(ImportProblem(self.file, where, field_name, message))
        else:
            self.problems.append(ImportProblem(self.file, where, field_name, message.english(), message))

    def texts(self, raw: Any, where: str, parts: tuple[str, ...], required: str | None) -> dict[str, dict[str, str]]:
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            self.problem(where, "texts", Problem("texts_not_object"))
            return {}
        texts: dict[str, dict[str, str]] = {}
        for language, entry in raw.items():
            if language not in LANGUAGES:
                self.problem(where, f"texts.{language}", Problem("unknown_language", {"languages": list(LANGUAGES)}))
                continue
            if entry is None:
                continue  # null: no text in that language, as null is no value everywhere in a record
            if not isinstance(entry, dict):
                self.problem(where, f"texts.{language}", Problem("not_an_object"))
                continue
            cleaned: dict[str, str] = {}
            for part, value in entry.items():
                if part not in parts:
                    self.problem(where, f"texts.{language}.{part}", Problem("unknown_part", {"parts": list(parts)}))
                elif value is None or value == "":
                    continue
                elif not isinstance(value, str):
                    self.problem(where, f"texts.{language}.{part}", Problem("not_text"))
                elif len(value) > MAX_LENGTHS.get(part, len(value)):
                    self.problem(where, f"texts.{language}.{part}", Problem("too_long", {"limit": MAX_LENGTHS[part]}))
                else:
                    cleaned[part] = value
            if cleaned:
                texts[language] = cleaned
        if required and not any(required in entry for entry in texts.values()):
            self.problem(where, "texts", Problem(f"needs_{required}"))
        return texts

    def card(self, game: GameDefinition, raw: Any, where: str, seen: dict[str, str]) -> CardRecord | None:
        if not isinstance(raw, dict):
            self.problem(where, "", Problem("not_an_object"))
            return None
        nul_places = _nul_places(raw)
        for place in nul_places:  # no database stores it in a text (PostgreSQL refuses it)
            self.problem(where, place, Problem("nul_character"))
        if nul_places:
            return None
        known = {"key", "number", "kind", "fields", "texts", "source", "translations"}
        for extra in sorted(set(raw) - known):
            self.problem(where, extra, Problem("unknown_property", {"properties": sorted(known)}))
        key = raw.get("key")
        number_given = raw.get("number")
        if (not isinstance(key, str) or not key.strip()) and isinstance(number_given, str):
            key = self.key_of_number.get(number_given.strip(), key)
        if not isinstance(key, str) or not key.strip():
            self.problem(where, "key", Problem("required"))
            key = ""
        key = key.strip()
        if len(key) > MAX_LENGTHS["key"]:
            self.problem(where, "key", Problem("too_long", {"limit": MAX_LENGTHS["key"]}))
            key = ""
        if "/" in key or any(unicodedata.category(character) == "Cc" for character in key):
            # one segment of the card's addresses (/games/<game>/cards/<key>/, the API's)
            self.problem(where, "key", Problem("key_characters"))
            key = ""
        if key:
            where = f"{where} ({key})"
            if key in seen:
                self.problem(where, "key", Problem("key_used_twice", {"key": key, "where": seen[key]}))
            else:
                seen[key] = where
        number = raw.get("number") or None
        if number is not None:
            problem = game.check_number(number, MAX_LENGTHS["number"])
            if problem:
                self.problem(where, "number", problem)
            else:
                number = number.strip()
        checked = game.check_values(raw.get("kind") or None, raw.get("fields") or {})
        for problem in checked.problems:
            self.problem(where, problem.where, problem)
        kind, fields = checked.kind, checked.fields
        texts = self.texts(raw.get("texts"), where, CARD_TEXT_PARTS, required="name")
        source = raw.get("source") or ""
        if not isinstance(source, str):
            self.problem(where, "source", Problem("not_text"))
            source = ""
        translations = self.translations(game, raw.get("translations"), where)
        return CardRecord(
            key=key, number=number, kind=kind, fields=fields, texts=texts, source=source, translations=translations
        )

    def translations(self, game: GameDefinition, raw: Any, where: str) -> dict[str, dict[str, dict[str, str]]]:
        """A card's texts in other translation tracks: ``{language: {track name: parts}}``, checked as texts are."""
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            self.problem(where, "translations", Problem("texts_not_object"))
            return {}
        checked: dict[str, dict[str, dict[str, str]]] = {}
        for language, tracks in raw.items():
            place = f"translations.{language}"
            if not self.track_language(game, language, where, place):
                continue
            if tracks is None:
                continue  # null: no value
            if not isinstance(tracks, dict):
                self.problem(where, place, Problem("not_an_object"))
                continue
            for name, parts in tracks.items():
                if not self.track_name(name, where, f"{place}.{name}"):
                    continue
                if parts is None:
                    continue
                # a track's text is checked as a language's text is, its problems named at the track
                before = len(self.problems)
                text = self.texts({language: parts}, where, CARD_TEXT_PARTS, required=None)
                for index in range(before, len(self.problems)):
                    problem = self.problems[index]
                    field_name = problem.field.replace(f"texts.{language}", f"{place}.{name}", 1)
                    self.problems[index] = ImportProblem(
                        problem.file, problem.where, field_name, problem.message, problem.problem
                    )
                if text:
                    checked.setdefault(language, {})[name] = text[language]
        return checked

    def track_language(self, game: GameDefinition, language: Any, where: str, place: str) -> bool:
        if language not in LANGUAGES:
            self.problem(where, place, Problem("unknown_language", {"languages": list(LANGUAGES)}))
            return False
        if language == game.original_language:
            self.problem(where, place, Problem("no_track_in_original", {"language": language}))
            return False
        return True

    def track_name(self, name: Any, where: str, place: str) -> bool:
        if not isinstance(name, str) or not name.strip():
            self.problem(where, place, Problem("required"))
            return False
        if len(name) > MAX_LENGTHS["track"]:
            self.problem(where, place, Problem("too_long", {"limit": MAX_LENGTHS["track"]}))
            return False
        if name != name.strip():
            self.problem(where, place, Problem("track_name_characters"))
            return False
        found = plain_text.found_in_name(name)
        if found is not None:
            params = {"character": plain_text.describe_character(found[1]), "position": found[0]}
            self.problem(where, place, Problem("track_name_invisible", params))
            return False
        return True

    def track(self, game: GameDefinition, raw: Any, where: str) -> TrackRecord | None:
        """A declared translation track (a file's ``tracks``, a change set's new tracks)."""
        if not isinstance(raw, dict):
            self.problem(where, "", Problem("not_an_object"))
            return None
        known = {"language", "name", "credits", "status", "main"}
        for extra in sorted(set(raw) - known):
            self.problem(where, extra, Problem("unknown_property", {"properties": sorted(known)}))
        language, name = raw.get("language"), raw.get("name")
        good = self.track_language(game, language, where, "language") & self.track_name(name, where, "name")
        credits = raw.get("credits") or ""
        if not isinstance(credits, str):
            self.problem(where, "credits", Problem("not_text"))
            good = False
        elif len(credits) > MAX_LENGTHS["credits"]:
            self.problem(where, "credits", Problem("too_long", {"limit": MAX_LENGTHS["credits"]}))
            good = False
        status = raw.get("status") or "draft"
        if status not in TRACK_STATUSES:
            self.problem(
                where, "status", Problem("not_a_status", {"value": str(status), "choices": list(TRACK_STATUSES)})
            )
            good = False
        main = raw.get("main", False)
        if not isinstance(main, bool):
            self.problem(where, "main", Problem("not_boolean", {"value": str(main)}))
            good = False
        if not good or _nul_places(raw):
            return None
        return TrackRecord(language=language, name=name, credits=credits.strip(), status=status, main=main)


def _nul_places(value: Any, path: str = "") -> list[str]:
    """The places (``texts.ja.name``) of every string in ``value``, key or value, that holds a NUL character."""
    if isinstance(value, str):
        return [path] if "\x00" in value else []
    if isinstance(value, dict):
        places = []
        for key, item in value.items():
            place = f"{path}.{key}" if path else str(key)
            places += [place] if "\x00" in str(key) else _nul_places(item, place)
        return places
    if isinstance(value, list):
        return [place for index, item in enumerate(value) for place in _nul_places(item, f"{path}[{index}]")]
    return []


def check_cards(game: GameDefinition, raws: list[Any], label: str = "") -> tuple[list[CardRecord], list[ImportProblem]]:
    """Card records checked exactly as the importer checks a file's cards (the contribution forms, the bulk
    preview and the API use this): the records, and every problem with where it is (``cards[2] (KEY)``)."""
    checker = _Checker(label)
    seen: dict[str, str] = {}
    records = [checker.card(game, raw, f"cards[{index}]", seen) for index, raw in enumerate(raws)]
    return [record for record in records if record is not None], checker.problems


def check_tracks(game: GameDefinition, raws: Any, label: str = "") -> tuple[list[TrackRecord], list[ImportProblem]]:
    """Translation tracks declared by a file or a change set, checked (``tracks[0]``): at most one main track and
    one track of a name per language."""
    checker = _Checker(label)
    tracks: list[TrackRecord] = []
    if raws is None:
        return tracks, []
    if not isinstance(raws, list):
        checker.problem("file", "tracks", Problem("must_be_list"))
        return tracks, checker.problems
    for index, raw in enumerate(raws):
        where = f"tracks[{index}]"
        track = checker.track(game, raw, where)
        if track is None:
            continue
        if any(other.language == track.language and other.name == track.name for other in tracks):
            checker.problem(where, "name", Problem("used_twice", {"key": track.name}))
        elif track.main and any(other.main and other.language == track.language for other in tracks):
            checker.problem(where, "main", Problem("one_main_track"))
        else:
            tracks.append(track)
    return tracks, checker.problems


def _check_sections(checker: _Checker, document: dict[str, Any], bundle: CardBundle) -> None:
    seen_terms: set[str] = set()
    for index, raw in enumerate(document.get("terms") or []):
        where = f"terms[{index}]"
        if not isinstance(raw, dict):
            checker.problem(where, "", Problem("not_an_object"))
            continue
        key = raw.get("key")
        if not isinstance(key, str) or not key.strip():
            checker.problem(where, "key", Problem("required"))
            continue
        if len(key) > MAX_LENGTHS["key"]:
            checker.problem(where, "key", Problem("too_long", {"limit": MAX_LENGTHS["key"]}))
            continue
        if key in seen_terms:
            checker.problem(where, "key", Problem("used_twice", {"key": key}))
        seen_terms.add(key)
        category = raw.get("category", "term")
        if category not in TERM_CATEGORIES:
            checker.problem(
                where, "category", Problem("not_a_choice", {"value": str(category), "choices": list(TERM_CATEGORIES)})
            )
        texts = checker.texts(raw.get("texts"), f"{where} ({key})", TERM_TEXT_PARTS, required="name")
        bundle.terms.append(TermRecord(key=key.strip(), category=category, texts=texts))
    for index, raw in enumerate(document.get("rules") or []):
        where = f"rules[{index}]"
        if not isinstance(raw, dict):
            checker.problem(where, "", Problem("not_an_object"))
            continue
        key = raw.get("key")
        if key not in RULE_KEYS:
            checker.problem(where, "key", Problem("not_a_choice", {"value": str(key), "choices": list(RULE_KEYS)}))
        order = raw.get("order", index)
        if not isinstance(order, int) or isinstance(order, bool):
            checker.problem(where, "order", Problem("not_whole_number", {"value": str(order)}))
            order = index
        texts = checker.texts(raw.get("texts"), where, RULE_TEXT_PARTS, required="body")
        bundle.rules.append(RuleRecord(key=str(key), order=order, texts=texts))


def parse_json(text: str, file_label: str) -> tuple[CardBundle | None, list[ImportProblem]]:
    checker = _Checker(file_label)
    try:
        document = jsonlimits.loads(text)
    except json.JSONDecodeError as error:
        clause = Problem(f"json_{jsonlimits.syntax_problem(error)}")
        checker.problem(f"line {error.lineno}, column {error.colno}", "", Problem("not_json", {"error": clause}))
        return None, checker.problems
    except jsonlimits.JSONLimitError as error:
        clause = Problem(f"json_{error.code}", error.params)
        checker.problem("file", "", Problem("json_limit", {"error": clause}))
        return None, checker.problems
    if not isinstance(document, dict):
        checker.problem("file", "", Problem("not_a_card_file"))
        return None, checker.problems
    if document.get("format", FORMAT_TAG) != FORMAT_TAG:
        checker.problem(
            "file", "format", Problem("unknown_format", {"value": str(document.get("format")), "expected": FORMAT_TAG})
        )
    game = _game_or_problem(checker, document.get("game"), "file")
    if game is None:
        return None, checker.problems
    bundle = CardBundle(game=game.slug)
    bundle.tracks, track_problems = check_tracks(game, document.get("tracks"), file_label)
    checker.problems.extend(track_problems)
    cards = document.get("cards") or []
    if not isinstance(cards, list):
        checker.problem("file", "cards", Problem("must_be_list"))
        cards = []
    seen: dict[str, str] = {}
    for index, raw in enumerate(cards):
        record = checker.card(game, raw, f"cards[{index}]", seen)
        if record:
            bundle.cards.append(record)
    _check_sections(checker, document, bundle)
    return bundle, checker.problems


# A row whose game cell starts with this is a note for the person filling in a sheet (the bulk sheet's row that
# names each column's values), not a card.
NOTE_ROW_START = "#"


def parse_csv(
    text: str, file_label: str, delimiter: str = ",", key_of_number: Mapping[str, str] | None = None
) -> tuple[CardBundle | None, list[ImportProblem]]:
    checker = _Checker(file_label, key_of_number)
    reader = csv.DictReader(io.StringIO(text), delimiter=delimiter)
    header = reader.fieldnames or []
    if "game" not in header or "key" not in header:
        checker.problem("line 1", "", Problem("csv_header"))
        return None, checker.problems
    bad_columns = [column for column in header if not _is_known_column(column)]
    for column in bad_columns:
        checker.problem("line 1", column, Problem("unknown_column"))
    bundle: CardBundle | None = None
    seen: dict[str, str] = {}
    for row in reader:
        where = f"line {reader.line_num}"
        if None in row:
            checker.problem(
                where, "", Problem("cell_count", {"cells": len(header) + len(row[None]), "header": len(header)})
            )
            continue
        if (row.get("game") or "").lstrip().startswith(NOTE_ROW_START):
            continue
        # A sheet the site wrote (cardsite.csvfiles) quotes a text that would start a formula: read it back.
        row = {column: restore(value) if isinstance(value, str) else value for column, value in row.items()}
        missing = sum(1 for value in row.values() if value is None)
        if missing:
            checker.problem(where, "", Problem("cell_count", {"cells": len(header) - missing, "header": len(header)}))
            continue
        game = _game_or_problem(checker, (row.get("game") or "").strip(), where)
        if game is None:
            continue
        if bundle is None:
            bundle = CardBundle(game=game.slug)
        elif game.slug != bundle.game:
            checker.problem(where, "game", Problem("one_game", {"game": bundle.game}))
            continue
        raw = {
            "key": row.get("key"),
            "number": row.get("number") or None,
            "kind": row.get("kind") or None,
            "source": row.get("source") or "",
            "fields": {c.split(":", 1)[1]: v for c, v in row.items() if c.startswith("field:") and v != ""},
            "texts": {},
        }
        for column, value in row.items():
            part, _, language = column.partition(":")
            if part in CARD_TEXT_PARTS and language and value:
                raw["texts"].setdefault(language, {})[part] = value
        record = checker.card(game, raw, where, seen)
        if record:
            bundle.cards.append(record)
    if bundle is None and not checker.problems:
        checker.problem("file", "", Problem("no_rows"))
    return bundle, checker.problems


def parse_text(
    text: str, label: str, key_of_number: Mapping[str, str] | None = None
) -> tuple[CardBundle | None, list[ImportProblem]]:
    """A card file's text in any of its shapes: JSON, CSV, or a table pasted from a spreadsheet (tab-separated,
    with the CSV's columns). ``key_of_number``: the keys of the cards a table may name by number alone."""
    text = text.lstrip("\ufeff")
    if text.lstrip().startswith("{"):
        return parse_json(text, label)
    header = text.split("\n", 1)[0]
    return parse_csv(text, label, delimiter="\t" if "\t" in header else ",", key_of_number=key_of_number)


def _is_known_column(column: str) -> bool:
    if column in {"game", "key", "number", "kind", "source"}:
        return True
    part, _, rest = column.partition(":")
    return (part == "field" and bool(rest)) or (part in CARD_TEXT_PARTS and rest in LANGUAGES)


def _game_or_problem(checker: _Checker, slug: Any, where: str) -> GameDefinition | None:
    try:
        return get_game(slug) if isinstance(slug, str) else None
    except KeyError:
        pass
    from .gamedefs import all_games

    games = [game.slug for game in all_games()]
    checker.problem(where, "game", Problem("not_a_game", {"value": str(slug), "games": games}))
    return None


def parse_file(path: str | Path) -> tuple[CardBundle | None, list[ImportProblem]]:
    """Read a card file by its extension (.json or .csv)."""
    path = Path(path)
    label = str(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None, [ImportProblem(label, "file", "", f"is larger than {MAX_FILE_BYTES:,} bytes")]
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return None, [ImportProblem(label, "file", "", "does not exist")]
    except UnicodeDecodeError as error:
        return None, [ImportProblem(label, f"byte {error.start}", "", "is not UTF-8 text")]
    except OSError as error:
        return None, [ImportProblem(label, "file", "", f"cannot be read: {error.strerror}")]
    if path.suffix.lower() == ".csv":
        return parse_csv(text, label)
    if path.suffix.lower() == ".json":
        return parse_json(text, label)
    return None, [ImportProblem(label, "file", "", "name must end in .json or .csv")]


def bundle_to_document(bundle: CardBundle) -> dict[str, Any]:
    """The JSON document for a bundle: the inverse of ``parse_json``."""
    return {
        "format": FORMAT_TAG,
        "game": bundle.game,
        "tracks": [
            {"language": t.language, "name": t.name, "credits": t.credits, "status": t.status, "main": t.main}
            for t in bundle.tracks
        ],
        "rules": [{"key": r.key, "order": r.order, "texts": r.texts} for r in bundle.rules],
        "terms": [{"key": t.key, "category": t.category, "texts": t.texts} for t in bundle.terms],
        "cards": [
            {
                "key": c.key,
                "number": c.number,
                "kind": c.kind,
                "fields": c.fields,
                "source": c.source,
                "texts": c.texts,
                **({"translations": c.translations} if c.translations else {}),
            }
            for c in bundle.cards
        ],
    }


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "validate":
        print("usage: python -m cards.importing validate FILE...", file=sys.stderr)
        return 2
    failed = False
    for name in argv[1:]:
        bundle, problems = parse_file(name)
        for problem in problems:
            print(problem)
        if problems:
            failed = True
        elif bundle:
            print(
                f"{name}: ok ({len(bundle.cards)} cards, {len(bundle.terms)} terms, {len(bundle.rules)} rule sections)"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
