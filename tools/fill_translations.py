"""Fill message catalogues from a table of translations (for translators; not used by the site).

    python tools/fill_translations.py TABLE.py

TABLE.py defines ``T = {msgid: (ja, zh_hant)}`` and optionally ``PLURALS = {msgid: ([ja forms], [zh forms])}``
(``{(context, msgid): …}`` for a message with a context). Entries already translated are left alone
unless they are fuzzy; the catalogues are then compiled with ``manage.py compilemessages``. The Simplified
Chinese catalogue is made from the Traditional one afterwards: ``tools/make_zh_hans.py``.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = {"ja": 0, "zh_Hant": 1}


def _key(entry: polib.POEntry) -> object:
    return (entry.msgctxt, entry.msgid) if entry.msgctxt else entry.msgid


def fill(table: dict, plurals: dict) -> list[str]:
    missing = []
    for language, index in LANGUAGES.items():
        path = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
        catalogue = polib.pofile(str(path))
        for entry in catalogue:
            if entry.obsolete or (entry.translated() and "fuzzy" not in entry.flags):
                continue
            key = _key(entry)
            if entry.msgid_plural and key in plurals:
                forms = plurals[key][index]
                entry.msgstr_plural = {number: form for number, form in enumerate(forms)}
            elif not entry.msgid_plural and key in table:
                entry.msgstr = table[key][index]
            else:
                missing.append(f"{language}: {entry.msgid}")
                continue
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
                entry.previous_msgid = None
                entry.previous_msgid_plural = None
                entry.previous_msgctxt = None
        catalogue.save(str(path))
    return missing


if __name__ == "__main__":
    namespace = runpy.run_path(sys.argv[1])
    left = fill(namespace.get("T", {}), namespace.get("PLURALS", {}))
    print("\n".join(left) or "every message is translated")
