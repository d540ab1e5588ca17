"""The review pages show, beside each value, the symbols and punctuation the reader restored as the game prints them
(``Line.corrections``, ``Proposal.corrections``): what was read, what it was taken as and why, in the reader's
language, on the page of one photo and on the page of the whole batch. Photos are stored as done readings of
synthetic cards (no Tesseract)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from cards.models import Card

from .support.reading_submit import read_corrected_photo

pytestmark = pytest.mark.django_db

SAID = {
    "en": {
        "sign": "Read “十”, taken as “＋” (the game prints full-width signs).",
        "label": "Read “澤闘]1”, taken as “[戦闘]” (a label the game prints in brackets).",
        "stop": "Read “0” on a line of its own, taken as “。” at the end of the line before (a full stop).",
    },
    "ja": {
        "sign": "「十」と読み取り、「＋」としました（このゲームは全角の記号で印刷しています）。",
        "label": "「澤闘]1」と読み取り、「[戦闘]」としました（このゲームが括弧で囲んで印刷するラベル）。",
        "stop": "１行だけの「0」を読み取り、前の行の末尾の「。」としました（句点）。",
    },
    "zh-hant": {
        "sign": "讀作「十」，已改為「＋」（本遊戲印的是全形符號）。",
        "label": "讀作「澤闘]1」，已改為「[戦闘]」（本遊戲以括號印出的標籤）。",
        "stop": "單獨一行讀作「0」，已改為上一行末尾的「。」（句號）。",
    },
}


def page_of(user, path: str, language: str) -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    answer = client.get(path)
    assert answer.status_code == 200
    return answer.content.decode()


def corrections_in_row(page: str, field: str) -> list[str]:
    """The corrections listed in the value row of ``field`` (the first such row of the page)."""
    start = re.search(rf'<div class="field reading-value[^"]*" data-field="{field}">', page)
    assert start is not None, f"no row of {field}"
    end = page.find('<div class="field', start.end())
    row = page[start.end() : end if end >= 0 else None]
    listed = re.search(r'<ul class="reading-corrections">(.*?)</ul>', row, re.S)
    return re.findall(r"<li>(.*?)</li>", listed.group(1), re.S) if listed else []


@pytest.mark.parametrize("language", ["en", "ja", "zh-hant"])
def test_the_review_page_of_a_new_card_says_what_was_restored_at_each_value(batch, reader, language):
    read_corrected_photo(batch, 4)
    page = page_of(reader, f"/readings/photos/{batch.pk}/4/", language)
    said = SAID[language]
    assert corrections_in_row(page, "field_at") == [said["sign"]]
    assert corrections_in_row(page, "text") == [said["label"], said["stop"]]
    assert corrections_in_row(page, "name") == []  # read as printed: nothing said


def test_the_batch_page_says_what_was_restored_for_a_new_card_and_a_matched_one(batch, reader):
    read_corrected_photo(batch, 4)
    read_corrected_photo(batch, 5, card=Card.objects.get(game=batch.game, key="EB9-001"))
    page = page_of(reader, f"/readings/photos/{batch.pk}/review/", "ja")
    new_card = page[page.index('id="photo-4"') : page.index('id="photo-5"')]
    matched = page[page.index('id="photo-5"') :]
    assert corrections_in_row(new_card, "field_at") == [SAID["ja"]["sign"]]
    assert corrections_in_row(new_card, "text") == [SAID["ja"]["label"], SAID["ja"]["stop"]]
    # The matched card shows only the values read otherwise than stored: its ＡＴ, with what was restored.
    assert corrections_in_row(matched, "field_at") == [SAID["ja"]["sign"]]
