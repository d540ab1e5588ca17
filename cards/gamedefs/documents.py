"""The documents a game's data cites, declared once in the game's module.

Stored citations name a game's documents by keys ("seed 000" for the game's seed document, "shadowera.com wiki"
for a public source the project's notes on the games name). A reader cannot look a key up, so every place that
shows a citation shows the document by its own title instead, as the document gives it: a title is data, shown
as written in every language, never translated. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from cardsite.labels import SIMPLIFIED, TRADITIONAL, Labels, simplified


@dataclass(frozen=True)
class SourceDocument:
    """One document: ``key`` as stored citations write it, ``title`` as the document itself gives it, ``page`` the
    part of it meant (empty: the whole) and ``subtitle`` that page's heading, ``url`` its web address where one is known, ``official_site`` the game's
    official site where the document names one."""

    key: str
    title: str
    page: str = ""
    subtitle: str = ""  # the page's own heading under its name, shown where the documents are listed
    url: str = ""
    official_site: str = ""

    @property
    def shown(self) -> str:
        """How a reader sees it cited: the title in corner brackets, then the page."""
        return f"「{self.title}」{self.page}"


@dataclass(frozen=True)
class GameDocuments:
    """A game's seed document (the primary source) and the public sources that fill in where it is silent."""

    seed: SourceDocument
    public: tuple[SourceDocument, ...] = ()

    def __iter__(self) -> Iterator[SourceDocument]:
        yield self.seed
        yield from self.public

    def __getitem__(self, key: str) -> SourceDocument:
        found = self.by_key(key)
        if found is None:
            raise KeyError(key)
        return found

    def by_key(self, key: str) -> SourceDocument | None:
        return next((document for document in self if document.key == key), None)

    def names_a_source(self, citation: str) -> bool:
        """Whether ``citation`` begins by naming one of these documents (its seed as "seed" or by its key)."""
        return citation.startswith(("seed", *(document.key for document in self)))


def titled(templates: Labels, **titles: str) -> dict[str, str]:
    """``templates`` with documents' titles put in (``{seed}`` …; other placeholders are left for later), and a
    Simplified Chinese text made from the Traditional template before the titles go in: a title is shown as
    written, never converted."""

    def fill(template: str) -> str:
        for name, title in titles.items():
            template = template.replace("{" + name + "}", title)
        return template

    filled = {language: fill(template) for language, template in templates.items()}
    if TRADITIONAL in templates:
        filled[SIMPLIFIED] = fill(simplified(templates[TRADITIONAL]))
    return filled
