"""What the deck-rule tests (tests/test_deck_rules_*.py) share: decks built from synthetic card
facts (no database), the verdict read back, and the messages the rules write, whole, in ja, zh-hant
and en.
"""

from __future__ import annotations

from decks.rules import get_rules
from decks.rules.base import CardInfo, DeckSpec, Entry, Finding, Verdict, validate

LANGUAGES = ("ja", "zh-hant", "en")


def card(key: str, kind: str | None, name: str | None = None, **fields) -> CardInfo:
    return CardInfo(key=key, name=name or key, kind=kind, fields=fields)


def spec(game: str, zones: dict[str, list[tuple[CardInfo, int]]], mode: str = "default", **options) -> DeckSpec:
    return DeckSpec(
        game=game,
        zones={zone: tuple(Entry(info, count) for info, count in entries) for zone, entries in zones.items()},
        mode=mode,
        options=options,
    )


def check(deck: DeckSpec) -> Verdict:
    verdict = validate(get_rules(deck.game), deck)
    for finding in verdict.findings:
        assert set(finding.texts) == set(LANGUAGES), finding
        assert all(finding.texts.values()), finding
    return verdict


def summary(verdict: Verdict) -> list[tuple[str, str]]:
    return [(finding.rule, finding.kind) for finding in verdict.findings]


def assert_legal(deck: DeckSpec) -> None:
    verdict = check(deck)
    assert verdict.checked
    assert verdict.findings == (), [finding.texts["en"] for finding in verdict.findings]
    assert verdict.legal


def only(deck: DeckSpec, rule: str, kind: str = "violation") -> Finding:
    """The deck's one finding, which must be of ``rule`` and ``kind``."""
    verdict = check(deck)
    assert summary(verdict) == [(rule, kind)], [finding.texts["en"] for finding in verdict.findings]
    assert not verdict.legal
    return verdict.findings[0]


def texts(ja: str, zh: str, en: str) -> dict[str, str]:
    return {"ja": ja, "zh-hant": zh, "en": en}


def n_cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


class Statements(dict[str, tuple[str, str, str]]):
    """A game's rule statements as the sources give them (ja, zh-hant, en), for the messages that quote them."""

    def listed(self, rule: str, *names: str) -> dict[str, str]:
        """The violation that states ``rule`` and names the cards that break it."""
        ja, zh, en = self[rule]
        return texts(f"{ja}：{'、'.join(names)}", f"{zh}：{'、'.join(names)}", f"{en}: {', '.join(names)}")

    def unknown(self, rule: str, field: tuple[str, str, str], *names: str) -> dict[str, str]:
        """The unchecked finding of ``rule``: ``field`` is unknown for the named cards."""
        ja, zh, en = self[rule]
        return texts(
            f"{ja}：次のカードの{field[0]}が不明なため確認できません：{'、'.join(names)}",
            f"{zh}：以下卡片的{field[1]}不明，無法檢查：{'、'.join(names)}",
            f"{en}: could not be checked, {field[2]} unknown for: {', '.join(names)}",
        )

    def assert_the_rules_own(self, game: str, options: dict | None = None) -> None:
        """Every statement quoted is the text of the rule of that id, in the game's first mode."""
        rules_of = get_rules(game)
        rules = {rule.id: rule for rule in rules_of.rules(rules_of.modes[0].slug, options or {})}
        for rule_id, statement in self.items():
            assert rule_id.startswith(f"{game}."), rule_id
            assert (
                rules[rule_id].texts["ja"],
                rules[rule_id].texts["zh-hant"],
                rules[rule_id].texts["en"],
            ) == statement


def copies(name: str, count: int, limit: int) -> dict[str, str]:
    return texts(
        f"{name}：{count}枚（{limit}枚まで）",
        f"{name}：{count}張（上限{limit}張）",
        f"{name}: {count} copies (at most {limit})",
    )


KIND = ("種類", "種類", "kind")


def in_fours(make, total: int, start: int = 1) -> list[tuple[CardInfo, int]]:
    """``total`` cards as 4 copies of each kind (the last kind takes the rest)."""
    entries = []
    number = start
    while total > 0:
        entries.append((make(number), min(4, total)))
        total -= 4
        number += 1
    return entries
