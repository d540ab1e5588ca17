"""Generate cards/data/endbreaker.json from seed 000 (エンドブレイカー！SCG).

Usage (from the repository root):

    python3 tools/gen_endbreaker.py [SEED] [OUT]

SEED defaults to ../shared/seeds/000_8dbcc20ecf6eb4d6.txt, OUT to
cards/data/endbreaker.json. The output was checked line by line against the
seed; re-running the script reproduces it.

Line wraps: the seed hard-wraps long lines at about 78 display columns. A line
is joined to the next one (no space) when it is long (>= 70 columns), does not
end a sentence with 。, and the next line is neither blank nor the start of a new
clause ([…], <…>), a list item (1. / (1)) or a translator's note （註…）. A long line that ends with 。 is
kept as a separate line (see JOIN_OVERRIDES to change a single decision).
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SEED = ROOT.parent / "shared" / "seeds" / "000_8dbcc20ecf6eb4d6.txt"
DEFAULT_OUT = ROOT / "cards" / "data" / "endbreaker.json"
GAMES_MD = ROOT.parent / "shared" / "games.md"
# The facts of games.md kept as rules (checked against the file when it is there).
GAMES_MD_FACTS = GAMES_MD.read_text(encoding="utf-8") if GAMES_MD.exists() else ""

SEED = "seed 000"
CARD_TABLE = "seed 000 (card table)"

# 1-based seed line number -> True (join with the next line) / False (keep apart),
# overriding the width heuristic.
JOIN_OVERRIDES: dict[int, bool] = {
    63: True,  # "…則打出AT值最高的玩家可獲" / "得6000金幣、…" (69 columns, wrapped mid-word)
}


def width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def is_wrapped(lines: list[str], index: int) -> bool:
    """Whether seed line ``index`` (0-based) was hard-wrapped into the next line."""
    if index + 1 in JOIN_OVERRIDES:
        return JOIN_OVERRIDES[index + 1]
    line = lines[index]
    nxt = lines[index + 1] if index + 1 < len(lines) else ""
    if not line.strip() or not nxt.strip():
        return False
    if nxt.startswith(("[", "<", "（註")) or re.match(r"EB\d-\d{3} |\d+\. |\(\d+\) ", nxt):
        return False
    return width(line) >= 70 and not line.endswith("。")


def logical_lines(lines: list[str], start: int, end: int) -> list[tuple[int, str]]:
    """Seed lines start..end (1-based, inclusive) with wraps joined: (first line number, text)."""
    out: list[tuple[int, str]] = []
    joining = False
    for index in range(start - 1, end):
        line = lines[index]
        if joining:
            out[-1] = (out[-1][0], out[-1][1] + line)
        else:
            out.append((index + 1, line))
        joining = is_wrapped(lines, index) and index + 1 < end
    return [(n, text) for n, text in out if text.strip()]


HIRAGANA = re.compile(r"[\u3041-\u309f]")


def parse_cards(lines: list[str]) -> dict[str, dict]:
    start = next(i for i, line in enumerate(lines) if line.startswith("[卡表]")) + 2
    end = next(i for i, line in enumerate(lines) if line.strip() == "--") + 1
    entries: dict[str, dict] = {}
    current = None
    for number, text in logical_lines(lines, start, end - 1):
        head = re.fullmatch(r"(EB\d-\d{3}) (.+)", text)
        if head:
            current = {"number": head.group(1), "name": head.group(2), "ja": [], "zh": [], "notes": []}
            entries[current["number"]] = current
            continue
        assert current is not None, number
        if text.startswith("（註"):
            current["notes"].append(text)
        elif HIRAGANA.search(text):
            assert not current["zh"] and not current["notes"], f"Japanese after Chinese at seed line {number}"
            current["ja"].append(text)
        else:
            assert not current["notes"], f"text after note at seed line {number}"
            current["zh"].append(text)
    return entries


def find_line(lines: list[str], text: str) -> int:
    """1-based number of the seed line that is exactly ``text``."""
    return lines.index(text) + 1


def body(lines: list[str], start: int, end: int) -> str:
    return "\n".join(text for _, text in logical_lines(lines, start, end))


# The same facts in the site's other languages (the site's own sentences, translated), by order.
FACT_TRANSLATIONS = {
    200: {
        "ja": (
            "発行元と内容",
            "グループSNE発行、トミーウォーカー・ブロッコリー協力。2～4人用のデッキ構築型カードゲーム。"
            "カードは65種類、全396枚（groupsne.co.jp の製品ページ）。",
        ),
        "zh-hant": (
            "發行與內容",
            "由 Group SNE 發行，與 Tommy Walker 及 Broccoli 合作；2～4 人的牌庫構築卡牌遊戲；"
            "共 65 種卡片，總計 396 張（groupsne.co.jp 產品頁）。",
        ),
    },
    210: {
        "ja": (
            "カード表",
            "資料のカード表に載っているのは、特殊な文のあるカードだけです（EB1-001、EB1-008～EB1-028、"
            "EB1-039～EB1-059）。ほかの種類（ジョブ EB1-002～EB1-007、シナリオ、"
            "1000ダルクのコインカード）はルールに名前が出てきますが、番号と値は示されていません。",
        ),
        "zh-hant": (
            "卡表",
            "資料的卡表只列出有特殊文字的卡片（EB1-001、EB1-008～EB1-028、EB1-039～EB1-059）"
            "。其他種類（職業 EB1-002～EB1-007、劇本、1000ダルク 錢幣卡）在規則中有提到名稱，"
            "但沒有給出編號與數值。",
        ),
    },
    220: {
        "ja": (
            "サプライとソロバリアント",
            "1000ダルクの山はサプライの一部です（公式ソロルールのページ）。公式のソロバリアントがあります。",
        ),
        "zh-hant": ("供應區與單人變體", "1000ダルク 牌堆屬於供應區（官方單人規則頁）。有官方的單人變體規則。"),
    },
}


def rules(lines: list[str]) -> list[dict]:
    setup = find_line(lines, "遊戲準備：")
    flow = find_line(lines, "遊戲流程：")
    combat = find_line(lines, "[戰鬥階段]")
    hand = find_line(lines, "[手牌調整階段]")
    end = find_line(lines, "[遊戲結束]")
    table = next(i for i, line in enumerate(lines) if line.startswith("[卡表]")) + 1
    glossary = range(find_line(lines, "ジョブ：職業"), find_line(lines, "プレイ可能枚数：可打出的張數、行動") + 1)
    overview = [lines[i - 1] for i in range(2, setup) if i not in glossary and lines[i - 1].strip()]

    def section(key: str, order: int, title: str, text: str) -> dict:
        return {"key": key, "order": order, "texts": {"zh-hant": {"title": title, "body": text, "source": SEED}}}

    table_line = lines[table - 1]  # "[卡表] （註: 只列出有特殊能力的)"
    table_title, table_note = table_line.split(" ", 1)

    def fact(key: str, order: int, title: str, text: str, source: str) -> dict:
        assert not GAMES_MD_FACTS or text in GAMES_MD_FACTS, text
        texts = {"en": {"title": title, "body": text, "source": source}}
        for language, (translated_title, translated) in FACT_TRANSLATIONS.get(order, {}).items():
            texts[language] = {"title": translated_title, "body": translated, "source": source}
        return {"key": key, "order": order, "texts": texts}

    return [
        section("overview", 10, lines[0], "\n".join(overview)),
        section("setup", 20, "遊戲準備", body(lines, setup + 1, flow - 1)),
        section("turn", 30, "遊戲流程", body(lines, flow + 1, combat - 1)),
        section("combat", 40, "戰鬥階段", body(lines, combat + 1, hand - 1)),
        section("other", 50, "手牌調整階段", body(lines, hand + 1, end - 1)),
        section("win", 60, "遊戲結束", body(lines, end + 1, table - 1)),
        section("other", 70, table_title, table_note),
        # games.md, ## エンドブレイカー！SCG: the public facts beyond the seed, as written there.
        fact(
            "overview",
            200,
            "Publisher and contents",
            "Published by Group SNE with Tommy Walker and Broccoli; a deck-building card game for 2–4 players; "
            "65 card kinds, 396 cards in all (groupsne.co.jp product page).",
            "games.md (groupsne.co.jp product page)",
        ),
        fact(
            "other",
            210,
            "Card table",
            "The seed's card table lists only the cards that have special text (EB1-001, EB1-008 to EB1-028, "
            "EB1-039 to EB1-059). The other kinds (jobs EB1-002 to EB1-007, scenarios, the 1000ダルク coin card) "
            "are named in the rules but their numbers and values are not given.",
            "games.md",
        ),
        fact(
            "setup",
            220,
            "Supply and solo variant",
            "The 1000ダルク pile is part of the supply (official solo rules page). An official solo variant exists.",
            "games.md (broccoli.co.jp, official solo rules page)",
        ),
    ]


GLOSSARY_KEYS = {
    "ジョブ": "job",
    "アビリティ": "ability",
    "スキル": "skill",
    "シナリオ": "scenario",
    "マスカレイド": "masquerade",
    "マスク": "mask",
    "ソーン＆ダブルトリガー": "thorn",
    "ダルク": "darc",
    "ドロー": "draw",
    "プレイ可能枚数": "plays",
}


def terms(lines: list[str]) -> list[dict]:
    out = []
    source = "seed 000 (glossary)"
    for line in lines:
        ja, sep, zh = line.partition("：")
        if not sep or ja not in GLOSSARY_KEYS:
            continue
        zh_text = None
        if ja == "ソーン＆ダブルトリガー":  # 棘（&雙重驅動，…）: name and its explanation
            zh, zh_text = zh[: zh.index("（")], zh[zh.index("（") :]
        elif ja == "ダルク":  # 錢幣 (分數)
            zh, zh_text = zh.split(" ", 1)
        zh_entry = {"name": zh}
        if zh_text:
            zh_entry["text"] = zh_text
        zh_entry["source"] = source
        out.append(
            {
                "key": GLOSSARY_KEYS[ja],
                "category": "term",
                "texts": {"ja": {"name": ja, "source": source}, "zh-hant": zh_entry},
            }
        )
    assert len(out) == len(GLOSSARY_KEYS), [t["key"] for t in out]

    assert "技能有力量P、技術T、精神S、酒B、萬能五種。萬能可以代表前面任１種。" in lines
    zh_source = "seed 000 ([獲得卡片]: 技能有力量P、技術T、精神S、酒B、萬能五種。)"
    ja_source = "seed 000 (Japanese card text uses the symbol)"
    for symbol, key, zh in (
        ("P", "skill-P", "力量"),
        ("T", "skill-T", "技術"),
        ("S", "skill-S", "精神"),
        ("B", "skill-B", "酒"),
        ("●", "skill-any", "萬能"),
    ):
        zh_entry = {"name": zh}
        if symbol == "●":
            zh_entry["text"] = "萬能可以代表前面任１種。"
        zh_entry["source"] = zh_source
        out.append(
            {
                "key": key,
                "category": "symbol",
                "texts": {"ja": {"name": symbol, "source": ja_source}, "zh-hant": zh_entry},
            }
        )
    return out


def kind_of(number: str) -> str | None:
    n = int(number.split("-")[1])
    if 8 <= n <= 28:
        return "ability"
    if 39 <= n <= 58:
        return "masquerade"
    if n == 59:
        return "thorn"
    return None  # EB1-001 旅人の酒場: no source states its kind


# number -> where a source names the card's kind; every other kind is inferred from the number ranges.
KIND_SOURCES = {
    **dict.fromkeys(
        ("EB1-008", "EB1-010", "EB1-011"),
        "kind: seed 000 (worked example in [獲得卡片]: 獲得特技練刺棍(PPT)兩張、或者劍衝擊(PPPT)+居合斬(PT))",
    ),
    "EB1-040": "kind: seed 000 ([戰鬥階段] 5: 例如フェルプール這張假面卡)",
    "EB1-056": "kind: seed 000 (card text 「このマスカレイドとの戦闘は」)",
    "EB1-059": "kind: seed 000 (glossary: ソーン＆ダブルトリガー)",
}
# The ranges the seed's card table and games.md show: abilities after the jobs, then the masquerades.
KIND_RANGES = {"ability": "EB1-008 to EB1-028", "masquerade": "EB1-039 to EB1-058"}


def kind_source(number: str) -> str:
    kind = kind_of(number)
    if number in KIND_SOURCES:
        return KIND_SOURCES[number]
    if kind in KIND_RANGES:
        return f"kind: inferred from numbering ({KIND_RANGES[kind]})"
    return ""


# number -> (fields, card-level source)
FIELDS = {
    "EB1-008": ({"cost": "PT"}, "cost: seed 000 worked example (居合斬(PT)); games.md"),
    "EB1-010": ({"cost": "PPT"}, "cost: seed 000 worked example (練刺棍(PPT)); games.md"),
    "EB1-011": ({"cost": "PPPT"}, "cost: seed 000 worked example (劍衝擊(PPPT)); games.md"),
    "EB1-040": ({"payout": "6-4-2-0"}, "payout: seed 000 ([戰鬥階段] 5, フェルプール example); games.md"),
    "EB1-053": ({"skill": "PTS"}, "skill: seed 000 (card text 「スキル：ＰＴＳ」); games.md"),
    "EB1-054": ({"skill": "●●"}, "skill: seed 000 (card text 「スキル：●●」); games.md"),
}

# number -> (zh-hant name, where the seed uses it)
ZH_NAMES = {
    "EB1-001": ("旅人的酒場", "name: seed 000 (遊戲準備 5)"),
    "EB1-008": ("居合斬", "name: seed 000 (worked example in [獲得卡片])"),
    "EB1-010": ("練刺棍", "name: seed 000 (worked example in [獲得卡片])"),
    "EB1-011": ("劍衝擊", "name: seed 000 (worked example in [獲得卡片])"),
}


def card(entry: dict) -> dict:
    number = entry["number"]
    out: dict = {"key": number, "number": number, "kind": kind_of(number)}
    sources = []
    if number in FIELDS:
        out["fields"], fields_source = FIELDS[number]
        sources.append(fields_source)
    if kind_source(number):
        sources.append(kind_source(number))
    if sources:
        out["source"] = ". ".join(sources)
    ja: dict = {"name": entry["name"]}
    if entry["ja"]:
        ja["text"] = "\n".join(entry["ja"])
    ja["source"] = CARD_TABLE
    texts = {"ja": ja}
    zh: dict = {}
    zh_source = CARD_TABLE
    if number in ZH_NAMES:
        zh["name"], where = ZH_NAMES[number]
        zh_source = f"{CARD_TABLE}; {where}"
    if entry["zh"]:
        zh["text"] = "\n".join(entry["zh"])
    if entry["notes"]:
        zh["notes"] = "\n".join(entry["notes"])
    if zh:
        zh["source"] = zh_source
        texts["zh-hant"] = zh
    out["texts"] = texts
    return out


# Cards the rules name without a number: (ja name (games.md), kind, fields, zh-hant name or None, zh source)
UNNUMBERED = [
    ("城塞騎士", "job", {"skill": "P"}, "城塞騎士", "seed 000 (遊戲準備 5; worked example)"),
    ("狩猟者", "job", {}, "狩獵者", "seed 000 (遊戲準備 5)"),
    ("星霊術士", "job", {}, "星靈術士", "seed 000 (遊戲準備 5)"),
    ("魔獣戦士", "job", {"skill": "PP"}, "魔獸戰士", "seed 000 (遊戲準備 1; worked example)"),
    ("スカイランナー", "job", {"skill": "TT"}, None, None),
    ("デモニスタ", "job", {}, None, None),
    ("1000ダルク", "darc", {}, "1000元", "seed 000 (card texts, e.g. EB1-009 「可獲得1000元2張」)"),
]


def unnumbered_card(ja_name: str, kind: str, fields: dict, zh_name: str | None, zh_source: str | None) -> dict:
    out: dict = {"key": ja_name, "number": None, "kind": kind}
    if kind == "job" and ja_name in ("魔獣戦士", "スカイランナー", "デモニスタ"):
        kind_source = "kind: seed 000 (遊戲準備 1: 職業卡); games.md (jobs EB1-002 to EB1-007)"
    elif kind == "job":
        kind_source = "kind: games.md (jobs EB1-002 to EB1-007; starting deck)"
    else:
        kind_source = "kind: games.md (the 1000ダルク coin card)"
    if fields:
        out["fields"] = fields
        out["source"] = f"{', '.join(fields)}: seed 000 worked example; games.md. {kind_source}"
    else:
        out["source"] = kind_source
    texts: dict = {"ja": {"name": ja_name, "source": "games.md"}}
    if zh_name:
        texts["zh-hant"] = {"name": zh_name, "source": zh_source}
    out["texts"] = texts
    return out


def main() -> None:
    seed = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SEED
    out_path = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_OUT
    lines = seed.read_text(encoding="utf-8").split("\n")
    entries = parse_cards(lines)
    expected = ["EB1-001"] + [f"EB1-{n:03d}" for n in (*range(8, 29), *range(39, 60))]
    assert sorted(entries) == expected, sorted(entries)
    cards = [card(entries[number]) for number in expected]
    cards += [unnumbered_card(*row) for row in UNNUMBERED]
    data = {
        "format": "cardsite-cards/1",
        "game": "endbreaker",
        "rules": rules(lines),
        "terms": terms(lines),
        "cards": cards,
    }
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out_path}: {len(cards)} cards, {len(data['terms'])} terms, {len(data['rules'])} rule sections")


if __name__ == "__main__":
    main()
