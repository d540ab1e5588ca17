"""Reading card photos (cards/reading) against plain Tesseract on the same pictures, in one run.

    python benchmarks/ocr.py [--cards 10] [--seed 1] [--all-languages] [--regions] [--actions]

Test set: the seed cards of Endbreaker that have a rules text, in Japanese and in Traditional Chinese, drawn as
the game's card layout places things (``cards.reading.layout``, ``synthetic.render_layout_card``): the name in
its band at 1.15× the text's height, no number (these printings carry none, so only the name can find the
card), a pale art panel, the rules text wrapped in the text box with its bracketed labels ([日常], [戦闘]) and
full-width signs (＋２, －３) as the seed writes them. Each card as a clean scan and as a photo of the print
(turned up to 10°, in perspective, blurred, unevenly lit, JPEG noise; ``synthetic.photograph``).

Reported per language and kind of picture, for the project's pipeline (``read_photo`` with the game's layout,
``propose``) and for plain Tesseract (``image_to_string`` in the same language, on the raw picture):
character accuracy (1 − edit distance / length, both texts in NFKC without white space), the share of cards
matched, and seconds per card with their ratio. A card is matched when its proposed name is nearest to its
own among every name of the game in every language (``confusions.closest_name``, as ``match_card`` does after
the search); plain Tesseract is given every line it read as a possible name (more than a reader of its output
would know), so its match rate is an upper bound.
Goals: scans at least 97%; photos at least 93% and 30 points above plain Tesseract; at most 3× plain
Tesseract's time per card; every card matched.

``--actions`` also reports, per language and kind of picture, the actions a contributor takes per card when the
cards go through the batch's review page as one batch (``actions_per_card``): the values left to decide (as the
page counts them: a matched card's readings that differ from its stored value and are not sure, a new card's
readings not sure; sure is at least ``--sure-at-least``, the setting READING_SURE_AT_LEAST, and not marked low)
plus one for the card's submit (the batch's one "Take the sure readings and submit", counted once per card: an
upper bound). Goal: at most one action for every card whose readings are sure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pytesseract  # noqa: E402

from cards.gamedefs import get_game  # noqa: E402
from cards.reading import Preprocessing, propose, read_photo  # noqa: E402
from cards.reading import ocr as reading_ocr  # noqa: E402
from cards.reading.confusions import closest_name  # noqa: E402
from cards.reading.layout import layout_for  # noqa: E402
from cards.reading.ocr import tesseract_languages  # noqa: E402
from cards.reading.synthetic import photograph, render_layout_card  # noqa: E402

GAME = "endbreaker"
LANGUAGES = ("ja", "zh-hant")
CHARACTERS_A_LINE = 20  # of the 24-pixel text on the 630-pixel card


def _normal(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())


def _distance(first: str, second: str) -> int:
    previous = list(range(len(second) + 1))
    for index, char in enumerate(first, 1):
        current = [index]
        for other_index, other in enumerate(second, 1):
            current.append(min(previous[other_index] + 1, current[-1] + 1, previous[other_index - 1] + (char != other)))
        previous = current
    return previous[-1]


def accuracy(expected: str, read: str) -> float:
    expected, read = _normal(expected), _normal(read)
    return max(0.0, 1 - _distance(expected, read) / max(1, len(expected)))


def _seed() -> list[dict]:
    return json.loads((ROOT / "cards" / "data" / f"{GAME}.json").read_text(encoding="utf-8"))["cards"]


def every_name(cards: list[dict]) -> list[tuple[str, str]]:
    """(card key, name) of every name the seed gives, in every language."""
    return [
        (card["key"], text["name"]) for card in cards for text in card.get("texts", {}).values() if text.get("name")
    ]


def _cards(cards: list[dict], language: str, count: int) -> list[tuple[str, str, list[str]]]:
    """(key, name, text lines) of the first ``count`` cards with a rules text in ``language``. Most Chinese texts
    of the seed have no name: those cards are drawn with their Japanese name, as the Chinese printings of
    Japanese games quote names in katakana."""
    chosen = []
    for card in cards:
        texts = card.get("texts", {})
        text = texts.get(language, {}).get("text")
        name = texts.get(language, {}).get("name") or texts.get("ja", {}).get("name")
        if not text or not name:
            continue
        lines = [
            part[start : start + CHARACTERS_A_LINE]
            for part in text.split("\n")
            for start in range(0, len(part), CHARACTERS_A_LINE)
        ]
        chosen.append((card["key"], name, lines))
    return chosen[:count]


def _plain_matches(plain: str, key: str, names: list[tuple[str, str]]) -> bool:
    for line in plain.splitlines():
        match = closest_name(line, names)
        if match is not None and match.key == key:
            return True
    return False


def actions_per_card(reading, proposals, stored: dict | None, *, sure_at_least: float) -> tuple[list[str], int]:
    """(the values left to decide, actions) for one card on the batch's review page (``readings.views.batch_review``):
    a matched card (``stored``: its ``name``, ``text`` and declared fields, as the seed gives them) decides each
    reading that differs from the stored value and is not sure; a new card (None) each reading not sure. The
    card's text is the lines no proposal was read from, as sure as the least sure of them. One action more: the
    submit. Counted here apart from the accuracy figures above (plain Python, no database)."""
    read: dict[str, tuple[object, bool]] = {}
    for proposal in proposals:
        if proposal.field != "keyword" and proposal.field not in read:
            sure = proposal.confidence >= sure_at_least and not proposal.low_confidence
            read[proposal.field] = (proposal.value, sure)
    used = {index for proposal in proposals for index in proposal.lines}
    rest = [line for index, line in enumerate(reading.lines) if index not in used and line.text.strip()]
    if rest:
        confidence = min(line.confidence for line in rest)
        read["text"] = ("\n".join(line.text for line in rest), confidence >= sure_at_least)

    def plain(value: object) -> str:
        return "" if value is None else str(value).replace("\r\n", "\n").strip()

    to_decide = [
        field
        for field, (value, sure) in read.items()
        if not sure and (stored is None or plain(value) != plain(stored.get(field)))
    ]
    return to_decide, len(to_decide) + 1


def _stored_of(seed: list[dict], key: str, language: str) -> dict:
    card = next(card for card in seed if card["key"] == key)
    texts = card.get("texts", {}).get(language, {})
    return {**card.get("fields", {}), "name": texts.get("name", ""), "text": texts.get("text", "")}


def _print_actions(actions: dict[tuple[str, str], list[tuple[list[str], int, bool]]]) -> bool:
    """The actions per card, by language and kind of picture; whether every card read sure took one action."""
    print(f"{'language':9} {'picture':7} {'cards':>5}  {'decide':>6} {'actions':>7} {'≤1':>5} {'sure':>6}  goal")
    all_met = True
    for (language, kind), counted in actions.items():
        count = max(1, len(counted))
        sure_cards = [actions for to_decide, actions, _matched in counted if not to_decide]
        met = all(actions <= 1 for actions in sure_cards)
        all_met = all_met and met
        print(
            f"{language:9} {kind:7} {len(counted):5}  {sum(len(c[0]) for c in counted) / count:6.2f}"
            f" {sum(c[1] for c in counted) / count:7.2f} {sum(c[1] <= 1 for c in counted) / count:5.0%}"
            f" {len(sure_cards):6}  {'met' if met else 'NOT met'}"
        )
        fields = Counter(field for to_decide, _actions, _matched in counted for field in to_decide)
        matched = sum(matched for _to_decide, _actions, matched in counted)
        print(f"  left to decide: {dict(fields.most_common()) or 'nothing'}; cards matched to the seed's: {matched}")
    return all_met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=10, help="cards per language")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--long-side", type=int, help="pre-processing's (default: the reading language's)")
    parser.add_argument(
        "--all-languages",
        action="store_true",
        help="read each card in its language and then the game's others (both pipelines), not its language alone",
    )
    parser.add_argument(
        "--regions", action="store_true", help="read the layout's regions alone, not the page (psm 3) and the name band"
    )
    parser.add_argument(
        "--actions", action="store_true", help="also report the actions a contributor takes per card (see above)"
    )
    parser.add_argument("--sure-at-least", type=float, default=0.9, help="READING_SURE_AT_LEAST (default 0.9)")
    arguments = parser.parse_args()
    actions: dict[tuple[str, str], list[tuple[list[str], int, bool]]] = {}
    reading_ocr.READ_REGIONS = arguments.regions
    chance = random.Random(arguments.seed)
    settings = Preprocessing(card_long_side=arguments.long_side) if arguments.long_side else None
    game = get_game(GAME)
    layout = layout_for(GAME)
    seed = _seed()
    names = every_name(seed)
    rows = []
    misses: list[str] = []
    for language in LANGUAGES:
        read_in = (
            [language, *(other for other in LANGUAGES if other != language)] if arguments.all_languages else [language]
        )
        tesseract_names = tesseract_languages(read_in)
        results: dict[str, list[tuple[float, float, bool, float, float, bool]]] = {"scan": [], "photo": []}
        for number, (key, name, lines) in enumerate(_cards(seed, language, arguments.cards)):
            expected = name + "".join(lines)
            card = render_layout_card(name, lines, language=language, layout=layout, seed=number)
            pictures = {
                "scan": card,
                "photo": photograph(
                    card,
                    angle=chance.uniform(-10, 10),
                    perspective=chance.uniform(0.01, 0.06),
                    blur=chance.uniform(0.6, 1.5),
                    uneven_light=chance.uniform(0.1, 0.35),
                    jpeg_quality=chance.randint(60, 85),
                ),
            }
            for kind, picture in pictures.items():
                started = time.perf_counter()
                reading = read_photo(picture, read_in, preprocessing=settings, layout=layout)
                proposals = propose(reading, game)
                proposed = [item.value for item in proposals if item.field == "name"]
                found = next((match for match in (closest_name(value, names) for value in proposed) if match), None)
                ours = time.perf_counter() - started
                matched = found is not None and found.key == key
                if arguments.actions:
                    counted = actions_per_card(
                        reading,
                        proposals,
                        _stored_of(seed, found.key, language) if found is not None else None,
                        sure_at_least=arguments.sure_at_least,
                    )
                    actions.setdefault((language, kind), []).append((*counted, found is not None))
                if not matched:
                    misses.append(f"{language} {kind} {key} {name!r}: proposed {proposed!r}")
                started = time.perf_counter()
                plain = pytesseract.image_to_string(picture, lang=tesseract_names)
                theirs = time.perf_counter() - started
                results[kind].append(
                    (
                        accuracy(expected, reading.text),
                        ours,
                        matched,
                        accuracy(expected, plain),
                        theirs,
                        _plain_matches(plain, key, names),
                    )
                )
        for kind, measured in results.items():
            count = len(measured)
            columns = list(zip(*measured, strict=True))
            rows.append(
                (
                    language,
                    kind,
                    count,
                    *(sum(column) / count for column in columns),
                )
            )

    mode = "each card's language, then the other" if arguments.all_languages else "each card's language"
    print(f"read in: {mode}; {'the layout regions' if arguments.regions else 'the page and the name band'}")
    print(
        f"{'language':9} {'picture':7} {'cards':>5}  {'chars':>6} {'match':>6} {'s/card':>6}"
        f"  {'plain':>6} {'match':>6} {'s/card':>6}  {'time':>5}  goal"
    )
    all_met = True
    for (
        language,
        kind,
        count,
        ours_accuracy,
        ours_seconds,
        ours_match,
        plain_accuracy,
        plain_seconds,
        plain_match,
    ) in rows:
        if kind == "scan":
            met = ours_accuracy >= 0.97
        else:
            met = ours_accuracy >= 0.93 and ours_accuracy - plain_accuracy >= 0.30
        ratio = ours_seconds / plain_seconds
        met = met and ratio <= 3 and ours_match == 1
        all_met = all_met and met
        print(
            f"{language:9} {kind:7} {count:5}  {ours_accuracy:6.1%} {ours_match:6.0%} {ours_seconds:6.2f}"
            f"  {plain_accuracy:6.1%} {plain_match:6.0%} {plain_seconds:6.2f}  {ratio:4.1f}×"
            f"  {'met' if met else 'NOT met'}"
        )
    for miss in misses:
        print("not matched:", miss)
    if arguments.actions:
        print("actions per card (values to decide + the submit), one batch on the review page:")
        all_met = _print_actions(actions) and all_met
    print("goal met" if all_met else "goal NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
