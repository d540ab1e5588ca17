"""Names compared as they look: the confusable skeleton of Unicode's security mechanisms (UTS 39; plain Python).

Two strings are confusable when their skeletons are equal: ``аlice`` (with a Cyrillic а) and ``alice``,
``a1ice`` and ``alice``, ``rnoderator`` and ``moderator``. The skeleton is TR39's (section 4): the text
decomposed (NFD), every character replaced by its prototype from TR39's ``confusables.txt``, decomposed again.

The table comes from ``confusable_homoglyphs``, which ships ``confusables.txt`` as JSON. That JSON lists each
line both ways (source → prototype and prototype → source) and wraps right-to-left characters in
left-to-right marks, so ``_prototypes`` reads the direction back: a source has exactly one entry; a
prototype with several sources, or a sequence of characters, is the prototype; and of a pair that only
names each other, the source is the one listed first (the JSON keeps the file's order, in which the
source of a line comes before its prototype). This gives back the file's 6,307 mappings, none of whose
prototypes is a source again (checked by the tests).
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import unicodedata

_DISPLAY_MARK = "\u200e"  # the LEFT-TO-RIGHT MARK around right-to-left characters in the JSON's display form


@functools.cache
def _prototypes() -> dict[str, str]:
    text = importlib.resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    linked: dict[str, list[str]] = {}
    for key, entries in json.loads(text).items():
        linked.setdefault(key.replace(_DISPLAY_MARK, ""), []).extend(
            entry["c"].replace(_DISPLAY_MARK, "") for entry in entries
        )
    order = {key: index for index, key in enumerate(linked)}
    prototypes: dict[str, str] = {}
    for key, targets in linked.items():
        if len(key) != 1 or len(targets) != 1:
            continue  # a sequence, or a character several others look like: a prototype
        target = targets[0]
        back = linked.get(target, [])
        if key not in back:
            continue
        if len(target) > 1 or len(back) > 1 or order[key] < order[target]:
            prototypes[key] = target
    return prototypes


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text``: equal for two strings that look alike."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in decomposed))


def name_key(name: str) -> str:
    """What two user names must not share: the skeleton of the name compatibility-normalised (NFKC, as Django
    stores user names) and case-folded, folded again after the skeleton (which maps ``0`` to ``O``), so
    that ``ＡＬＩＣＥ``, ``Alice``, ``аlice`` and ``a1ice`` all have the key of ``alice``."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return skeleton(skeleton(folded).casefold())
