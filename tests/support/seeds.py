"""The seed files as the site's author gave them (../shared/seeds), read without the code under test."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

REPO = Path(settings.BASE_DIR)


DATA_DIR = REPO / "cards" / "data"


SHARED_DIR = REPO.parent / "shared"


SEED_DIR = SHARED_DIR / "seeds"


ENDBREAKER_SEED = SEED_DIR / "000_8dbcc20ecf6eb4d6.txt"


EPICBATTLES_SEED = SEED_DIR / "003_aaff6d94a029a180.txt"


# Item 5 of the seed's 遊戲準備, which the seed wraps over two lines.
SETUP_ITEM_5 = (
    "5. 所有玩家獲得以下卡片：城塞騎士、狩獵者、星靈術士各２張；旅人的酒場４張，"
    "洗牌後成為牌庫。並將棘７張放置在自己面前。"
)


def read_seed(path: Path) -> list[str]:
    if not path.exists():
        pytest.skip(f"{path} is not there (CI has the seeds and games.md at ../shared)")
    return path.read_text(encoding="utf-8").splitlines()


@dataclass
class SeedCard:
    number: str
    name: str
    ja: list[str] = field(default_factory=list)  # the Japanese lines as printed (hard wraps included)
    zh: list[str] = field(default_factory=list)  # the Chinese lines as printed
    notes: list[str] = field(default_factory=list)  # （註…） lines


_HEADER = re.compile(r"(EB\d+-\d{3}) (.+)")


_HIRAGANA = re.compile(r"[\u3041-\u309f]")


_WORD = re.compile(r"\w")


def endbreaker_seed_cards() -> dict[str, SeedCard]:
    """The seed's card table: for each card, its Japanese lines, then its Chinese lines.

    The Japanese text comes first and is the run of lines that contain hiragana (a wrapped
    tail such as a lone "。" has no letters at all and belongs to the line before it);
    the Chinese text follows; translator's notes start with （註.
    """
    lines = read_seed(ENDBREAKER_SEED)
    start = next(i for i, line in enumerate(lines) if line.startswith("[卡表]"))
    end = lines.index("--", start)
    cards: dict[str, SeedCard] = {}
    current: SeedCard | None = None
    for line in lines[start + 1 : end]:
        header = _HEADER.fullmatch(line)
        if header:
            current = SeedCard(header.group(1), header.group(2))
            cards[current.number] = current
            continue
        if current is None or not line.strip():
            continue
        if not current.zh and not current.notes and (_HIRAGANA.search(line) or not _WORD.search(line)):
            current.ja.append(line)
        elif line.startswith("（註"):
            current.notes.append(line)
        else:
            current.zh.append(line)
    return cards


def assert_same_as_seed_lines(stored: str | None, seed_lines: list[str], what: str) -> None:
    """``stored`` is the seed lines with hard wraps joined: nothing lost, added or altered.

    Each stored line is a run of whole seed lines (no seed line is cut in two), and every
    printed clause of the seed ([日常], [戦闘], …) begins a stored line of its own.
    """
    stored = stored or ""
    assert stored.replace("\n", "") == "".join(seed_lines), what
    starts: set[int] = set()
    index = 0
    for piece in stored.split("\n"):
        starts.add(index)
        run = ""
        while len(run) < len(piece) and index < len(seed_lines):
            run += seed_lines[index]
            index += 1
        assert run == piece, f"{what}: stored line {piece!r} is not made of whole seed lines"
    for position, line in enumerate(seed_lines):
        if line.startswith("["):
            assert position in starts, f"{what}: the printed clause {line!r} was joined to the line before"
