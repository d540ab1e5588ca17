"""How a card record changes a card: it changes what it names, and nothing else.

One rule for every record that proposes a change to cards by naming values (the API's ``cards[]``, a bulk
row or file): a key the record leaves out keeps the card's value; a key given a value sets it; ``null``
removes it. The rule holds at every level of the card format (docs/card-format.md): ``number``, ``kind`` and
``source``; each ``fields.<name>``; each ``texts.<language>.<part>`` (and ``texts.<language>: null``, every
part of that language); each ``translations.<language>.<track>.<part>`` (and ``…<track>: null``). ``fields``,
``texts`` or ``translations`` given ``null`` removes all of them. A card that does not exist yet is the record
merged with a card that has no value (``null`` is then no value).

The merged record is a whole card in the card format, checked afterwards exactly as any other
(``cards.importing.check_cards``); a key the format does not have is carried through, so that the check names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# How deep each part of a card nests by name: fields.<name>; texts.<language>.<part>;
# translations.<language>.<track>.<part>.
NESTED = {"fields": 1, "texts": 2, "translations": 3}
# The card a new key starts from: no value at all.
EMPTY: Mapping[str, Any] = {"number": None, "kind": None, "source": "", "fields": {}, "texts": {}, "translations": {}}


def merge_record(before: Mapping[str, Any] | None, record: Any) -> Any:
    """The card ``before`` (a state, ``cards.services.card_state``; None for a new card) as ``record`` changes it,
    as a whole card record. Anything but an object is returned as it is, for the check to refuse."""
    if not isinstance(record, Mapping):
        return record
    if before is None:
        before = EMPTY
    merged: dict[str, Any] = {
        "number": before.get("number"),
        "kind": before.get("kind"),
        "source": before.get("source") or "",
        "fields": dict(before.get("fields") or {}),
        "texts": dict(before.get("texts") or {}),
        "translations": dict(before.get("translations") or {}),
    }
    for name, value in record.items():
        if name in NESTED:
            merged[name] = _merge(merged[name], value, NESTED[name])
        else:
            merged[name] = value  # key, number, kind, source (null: no value), or a key the check names
    return merged


def _merge(before: Mapping[str, Any], given: Any, depth: int) -> Any:
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        return given  # not an object: the check names it
    result = dict(before)
    for key, value in given.items():
        if value is None:
            result.pop(key, None)
        elif depth > 1 and isinstance(value, Mapping) and isinstance(result.get(key), Mapping):
            result[key] = _merge(result[key], value, depth - 1)
        else:
            result[key] = value
    return result


def record_key(record: Any) -> str | None:
    """The key a record names, as the check reads it (trimmed); None when it names none."""
    key = record.get("key") if isinstance(record, Mapping) else None
    return key.strip() if isinstance(key, str) and key.strip() else None
