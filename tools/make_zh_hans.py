"""Writes the Simplified Chinese catalogue (locale/zh_Hans) from the Traditional one, with OpenCC.

    .venv/bin/python tools/make_zh_hans.py        # then: manage.py compilemessages -l zh_Hans

The Traditional catalogue (locale/zh_Hant) is the one translators edit; this one is made from it, entry by
entry, with OpenCC's ``tw2sp`` (Taiwan phrases to the mainland's: 滑鼠 → 鼠标, 預設 → 默认). A few words
the conversion gets wrong for this site are put right in ``REVIEWED`` (checked by a reader, applied after the
conversion). Run it again after adding entries to the Traditional catalogue: tests/test_translations.py
fails while the two catalogues differ in their messages.
"""

from __future__ import annotations

import sys
from pathlib import Path

import opencc
import polib

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "locale" / "zh_Hant" / "LC_MESSAGES" / "django.po"
TARGET = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"

# Converted text -> the reviewed form. tw2sp turns phrases into the mainland's; where a card-game word or
# the site's own term reads wrong after it, the reviewed form wins.
REVIEWED: dict[str, str] = {
    # 注销 (tw2sp's 登出) also means closing an account: "log out" reads 退出登录 on the mainland.
    "注销": "退出登录",
    # 权杖 (a sceptre) for an API token: 令牌 on the mainland.
    "权杖": "令牌",
    # 帐号: the mainland's standard form is 账号.
    "帐号": "账号",
    # 检举 reads Taiwanese: 举报 for reporting a comment.
    "检举": "举报",
    # 预设 for a default setting: 默认.
    "预设": "默认",
    # The search syntax shows a Simplified word finding its Traditional form: the found word stays Traditional.
    "会找到 职业": "会找到 職業",
    "转为繁体字：找到 职业": "转为繁体字：找到 職業",
}

_CONVERT = opencc.OpenCC("tw2sp")


def simplified(text: str) -> str:
    """``text`` (Traditional, Taiwan usage) in Simplified Chinese, mainland usage, with the reviewed words."""
    converted = _CONVERT.convert(text)
    for wrong, right in REVIEWED.items():
        converted = converted.replace(wrong, right)
    return converted


def build() -> polib.POFile:
    source = polib.pofile(str(SOURCE), wrapwidth=0)
    target = polib.POFile(wrapwidth=0)
    target.header = source.header.replace("Traditional", "Simplified") + (
        "\nMade by tools/make_zh_hans.py from locale/zh_Hant: edit that one, then run the tool again."
    )
    target.metadata = dict(source.metadata)
    target.metadata["Language"] = "zh_Hans"
    target.metadata["Language-Team"] = "Chinese (Simplified)"
    for entry in source:
        if entry.obsolete:
            continue
        copy = polib.POEntry(
            msgid=entry.msgid,
            msgctxt=entry.msgctxt,
            msgid_plural=entry.msgid_plural,
            msgstr=simplified(entry.msgstr) if entry.msgstr else "",
            msgstr_plural={index: simplified(form) for index, form in entry.msgstr_plural.items()},
            flags=[flag for flag in entry.flags if flag != "fuzzy"],
            occurrences=entry.occurrences,
        )
        target.append(copy)
    return target


def main() -> int:
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    catalogue = build()
    catalogue.save(str(TARGET))
    print(f"wrote {TARGET.relative_to(ROOT)}: {len(catalogue)} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
