"""Reading a deck's printouts back: the text of a PDF, and what the deck picture writes."""

from __future__ import annotations

import io

from pypdf import PdfReader


def pdf_text(content: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def drawn_texts(monkeypatch) -> list[str]:
    """What the deck picture writes, as it writes it (the PNG's pixels cannot be read back as text)."""
    from PIL import ImageDraw

    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self, xy, content, *arguments, **keywords):
        texts.append(content)
        return original(self, xy, content, *arguments, **keywords)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return texts
