"""Reading a card's text from a photo: plain Python, no Django.

What it does, in three steps:

1. ``preprocess.prepare`` (OpenCV): the photo is turned as its EXIF says; the card's outline is the largest
   outer contour of its edges (Canny), simplified to four corners (or its smallest turned rectangle); the card
   is straightened by the perspective transform of those corners (which also undoes its turn), scaled to
   ``card_long_side`` pixels (up or down), its printed border cut off (``inset``), its light evened by dividing
   by a closing of itself (shade, a light falling off), sharpened (unsharp masking), what touches its edge
   cleared and a white margin added. No outline: the whole photo is read, scaled the same way.
2. ``ocr.read_photo`` (Tesseract 5 through pytesseract, LSTM engine, page segmentation 3): read in the
   languages asked for, the site's codes mapped to Tesseract's (ja → jpn, zh-hant → chi_tra, en → eng).
   ``languages_for(game)`` gives the game's original language, then its translation languages: the photo is
   read in the original, and read again in a translation language only when a line is not the original's
   (no kana in a Japanese game's line of Han characters, or a line read unsurely); such a line takes the
   translation's reading of the same place when that is surer (``ocr.read_photo``); katakana quoted in a
   Chinese line is spliced in word by word from that Japanese reading (``linework.splice``), and a name band left
   unsure is read in the translation languages too (``ocr.name_in_translations``). A Traditional Chinese
   card's lines holding a word read under 50% sure are read a second time, cut out and scaled to a set text
   height, and keep the surer of the two readings (``ocr.second_reading``). Each line keeps its language, its
   words, their boxes and confidences (0–1).
   With the game's card layout (``layout.layout_for(slug)``: a name band, a text box, a number corner, the
   labels printed in brackets), the name band is read alone as one line where the page did not read it surely
   (``ocr.with_name_band``), and the symbols the game prints are restored (``symbols.restore``: ＋ read as 十,
   － as 一, [戦闘] as 澤闘]1, a lone 。 as 0), each correction kept on its line.
3. ``proposals.propose``: values suggested from the game's declarations (number pattern and runs, labelled
   fields of declared types, glossary terms passed in, the name); see that module. Proposals are never
   applied: the contributor confirms or corrects each.

The result types (``result``: ``Reading``, ``Line``, ``Word``, ``Box``, ``Proposal``) are dataclasses with
``to_json``/``from_json`` for a JSONField.

Decisions:

- Boxes are kept twice: ``box`` in the corrected image (``Reading.corrected_size``, the image Tesseract read)
  and ``photo_box`` in the photo as uploaded after its EXIF turn: the corrected box's four corners mapped back
  through the inverse perspective transform, and the upright box around them.
- The card is assumed turned by less than 45° (its corners are ordered by their position); an upside-down
  card is read upside down.
- ``card_long_side`` 1200 and ``sharpen`` 1.0 were chosen with ``benchmarks/ocr.py`` (seed texts on synthetic
  cards, text 24–40 px on 630 × 880): Traditional Chinese read 87.6% of characters at 900 and 90.0% at 1200,
  Japanese 96–97% at both. Spaced full-width text such as ＡＴ：＋３ stays the hardest line (its ＋ read as 十 or
  二, its colon as letters): the proposals allow for those misreadings and mark them.
- One model per reading: a card read in Traditional Chinese is read with chi_tra alone, never "chi_tra+jpn".
  Reading both at once let the Japanese model win lines of real Chinese printings (戰鬥 read 戦門, 擊 read 撃)
  that chi_tra alone reads right; the katakana names a Chinese text quotes are then misread (as Latin letters
  and strokes), which the contributor corrects on the review page. The figures below were measured with
  "chi_tra+jpn" and were not measured again. Tried on the Chinese scans and left as they were, since none
  changed the errors below: page segmentation 6 and 11, ``preserve_interword_spaces``, ``--dpi 300``, no dictionaries
  (``load_system_dawg``/``load_freq_dawg`` 0), Otsu binarisation, thinner or bolder strokes, blur, sharpen 0 or 2,
  long side 900 (worse). Kept: a Traditional Chinese card is scaled to a long side of 1400, not 1200
  (``ocr.LONG_SIDE``, when no ``Preprocessing`` is passed): its dense Han text, read as "chi_tra+jpn", went
  from 95.9% to 97.4% of characters on 12 seed scans, at about the same time. What stayed was chi_tra's: the
  half-width "[" before 日 read with it as one character (舊, 嗆: 臼 is drawn like "[日]") or dropped, on some
  cards, with a low confidence on those words. The second reading of unsure lines (``ocr.second_reading``;
  ``ocr.SECOND_READING``, ``SECOND_READING_BELOW`` 0.5, ``SECOND_READING_HEIGHT`` 57 px) mends most of it
  without knowing brackets: each line with a word under 50% is cut out (its words' median band), scaled so its
  text is 57 px high, and all such lines of a card are read in one more Tesseract call (chi_tra alone, page
  segmentation 6); the line's surer reading is kept. Chinese scans went from 96.9% to 97.8%, photos from 95.5%
  to 97.1% (96.0% to 97.1% and 95.9% to 96.8% on 32 cards not used to choose it), for 0.2–0.4 s a card.
  Japanese is read once: in a trial it gained nothing on scans (97.5% to 97.4%) and little on photos (97.5% to
  97.8%) for 0.2–0.45 s a card, close to its photos' limit of 3× plain Tesseract's time.
- The straightened image gets a white margin (``pad``) and the dark shapes touching its edge (the rest of
  the printed border) are cleared: Tesseract drops text at an image's edge and reads a border as a line.
- A line's words are joined without a space where either side is a wide (CJK or full-width) character, since
  Tesseract cuts Japanese and Chinese into one-character words.

Parameters: ``preprocess.Preprocessing`` (detect_side, min_card_area, card_long_side, inset, light_kernel,
sharpen, pad), ``ocr.OcrSettings`` (page_segmentation, engine, timeout), ``proposals.LOW_CONFIDENCE_BELOW``
(0.80, or ``low_confidence_below=`` per call), ``proposals.NAME_HEIGHT_SHARE``, ``NAME_DISTINCT``,
``MAX_CORRECTIONS`` and ``MAX_SKIPPED``.

``confusions`` lists what Tesseract reads for a printed character and finds a name despite it (``closest_name``,
used by the matching of ``readings``). ``synthetic`` draws clearly synthetic card photos for the tests and the
benchmark, as a layout places things (``render_layout_card``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cards.gamedefs.base import GameDefinition

from .ocr import OcrSettings, ReadingUnavailable, installed_languages, read_photo, tesseract_available
from .preprocess import Preprocessing
from .proposals import LOW_CONFIDENCE_BELOW, propose
from .result import Box, Line, Proposal, Reading, Word


def languages_for(
    game: GameDefinition, *, with_translations: bool = True, printing: str | None = None
) -> Sequence[str]:
    """The languages to read a card of ``game`` in, each with its own model alone (never two models at once for
    one line: Japanese's turns 戰鬥 into 戦門 on a Chinese printing that chi_tra alone reads right).

    ``printing``, the language the card is printed in (the original or a translation language: the track it is
    read for), is read alone. Without it: the original, then the translation languages (unless
    ``with_translations`` is False), which ``read_photo`` reads only where a first pass finds a line not written
    in the original's script. ``ValueError`` for a printing in a language the game has no text in."""
    if printing:
        if printing not in game.text_languages:
            raise ValueError(f"{game.slug} has no text in {printing!r}")
        return (printing,)
    return game.text_languages if with_translations else (game.original_language,)


__all__ = [
    "LOW_CONFIDENCE_BELOW",
    "Box",
    "Line",
    "OcrSettings",
    "Preprocessing",
    "Proposal",
    "Reading",
    "ReadingUnavailable",
    "Word",
    "installed_languages",
    "languages_for",
    "propose",
    "read_photo",
    "tesseract_available",
]
