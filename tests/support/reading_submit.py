"""Synthetic photos of a card list, and the batch a reading makes of them."""

from __future__ import annotations

import dataclasses
import io

from PIL import Image

from cards.images.services import image_store
from cards.models import Card
from cards.reading.result import Box, Line, Proposal, Reading, Word
from readings.models import PhotoReading, ReadingBatch


def picture(shade: int) -> io.BytesIO:
    image = Image.new("RGB", (300, 420), (240, 230, 200))
    image.paste((20, 20, 20), (10 + shade, 10 + shade, 60 + 2 * shade, 40 + 2 * shade))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    buffer.seek(0)
    buffer.name = f"photo{shade}.png"
    return buffer


def line(text: str, top: int, confidence: float) -> Line:
    box = Box(20, top, 12 * len(text) + 10, 30)
    word = Word(text, box, box, confidence)
    return Line(text, (word,), ((0, len(text)),), box, box, confidence)


def proposal(field: str, value, index: int, lines: list[Line], *, confidence: float = 0.95) -> Proposal:
    box = lines[index].box
    return Proposal(field, value, str(value), (index,), box, box, confidence, confidence < 0.8)


def read_photo(batch: ReadingBatch, index: int, name: str, number: str, at: int, *, card: Card | None = None):
    """A photo of ``batch`` stored as read: its name, number and ＡＴ proposed (the ＡＴ with low confidence)."""
    lines = [line(name, 20, 0.93), line(number, 70, 0.97), line(f"ＡＴ：＋{at}", 120, 0.55)]
    reading = Reading(tuple(lines), "jpn", (300, 420), (300, 420), None, 1.0)
    proposals = [
        proposal("name", name, 0, lines, confidence=0.93),
        proposal("number", number, 1, lines, confidence=0.97),
        proposal("at", at, 2, lines, confidence=0.55),
    ]
    return PhotoReading.objects.create(
        batch=batch,
        index=index,
        image=image_store(uploader=batch.user, stream=picture(index), field="photo"),
        status=PhotoReading.Status.DONE,
        progress=100,
        reading=reading.to_json(),
        proposals=[item.to_json() for item in proposals],
        card=card,
        card_key=card.key if card else "",
        matched_by="number" if card else "",
    )


def read_corrected_photo(batch: ReadingBatch, index: int, *, card: Card | None = None):
    """A photo of ``batch`` stored as read with symbols restored as the game prints them (``cards.reading.symbols``):
    its ＡＴ read as 十2 (taken as ＋2), its text's label read as 澤闘]1 (taken as [戦闘]) and its closing 。 read
    as a 0 on a line of its own (joined to the line before). A synthetic card: テスト符号, EB9-952."""
    lines = [
        line("テスト符号", 20, 0.93),
        line("EB9-952", 70, 0.97),
        dataclasses.replace(line("ＡＴ：＋2", 120, 0.95), corrections=(("十", "＋"),)),
        dataclasses.replace(line("[戦闘]テスト効果", 170, 0.95), corrections=(("澤闘]1", "[戦闘]"),)),
        dataclasses.replace(line("テスト終わり。", 220, 0.95), corrections=(("0", "。"),)),
    ]
    reading = Reading(tuple(lines), "jpn", (300, 420), (300, 420), None, 1.0)
    at = dataclasses.replace(proposal("at", 2, 2, lines), read="＋2", low_confidence=True, corrections=(("十", "＋"),))
    at = dataclasses.replace(at, notes=("characters_corrected", "symbols_restored"))
    proposals = [proposal("name", "テスト符号", 0, lines), proposal("number", "EB9-952", 1, lines), at]
    return PhotoReading.objects.create(
        batch=batch,
        index=index,
        image=image_store(uploader=batch.user, stream=picture(index), field="photo"),
        status=PhotoReading.Status.DONE,
        progress=100,
        reading=reading.to_json(),
        proposals=[item.to_json() for item in proposals],
        card=card,
        card_key=card.key if card else "",
        matched_by="number" if card else "",
    )
