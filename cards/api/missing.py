"""The map of what is missing of a game as JSON (``GET /api/games/<game>/missing/``): the page's map
(``cards.missing.selectors.missing_map``), its counts as numbers and each gap's sentence, in the reader's language, as
the page words it (``cards.missing.presentation.missing_view``), with the page links where it is filled or shown."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from cardsite.labels import pick

from ..missing import presentation as missing_presentation
from ..missing import selectors as missing_selectors
from ..models import Game

# The answer's schema (drf-spectacular), as ``missing_data`` builds it.
_LINKS = {
    "type": "array",
    "items": {"type": "object", "properties": {"label": {"type": "string"}, "url": {"type": "string"}}},
}
_TEXT = {"type": "string", "description": "The page's sentence, in the reader's language."}
MISSING_MAP = {
    "type": "object",
    "properties": {
        "game": {"type": "string"},
        "summary": _TEXT,
        "cards": {"type": "integer", "description": "Cards known."},
        "incomplete": {"type": "integer", "description": "Of them, cards lacking a value or a text."},
        "unknown_kind": {"type": "integer"},
        "blocked": {
            "type": "boolean",
            "description": "Something the deck rules, goldfish or whole game need is missing.",
        },
        "totals": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "nullable": True, "description": "null: all cards."},
                    "known": {"type": "integer"},
                    "expected": {"type": "integer", "nullable": True, "description": "null: no source gives it."},
                    "source": {"type": "string"},
                    "text": _TEXT,
                    "links": _LINKS,
                },
            },
        },
        "numbers": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "first": {"type": "string"},
                    "last": {"type": "string"},
                    "missing": {"type": "array", "items": {"type": "string"}, "description": "Numbers no card has."},
                    "source": {"type": "string"},
                    "text": _TEXT,
                },
            },
        },
        "fields": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string"},
                    "field": {"type": "string"},
                    "unknown": {"type": "integer"},
                    "cards": {"type": "integer"},
                },
            },
        },
        "texts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "language": {"type": "string"},
                    "missing": {"type": "integer"},
                    "original": {"type": "boolean"},
                    "text": _TEXT,
                },
            },
        },
        "stale": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"language": {"type": "string"}, "count": {"type": "integer"}, "text": _TEXT},
            },
        },
        "blocks": {
            "type": "array",
            "description": "What the gaps block.",
            "items": {
                "type": "object",
                "properties": {
                    "what": {"type": "string", "enum": ["deck_shortfall", "goldfish", "simulator", "deck_rule"]},
                    "kinds": {"type": "array", "items": {"type": "string"}},
                    "known": {"type": "integer"},
                    "needed": {"type": "integer", "description": "deck_shortfall: different cards a legal deck holds."},
                    "zone": {"type": "string", "description": "deck_shortfall: the deck zone."},
                    "field": {"type": "string", "description": "The value read (all but deck_shortfall)."},
                    "cards": {"type": "integer", "description": "Cards the value is read on (all but deck_shortfall)."},
                    "mode": {"type": "string"},
                    "text": _TEXT,
                    "links": _LINKS,
                },
            },
        },
    },
    "required": [
        "game",
        "summary",
        "cards",
        "incomplete",
        "unknown_kind",
        "blocked",
        "totals",
        "numbers",
        "fields",
        "texts",
        "stale",
        "blocks",
    ],
}


def _links(request: HttpRequest, row: Any) -> list[dict[str, str]]:
    return [{"label": str(link.label), "url": request.build_absolute_uri(link.url)} for link in row.links]


def _value_gaps(gaps: list[Any], rows: list[Any], what: str, language: str, request: HttpRequest) -> list[dict]:
    return [
        {
            "what": what,
            "field": gap.field,
            "kinds": list(gap.kinds),
            "known": gap.known,
            "cards": gap.cards,
            "mode": pick(gap.mode, language) if gap.mode else "",
            "text": str(row.text),
            "links": _links(request, row),
        }
        for gap, row in zip(gaps, rows, strict=True)
    ]


def missing_data(game: Game, language: str, request: HttpRequest) -> dict[str, Any]:
    """The map of ``game`` as the API answers it (the schema: ``MISSING_MAP``)."""
    missing = missing_selectors.missing_map(game)
    view = missing_presentation.missing_view(game, missing, language)
    # The page lists the blocks in this order, one row each: shortfalls, goldfish, whole game, deck rules.
    rows = list(view.blocks)
    shortfall_rows, rows = rows[: len(missing.shortfalls)], rows[len(missing.shortfalls) :]
    blocks = [
        {
            "what": "deck_shortfall",
            "kinds": list(shortfall.kinds),
            "known": shortfall.known,
            "needed": shortfall.needed,
            "zone": shortfall.zone.slug,
            "mode": pick(shortfall.mode, language),
            "text": str(row.text),
            "links": _links(request, row),
        }
        for shortfall, row in zip(missing.shortfalls, shortfall_rows, strict=True)
    ]
    for what, gaps in (
        ("goldfish", missing.goldfish_gaps),
        ("simulator", missing.simulator_gaps),
        ("deck_rule", missing.rule_gaps),
    ):
        these, rows = rows[: len(gaps)], rows[len(gaps) :]
        blocks += _value_gaps(gaps, these, what, language, request)
    return {
        "game": game.slug,
        "summary": str(view.summary),
        "cards": missing.cards,
        "incomplete": missing.incomplete,
        "unknown_kind": missing.unknown_kind,
        "blocked": missing.blocked,
        "totals": [
            {
                "kind": total.kind,
                "known": total.known,
                "expected": total.expected,
                "source": pick(total.source, language) if total.source else "",
                "text": str(row.text),
                "links": _links(request, row),
            }
            for total, row in zip(missing.totals, view.totals, strict=True)
        ],
        "numbers": [
            {
                "first": run.first,
                "last": run.last,
                "missing": list(run.missing),
                "source": pick(run.source, language),
                "text": str(row.text),
            }
            for run, row in zip(missing.numbers, view.numbers, strict=True)
        ],
        "fields": [
            {"kind": gap.kind, "field": gap.field, "unknown": gap.unknown, "cards": gap.cards} for gap in missing.fields
        ],
        "texts": [
            {"language": gap.language, "missing": gap.missing, "original": gap.original, "text": str(row.text)}
            for gap, row in zip(missing.texts, view.texts, strict=True)
        ],
        "stale": [
            {"language": gap.language, "count": gap.count, "text": str(row.text)}
            for gap, row in zip(missing.stale, view.stale, strict=True)
        ],
        "blocks": blocks,
    }
