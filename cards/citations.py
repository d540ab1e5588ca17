"""Where a value came from, in the reader's language.

A card's ``source`` is a citation kept exactly as it was written when the data was transcribed
(``seed 000 (card table); name: seed 000 (遊戲準備 5)``): data, not interface text. What the site adds
to make it readable is the vocabulary of citations (``card table``, ``worked example``, field names before a
colon), which this module puts in the reader's language, and the documents' own titles in place of the keys
the citations name them by (``seed 000`` is 「エンドブレイカー！SCG 規則 & 卡表 - 桌遊」, as the game's module
declares it), while leaving quoted titles, section names and web addresses as they are. The project's notes on
the games (``games.md``) are not a document a reader can look up: a citation of them shows the source the
note itself names, or "public sources" where it names none. The stored text never changes; the API gives it
as stored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import pgettext, pgettext_lazy

from .gamedefs import all_games
from .gamedefs.base import GameDefinition
from .gamedefs.documents import SourceDocument

# The words of citations, longest first so that "card texts" wins over "card text". Literal calls, so that
# makemessages finds each.
_PHRASES = {
    "Japanese card text uses the symbol": pgettext_lazy("citation", "Japanese card text uses the symbol"),
    # No source names the kind: it follows from where the number falls among numbers whose kind is named.
    "inferred from numbering": pgettext_lazy("citation", "inferred from numbering"),
    "the 1000ダルク coin card": pgettext_lazy("citation", "the 1000ダルク coin card"),
    "no field values given": pgettext_lazy("citation", "no field values given"),
    "official solo rules page": pgettext_lazy("citation", "official solo rules page"),
    "fan advanced-rules site": pgettext_lazy("citation", "fan advanced-rules site"),
    "character lists": pgettext_lazy("citation", "character lists"),
    "Wikipedia mirror": pgettext_lazy("citation", "Wikipedia mirror"),
    "support pages": pgettext_lazy("citation", "support pages"),
    "support page": pgettext_lazy("citation", "support page"),
    "starting deck": pgettext_lazy("citation", "starting deck"),
    "product page": pgettext_lazy("citation", "product page"),
    "worked example in": pgettext_lazy("citation", "worked example in"),
    "worked example": pgettext_lazy("citation", "worked example"),
    "official site": pgettext_lazy("citation", "official site"),
    "fan rules site": pgettext_lazy("citation", "fan rules site"),
    "card table": pgettext_lazy("citation", "card table"),
    "card types": pgettext_lazy("citation", "card types"),
    "card texts": pgettext_lazy("citation", "card texts"),
    "card text": pgettext_lazy("citation", "card text"),
    "unconfirmed": pgettext_lazy("citation", "unconfirmed"),
    "glossary": pgettext_lazy("citation", "glossary"),
    "example": pgettext_lazy("citation", "example"),
    "errata": pgettext_lazy("citation", "errata"),
    "entry": pgettext_lazy("citation", "entry"),
    "jobs": pgettext_lazy("citation", "jobs"),
    "seed": pgettext_lazy("citation", "seed"),
}
# "games.md (shadowera.com wiki, Category:Deck)": the note's own source in brackets, or bare "games.md".
_NOTES_CITED = re.compile(r"\bgames\.md(?: \(([^()]*)\))?")
_SEED_KEY = re.compile(r"\bseed \d{3}\b")
_SEED_WORD = re.compile(r"\bseed\b(?! \d)")
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")
_PATTERNS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"\be\.g\.\s*"), lambda match: pgettext("citation", "e.g. ")),
    # a range of card numbers: "EB1-002 to EB1-007"
    (re.compile(r"(?<=\w) to (?=[A-Z0-9]+-\d)"), lambda match: pgettext("citation", " to ")),
    *(
        (re.compile(rf"(?<![\w.-]){re.escape(english)}(?![\w-])"), lambda match, text=text: str(text))
        for english, text in _PHRASES.items()
    ),
]
# "cost: …", "kind: …": a field's name before its citation.
_FIELD = re.compile(r"(?:(?<=^)|(?<=\. )|(?<=; ))([a-z_]+): ")


def _document(key: str, definition: GameDefinition | None) -> SourceDocument | None:
    """The document ``key`` names: the game's own first, else any game's (a citation copied between games)."""
    games = [definition] if definition is not None else []
    for game in [*games, *all_games()]:
        found = game.documents.by_key(key) if game.documents is not None else None
        if found is not None:
            return found
    return None


def _titled(text: str, definition: GameDefinition | None) -> tuple[str, list[str]]:
    """``text`` with its documents' keys replaced by placeholders for their titles (kept out of the vocabulary's
    reach: a title is shown as written), and those titles."""
    titles: list[str] = []

    def hold(title: str) -> str:
        titles.append(title)
        return f"\x00{len(titles) - 1}\x00"

    def notes(match: re.Match[str]) -> str:
        named = match[1]
        if named is not None and (documents is None or documents.names_a_source(named)):
            return named
        public = pgettext("citation", "public sources")
        return public if named is None else f"{public} ({named})"

    def seed(match: re.Match[str]) -> str:
        document = _document(match[0], definition)
        return match[0] if document is None else hold(document.shown)

    documents = definition.documents if definition is not None else None
    text = _NOTES_CITED.sub(notes, text)
    text = _SEED_KEY.sub(seed, text)
    if documents is not None:
        text = _SEED_WORD.sub(lambda match: hold(documents.seed.shown), text)
    return text, titles


def cite(source: str, definition: GameDefinition | None, language: str) -> str:
    """``source`` with the citation vocabulary and field names in ``language``, and its documents by title."""
    if not source:
        return source
    text, titles = _titled(source, definition)
    if definition is not None:
        labels = {spec.name: spec.label(language) for spec in definition.fields}
        labels.setdefault("kind", pgettext("citation", "Kind"))
        labels.setdefault("name", pgettext("citation", "Name"))
        labels.setdefault("number", pgettext("citation", "Number"))
        text = _FIELD.sub(lambda match: f"{labels.get(match[1], match[1])}: ", text)
    for pattern, replace in _PATTERNS:
        text = pattern.sub(replace, text)
    return _PLACEHOLDER.sub(lambda match: titles[int(match[1])], text)


@dataclass(frozen=True)
class ShownDocument:
    """A document as the game page lists it: its title as written (a public source's name, as the notes on the
    games give it, with the citation vocabulary in the reader's language), and where to find it."""

    title: str
    page: str
    subtitle: str
    url: str
    official_site: str
    seed: bool  # the game's primary source


def shown_documents(definition: GameDefinition, language: str) -> list[ShownDocument]:
    """The documents ``definition`` cites, the seed first, for a list of a game's sources."""
    if definition.documents is None:
        return []
    seed = definition.documents.seed
    return [
        ShownDocument(
            title=document.title if document is seed else cite(document.title, None, language),
            page=document.page,
            subtitle=document.subtitle,
            url=document.url,
            official_site=document.official_site,
            seed=document is seed,
        )
        for document in definition.documents
    ]
