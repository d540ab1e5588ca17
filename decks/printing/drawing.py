"""A deck as things to share and print: its make-up as a picture (PNG, a grid of the cards with
their copies) and two PDFs, a registration sheet and proxies to print and cut. Plain Python over plain data
(``PrintedDeck``); no Django here: ``decks.printing.views`` builds the data from the deck and its cards.

Decided where the issue is silent:
- The picture shows each card once, with its copies (×N), zone after zone; a card with a stored picture shows it,
  one without shows a framed tile with its name and printed number (a value no source gives is never drawn as
  a guess).
  Names are drawn with a Noto Sans CJK font when the machine has one; without one, tiles show the card's key only,
  since a Latin-only font would draw Japanese and Chinese as empty boxes.
- The PDFs use ReportLab's built-in CID fonts (HeiseiKakuGo-W5 for Japanese and English, MSung-Light for
  Traditional Chinese): no font file to ship, and every PDF reader has them.
- Proxies are 63 × 88 mm (the usual card size), nine to an A4 page with cut marks, one per copy, capped at
  ``MAX_PROXIES`` a PDF; a card with a picture prints the picture, one without prints its name, number, values
  and text, marked as a proxy.
- A card is named by its name and its printed number; a card with no number has none printed (its key is its
  name, which would otherwise be printed twice).
- Every printout counts the deck as the deck page does (``PrintedDeck.total``): a game's fixed zones (Endbreaker's
  starting deck) are printed but not counted in the deck's size.
- The registration sheet lists every zone (count, number, name), its totals, blanks for the player's name and the
  event, and the verdict of the game's construction rules at the time it was printed.
"""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from cardsite.linebreak import wrap

MAX_PROXIES = 400  # copies in one proxies PDF (a 40-card deck is 5 pages; this is 45)
MAX_PICTURE_TILES = 120  # distinct cards in one deck picture
TILE = (150, 210)  # pixels of one card in the picture (about the card's 63:88)
PICTURE_COLUMNS = 8


@dataclass(frozen=True)
class PrintedCard:
    key: str
    name: str
    count: int
    number: str = ""  # the printed number; empty for a card that has none (its key is then its name)
    values: Sequence[tuple[str, str]] = ()  # (label, value) as the card page shows them
    text: str = ""
    picture: Callable[[], bytes | None] | None = None  # the card's picture file, read only when drawn
    placeholder: bool = False  # a placeholder card (``decks.placeholders``): drawn as a plain frame, never a card


@dataclass(frozen=True)
class PrintedZone:
    label: str
    cards: Sequence[PrintedCard]

    @property
    def total(self) -> int:
        return sum(card.count for card in self.cards)


@dataclass(frozen=True)
class PrintedDeck:
    """Everything printed, already in the reader's language (``labels`` holds the sheet's own words)."""

    name: str
    game: str
    mode: str
    owner: str
    zones: Sequence[PrintedZone]
    verdict: str
    problems: Sequence[str]
    language: str
    total: int  # the deck's size as the deck page counts it (``decks.presentation.deck_total``)
    labels: dict[str, str] = field(default_factory=dict)
    # Placeholder cards, listed apart as the deck page lists them (never in a zone's cards nor in ``total``).
    placeholders: Sequence[PrintedCard] = ()

    @property
    def placeholder_total(self) -> int:
        return sum(card.count for card in self.placeholders)


class TooManyProxies(ValueError):
    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


# --- the picture ------------------------------------------------------------------------------------------


@cache
def cjk_font_file() -> str | None:
    """A Noto Sans CJK font on this machine (fontconfig's answer), or None."""
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}", "Noto Sans CJK JP"], capture_output=True, text=True, timeout=5, check=False
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return found if found and "CJK" in Path(found).name and Path(found).exists() else None


def _font(size: int) -> tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, bool]:
    """A font for names, and whether it draws Japanese and Chinese."""
    path = cjk_font_file()
    if path is not None:
        return ImageFont.truetype(path, size), True
    return ImageFont.load_default(size), False


def _fit(draw: ImageDraw.ImageDraw, text: str, font, width: int, lines: int) -> list[str]:
    """``text`` broken into at most ``lines`` lines of ``width`` pixels by the rules of Japanese and Chinese
    line breaking (``cardsite.linebreak``); the last line ends in … when cut."""
    result = wrap(text, lambda line: draw.textlength(line, font=font), width)
    if len(result) <= lines:
        return result
    result = result[:lines]
    last = result[-1]
    while last and draw.textlength(last + "…", font=font) > width:
        last = last[:-1]
    result[-1] = last + "…"
    return result


def _placeholder_tile(draw: ImageDraw.ImageDraw, card: PrintedCard, font, small, draws_cjk: bool, word: str) -> None:
    """A plain grey frame: the word "placeholder" in the reader's language, its name and its stated values."""
    draw.rectangle((0, 0, TILE[0] - 1, TILE[1] - 1), fill="#eceef2")
    draw.rectangle((6, 6, TILE[0] - 7, TILE[1] - 7), outline="#889", width=1)
    shown_word = word if draws_cjk or word.isascii() else "placeholder"
    draw.text((12, 12), shown_word, fill="#556", font=small)
    label = card.name if draws_cjk else card.key
    y = 34
    for line in _fit(draw, label, font, TILE[0] - 24, 4):
        draw.text((12, y), line, fill="#223", font=font)
        y += 22
    if draws_cjk:
        for value_label, value in card.values:
            if y > TILE[1] - 60:
                break
            draw.text((12, y), f"{value_label} {value}", fill="#334", font=small)
            y += 18


def _tile(card: PrintedCard, font, small, draws_cjk: bool, word: str = "") -> Image.Image:
    tile = Image.new("RGB", TILE, "white")
    picture = card.picture() if card.picture is not None else None
    if picture is not None:
        try:
            with Image.open(io.BytesIO(picture)) as opened:
                shown = opened.convert("RGB")
                shown.thumbnail(TILE)
                tile.paste(shown, ((TILE[0] - shown.width) // 2, (TILE[1] - shown.height) // 2))
        except (OSError, ValueError):
            picture = None
    draw = ImageDraw.Draw(tile)
    if card.placeholder:
        _placeholder_tile(draw, card, font, small, draws_cjk, word)
    elif picture is None:
        draw.rectangle((2, 2, TILE[0] - 3, TILE[1] - 3), outline="#556", width=2)
        label = card.name if draws_cjk else card.key
        for index, line in enumerate(_fit(draw, label, font, TILE[0] - 16, 5)):
            draw.text((8, 10 + index * 22), line, fill="#223", font=font)
        if draws_cjk and card.number:
            draw.text((8, TILE[1] - 48), card.number, fill="#667", font=small)
    badge = f"×{card.count}"
    width = int(draw.textlength(badge, font=font)) + 12
    draw.rectangle((TILE[0] - width - 4, TILE[1] - 30, TILE[0] - 4, TILE[1] - 6), fill="#223")
    draw.text((TILE[0] - width + 2, TILE[1] - 29), badge, fill="white", font=font)
    return tile


def deck_picture(deck: PrintedDeck) -> bytes:
    """The deck's make-up as a PNG: a heading, then each zone's cards as a grid, each card once with ×copies."""
    font, draws_cjk = _font(18)
    small, _unused = _font(13)
    heading_font, _unused = _font(26)
    cards = [(zone.label, card) for zone in deck.zones for card in zone.cards]
    heading = f"{deck.labels.get('placeholders', '')} ({deck.placeholder_total})"
    cards = [*cards, *((heading, card) for card in deck.placeholders)][:MAX_PICTURE_TILES]
    rows: list[tuple[str, list[PrintedCard]]] = []
    for label, card in cards:
        if not rows or rows[-1][0] != label or len(rows[-1][1]) == PICTURE_COLUMNS:
            rows.append((label, []))
        rows[-1][1].append(card)
    gap, header = 8, 70
    zone_heads = sum(1 for index, row in enumerate(rows) if index == 0 or rows[index - 1][0] != row[0])
    width = gap + PICTURE_COLUMNS * (TILE[0] + gap)
    height = header + zone_heads * 32 + len(rows) * (TILE[1] + gap) + gap
    image = Image.new("RGB", (width, height), "#f4f5f7")
    draw = ImageDraw.Draw(image)
    # Without a CJK font only what Latin letters can draw: the name if it is ASCII, else nothing but the count.
    title = f"{deck.name} · {deck.game}" if draws_cjk else deck.name if deck.name.isascii() else ""
    if title:
        draw.text((gap + 4, 14), _fit(draw, title, heading_font, width - 24, 1)[0], fill="#111", font=heading_font)
    subtitle = f"{deck.total} · {deck.verdict}" if draws_cjk else str(deck.total)
    if deck.placeholders and not draws_cjk:
        subtitle += f" + {deck.placeholder_total}"
    draw.text((gap + 4, 46), subtitle, fill="#445", font=small)
    y = header
    for index, (label, row) in enumerate(rows):
        if index == 0 or rows[index - 1][0] != label:
            if draws_cjk or label.isascii():
                draw.text((gap + 4, y + 4), label, fill="#223", font=font)
            y += 32
        for column, card in enumerate(row):
            word = deck.labels.get("placeholder", "")
            image.paste(_tile(card, font, small, draws_cjk, word), (gap + column * (TILE[0] + gap), y))
        y += TILE[1] + gap
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


# --- the PDFs ---------------------------------------------------------------------------------------------

_CID_FONTS = {"zh-hant": "MSung-Light"}
_DEFAULT_CID_FONT = "HeiseiKakuGo-W5"


def _pdf_font(language: str) -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    name = _CID_FONTS.get(language, _DEFAULT_CID_FONT)
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(name))
    return name


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` as lines of ``width`` points, broken by the rules of Japanese and Chinese (``cardsite.linebreak``):
    no line starts with 」、。！ and the like, none ends with 「（."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return wrap(text, lambda line: stringWidth(line, font, size), width)


def registration_sheet(deck: PrintedDeck) -> bytes:
    """An A4 registration sheet: the deck, blanks for the player and the event, every zone's cards, the verdict."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    font = _pdf_font(deck.language)
    labels = deck.labels
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4, pageCompression=1)
    page.setTitle(f"{labels.get('sheet', '')}: {deck.name}")
    width, height = A4
    left, right, bottom = 18 * mm, width - 18 * mm, 18 * mm
    y = height - 20 * mm

    def line(text: str, size: float = 10, indent: float = 0, gap: float = 1.45) -> None:
        nonlocal y
        for part in _wrap(text, font, size, right - left - indent):
            if y < bottom:
                page.showPage()
                y = height - 20 * mm
            page.setFont(font, size)
            page.drawString(left + indent, y, part)
            y -= size * gap

    line(labels.get("sheet", ""), 16, gap=1.8)
    line(f"{labels.get('deck', '')}: {deck.name}", 12)
    line(f"{labels.get('game', '')}: {deck.game} · {deck.mode}", 10)
    line(f"{labels.get('player', '')}: ______________________________", 11, gap=1.9)
    line(f"{labels.get('event', '')}: ______________________________   {labels.get('date', '')}: ____________", 11)
    if deck.placeholders:  # a tournament takes no placeholder: said first, plainly
        line(deck.labels.get("not_registrable", ""), 11, gap=1.6)
    y -= 4 * mm
    for zone in deck.zones:
        line(f"{zone.label} ({zone.total})", 12, gap=1.6)
        for card in zone.cards:
            if y < bottom:
                page.showPage()
                y = height - 20 * mm
            page.setFont(font, 10)
            page.drawRightString(left + 10 * mm, y, str(card.count))
            page.drawString(left + 14 * mm, y, card.number)
            name_lines = _wrap(card.name, font, 10, right - left - 60 * mm)
            page.drawString(left + 60 * mm, y, name_lines[0] if name_lines else "")
            y -= 14
        y -= 2 * mm
    if deck.placeholders:
        line(f"{labels.get('placeholders', '')} ({deck.placeholder_total})", 12, gap=1.6)
        for card in deck.placeholders:
            line(f"{card.count} × {card.name}", 10, indent=4 * mm, gap=1.4)
        y -= 2 * mm
    line(f"{labels.get('total', '')}: {deck.total}", 11, gap=1.6)
    line(deck.verdict, 11)
    for problem in deck.problems:
        line(f"・{problem}", 9, indent=4 * mm)
    page.showPage()
    page.save()
    return out.getvalue()


def proxy_sheet(deck: PrintedDeck) -> bytes:
    """Proxies to print and cut: one 63 × 88 mm card per copy, nine to an A4 page, with cut marks."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.units import mm
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    printed = [*(card for zone in deck.zones for card in zone.cards), *deck.placeholders]
    copies = [card for card in printed for _copy in range(card.count)]
    if len(copies) > MAX_PROXIES:
        raise TooManyProxies(len(copies))
    font = _pdf_font(deck.language)
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4, pageCompression=1)
    page.setTitle(f"{deck.labels.get('proxies', '')}: {deck.name}")
    card_w, card_h = 63 * mm, 88 * mm
    width, height = A4
    x0, y0 = (width - 3 * card_w) / 2, (height - 3 * card_h) / 2
    pictures: dict[str, ImageReader | None] = {}
    for index, card in enumerate(copies):
        slot = index % 9
        if index and slot == 0:
            page.showPage()
        x = x0 + (slot % 3) * card_w
        y = y0 + (2 - slot // 3) * card_h
        if card.placeholder:  # a plain frame: the word "placeholder", its name and stated values
            page.setLineWidth(0.3)
            page.setStrokeGray(0.6)
            page.setDash(3, 2)
            page.rect(x, y, card_w, card_h)
            page.setDash()
            text_y = y + card_h - 7 * mm
            page.setFont(font, 8)
            page.drawString(x + 4 * mm, text_y, deck.labels.get("placeholder", ""))
            text_y -= 14
            page.setFont(font, 10)
            for part in _wrap(card.name, font, 10, card_w - 8 * mm)[:4]:
                page.drawString(x + 4 * mm, text_y, part)
                text_y -= 12
            page.setFont(font, 8)
            for label, value in card.values:
                page.drawString(x + 4 * mm, text_y, f"{label}: {value}")
                text_y -= 10
            continue
        if card.key not in pictures:
            data = card.picture() if card.picture is not None else None
            try:
                pictures[card.key] = ImageReader(io.BytesIO(data)) if data else None
            except (OSError, ValueError):
                pictures[card.key] = None
        picture = pictures[card.key]
        page.setLineWidth(0.3)
        page.setStrokeGray(0.6)
        page.rect(x, y, card_w, card_h)
        if picture is not None:
            page.drawImage(picture, x + 1, y + 1, card_w - 2, card_h - 2, preserveAspectRatio=True, anchor="c")
            continue
        text_y = y + card_h - 7 * mm
        page.setFont(font, 10)
        for part in _wrap(card.name, font, 10, card_w - 8 * mm)[:2]:
            page.drawString(x + 4 * mm, text_y, part)
            text_y -= 12
        page.setFont(font, 7)
        if card.number:
            page.drawString(x + 4 * mm, text_y, card.number)
            text_y -= 12
        for label, value in card.values:
            for part in _wrap(f"{label}: {value}", font, 7, card_w - 8 * mm)[:1]:
                page.drawString(x + 4 * mm, text_y, part)
                text_y -= 9
        text_y -= 3
        for part in _wrap(card.text, font, 7, card_w - 8 * mm):
            if text_y < y + 9 * mm:
                break
            page.drawString(x + 4 * mm, text_y, part)
            text_y -= 9
        page.setFont(font, 6)
        page.drawString(x + 4 * mm, y + 4 * mm, deck.labels.get("proxy", ""))
    page.showPage()
    page.save()
    return out.getvalue()
