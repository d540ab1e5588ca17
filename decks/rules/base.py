"""Deck construction rules as data (plain Python, no Django).

A game's module (``decks.rules.<slug>``) declares its deck zones, its modes and
options, and a list of rule objects per mode. ``validate`` runs every rule and
returns every finding at once: a *violation* (the deck breaks the rule) or an
*unchecked* finding (the rule needs a value no source gives, and names the cards).
Each rule carries its own text in ja, zh-hant and en, with the numbers involved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardsite.labels import Labels, fill, pick


@dataclass(frozen=True)
class CardInfo:
    """What the rules may read of a card: its identity, kind and known field values."""

    key: str
    name: str
    kind: str | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)
    number: str | None = None
    names: tuple[str, ...] = ()  # the card's names in every language it has
    # A placeholder stands for cards not in the database yet: only its kind and stated values are known, so the
    # rules that read a card's own values (faction, copies of one card, …) pass it by, and the verdict counts it
    # apart ("legal apart from N placeholder cards").
    placeholder: bool = False

    def value(self, name: str) -> Any:
        """The field's value, or None when no source gives it."""
        return self.fields.get(name)


@dataclass(frozen=True)
class Entry:
    card: CardInfo
    count: int


@dataclass(frozen=True)
class DeckSpec:
    """A deck as the rules see it: entries per zone, the mode and the options chosen."""

    game: str
    zones: Mapping[str, tuple[Entry, ...]]
    mode: str = "default"
    options: Mapping[str, Any] = field(default_factory=dict)

    def entries(self, *zones: str) -> list[Entry]:
        return [entry for zone in zones for entry in self.zones.get(zone, ())]

    def size(self, *zones: str) -> int:
        return sum(entry.count for entry in self.entries(*zones))

    def copies(self, *zones: str) -> Counter[str]:
        counts: Counter[str] = Counter()
        for entry in self.entries(*zones):
            counts[entry.card.key] += entry.count
        return counts

    def cards(self, *zones: str) -> dict[str, CardInfo]:
        return {entry.card.key: entry.card for entry in self.entries(*zones)}


@dataclass(frozen=True)
class Finding:
    """One result of a rule: a violation, or a check that could not be made."""

    rule: str
    kind: str  # "violation" | "unchecked"
    texts: Labels  # the message in each language, numbers filled in
    cards: tuple[str, ...] = ()  # names of the cards concerned

    def message(self, language: str) -> str:
        return pick(self.texts, language)


KIND_LABELS = {"ja": "種類", "zh-hant": "種類", "en": "kind"}

UNCHECKED = {
    "ja": "{rule}：次のカードの{field}が不明なため確認できません：{cards}",
    "zh-hant": "{rule}：以下卡片的{field}不明，無法檢查：{cards}",
    "en": "{rule}: could not be checked, {field} unknown for: {cards}",
}


@dataclass(frozen=True)
class Rule:
    """A construction rule. ``texts`` is its statement; ``check`` lists what the deck breaks."""

    id: str
    texts: Labels

    def check(self, deck: DeckSpec) -> list[Finding]:
        raise NotImplementedError

    def statement(self, language: str) -> str:
        return pick(self.texts, language)

    def fields_read(self) -> tuple[str, ...]:
        """The card fields this rule reads (its ``field_name``, if it declares one): unknown, it cannot check."""
        name = getattr(self, "field_name", "")
        return (name,) if name else ()

    def violation(self, templates: Labels, cards: Iterable[str] = (), **values: Any) -> Finding:
        return Finding(self.id, "violation", fill(templates, **values), tuple(cards))

    def unchecked(self, field_labels: Labels, cards: list[CardInfo]) -> Finding:
        names = [card.name for card in cards]
        texts = {
            language: UNCHECKED[language].format(
                rule=pick(self.texts, language),
                field=pick(field_labels, language),
                cards=(", " if language == "en" else "、").join(names),  # as ``listing`` joins them
            )
            for language in UNCHECKED
        }
        return Finding(self.id, "unchecked", texts, tuple(card.name for card in cards))


COUNT_MESSAGE = {
    "ja": "{zone}：{count}枚（{expected}）",
    "zh-hant": "{zone}：{count}張（{expected}）",
    "en": "{zone}: {count} {cards} ({expected})",
}


def _range_text(minimum: int | None, maximum: int | None) -> dict[str, str]:
    if minimum == maximum and minimum is not None:
        return {"ja": f"ちょうど{minimum}枚", "zh-hant": f"須剛好{minimum}張", "en": f"exactly {minimum}"}
    if maximum is None:
        return {"ja": f"{minimum}枚以上", "zh-hant": f"至少{minimum}張", "en": f"at least {minimum}"}
    if minimum in (None, 0):
        return {"ja": f"{maximum}枚以下", "zh-hant": f"至多{maximum}張", "en": f"at most {maximum}"}
    return {"ja": f"{minimum}〜{maximum}枚", "zh-hant": f"{minimum}至{maximum}張", "en": f"{minimum} to {maximum}"}


@dataclass(frozen=True)
class ZoneSize(Rule):
    """The zones together hold between ``minimum`` and ``maximum`` cards (counting copies).

    ``kinds`` restricts the count to cards of those kinds; ``allowed_sizes`` instead
    lists the exact sizes allowed (e.g. a side deck of 0 or 6).
    """

    zones: tuple[str, ...] = ()
    zone_labels: Labels = field(default_factory=dict)
    minimum: int | None = None
    maximum: int | None = None
    kinds: tuple[str, ...] = ()
    allowed_sizes: tuple[int, ...] = ()

    def check(self, deck: DeckSpec) -> list[Finding]:
        entries = deck.entries(*self.zones)
        if self.kinds:
            entries = [entry for entry in entries if entry.card.kind in self.kinds]
        count = sum(entry.count for entry in entries)
        if self.allowed_sizes:
            ok = count in self.allowed_sizes
            expected = {
                "ja": "または".join(f"{size}枚" for size in self.allowed_sizes),
                "zh-hant": "或".join(f"{size}張" for size in self.allowed_sizes),
                "en": " or ".join(str(size) for size in self.allowed_sizes),
            }
        else:
            ok = (self.minimum is None or count >= self.minimum) and (self.maximum is None or count <= self.maximum)
            expected = _range_text(self.minimum, self.maximum)
        if ok:
            return []
        texts = {
            language: COUNT_MESSAGE[language].format(
                zone=pick(self.zone_labels, language),
                count=count,
                cards="card" if count == 1 else "cards",  # "Masquerades: 1 card (exactly 3)"
                expected=expected[language],
            )
            for language in COUNT_MESSAGE
        }
        return [Finding(self.id, "violation", texts)]


@dataclass(frozen=True)
class MaxCopies(Rule):
    """At most ``limit`` copies of any one card in the zones (``limit_option`` may override it)."""

    zones: tuple[str, ...] = ()
    limit: int = 4
    limit_option: str | None = None
    kinds: tuple[str, ...] = ()

    def limit_for(self, deck: DeckSpec) -> int:
        if self.limit_option and deck.options.get(self.limit_option) is not None:
            return int(deck.options[self.limit_option])
        return self.limit

    def check(self, deck: DeckSpec) -> list[Finding]:
        limit = self.limit_for(deck)
        cards = deck.cards(*self.zones)
        findings = []
        for key, count in sorted(deck.copies(*self.zones).items()):
            card = cards[key]
            if card.placeholder or (self.kinds and card.kind not in self.kinds):
                continue
            if count > limit:
                findings.append(
                    self.violation(
                        {
                            "ja": "{name}：{count}枚（{limit}枚まで）",
                            "zh-hant": "{name}：{count}張（上限{limit}張）",
                            "en": "{name}: {count} copies (at most {limit})",
                        },
                        cards=[card.name],
                        name=card.name,
                        count=count,
                        limit=limit,
                    )
                )
        return findings


def reads(card: CardInfo, kinds: tuple[str, ...]) -> bool:
    """Whether a rule restricted to ``kinds`` (empty: all) reads the card; a card of unknown kind may be one.

    A card of another kind in the zone is the zone's ``KindsOnly`` rule's business: a value
    such a card can never have (a character's land value) must not be reported as unknown.
    """
    if card.placeholder:
        return False  # its own values are not known: the verdict counts placeholders apart
    return not kinds or card.kind is None or card.kind in kinds


def listing(rule: Rule, cards: list[CardInfo]) -> Finding:
    """A violation that states the rule and names the cards that break it."""
    names = [card.name for card in cards]
    texts = {
        "ja": f"{pick(rule.texts, 'ja')}：{'、'.join(names)}",
        "zh-hant": f"{pick(rule.texts, 'zh-hant')}：{'、'.join(names)}",
        "en": f"{pick(rule.texts, 'en')}: {', '.join(names)}",
    }
    return Finding(rule.id, "violation", texts, tuple(names))


@dataclass(frozen=True)
class PerCard(Rule):
    """Every card in the zones passes ``test``; None from ``test`` means a value is unknown.

    ``needs`` names the field ``test`` reads (for the unchecked message), ``field_name`` is that
    field (for the map of what is missing); ``kinds``, if given, restricts the rule to cards of those kinds.
    """

    zones: tuple[str, ...] = ()
    test: Callable[[CardInfo, DeckSpec], bool | None] = lambda card, deck: True
    needs: Labels = field(default_factory=dict)
    kinds: tuple[str, ...] = ()
    field_name: str = ""

    def check(self, deck: DeckSpec) -> list[Finding]:
        failing, unknown = [], []
        for card in deck.cards(*self.zones).values():
            if not reads(card, self.kinds):
                continue
            verdict = self.test(card, deck)
            if verdict is None:
                unknown.append(card)
            elif not verdict:
                failing.append(card)
        findings = [listing(self, failing)] if failing else []
        if unknown:
            findings.append(self.unchecked(self.needs, unknown))
        return findings


@dataclass(frozen=True)
class AllDifferent(Rule):
    """No card appears twice in the zones."""

    zones: tuple[str, ...] = ()

    def check(self, deck: DeckSpec) -> list[Finding]:
        cards = deck.cards(*self.zones)
        doubled = [
            cards[key]
            for key, count in sorted(deck.copies(*self.zones).items())
            if count > 1 and not cards[key].placeholder  # a placeholder stands for several different cards
        ]
        return [listing(self, doubled)] if doubled else []


@dataclass(frozen=True)
class KindsOnly(Rule):
    """Every card in the zones is of one of ``kinds`` (a card of unknown kind cannot be checked)."""

    zones: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()

    def check(self, deck: DeckSpec) -> list[Finding]:
        cards = list(deck.cards(*self.zones).values())
        wrong = [card for card in cards if card.kind is not None and card.kind not in self.kinds]
        unknown = [card for card in cards if card.kind is None]
        findings = [listing(self, wrong)] if wrong else []
        if unknown:
            findings.append(self.unchecked(KIND_LABELS, unknown))
        return findings


@dataclass(frozen=True)
class AtLeastWhere(Rule):
    """At least ``minimum`` cards (copies counted) of the zones satisfy ``test`` (None: unknown).

    When the cards of unknown value could make up the shortfall, the rule is reported
    as unchecked rather than broken. ``kinds``, if given, restricts the count to cards of those kinds;
    ``field_name`` is the field ``test`` reads.
    """

    zones: tuple[str, ...] = ()
    minimum: int = 0
    test: Callable[[CardInfo], bool | None] = lambda card: True
    needs: Labels = field(default_factory=dict)
    kinds: tuple[str, ...] = ()
    field_name: str = ""

    def check(self, deck: DeckSpec) -> list[Finding]:
        passing = 0
        unknown: list[Entry] = []
        for entry in deck.entries(*self.zones):
            if not reads(entry.card, self.kinds):
                continue
            verdict = self.test(entry.card)
            if verdict is None:
                unknown.append(entry)
            elif verdict:
                passing += entry.count
        if passing >= self.minimum:
            return []
        if passing + sum(entry.count for entry in unknown) >= self.minimum:
            return [self.unchecked(self.needs, [entry.card for entry in unknown])]
        texts = {
            "ja": f"{pick(self.texts, 'ja')}：{passing}枚（{self.minimum}枚以上必要）",
            "zh-hant": f"{pick(self.texts, 'zh-hant')}：{passing}張（至少需{self.minimum}張）",
            "en": f"{pick(self.texts, 'en')}: {passing} ({self.minimum} or more needed)",
        }
        findings = [Finding(self.id, "violation", texts)]
        if unknown:
            findings.append(self.unchecked(self.needs, [entry.card for entry in unknown]))
        return findings


@dataclass(frozen=True)
class SumAtMost(Rule):
    """The sum of a field over the zones (copies counted) is at most ``maximum``.

    ``kinds``, if given, restricts the sum to cards of those kinds.
    """

    zones: tuple[str, ...] = ()
    field_name: str = ""
    field_labels: Labels = field(default_factory=dict)
    maximum: int = 0
    kinds: tuple[str, ...] = ()

    def check(self, deck: DeckSpec) -> list[Finding]:
        total = 0
        unknown = []
        for entry in deck.entries(*self.zones):
            if not reads(entry.card, self.kinds):
                continue
            value = entry.card.value(self.field_name)
            if value is None:
                unknown.append(entry.card)
            else:
                total += int(value) * entry.count
        findings = []
        if total > self.maximum:
            findings.append(
                Finding(
                    self.id,
                    "violation",
                    {
                        "ja": f"{pick(self.texts, 'ja')}：{total}（{self.maximum}以下）",
                        "zh-hant": f"{pick(self.texts, 'zh-hant')}：{total}（上限{self.maximum}）",
                        "en": f"{pick(self.texts, 'en')}: {total} (at most {self.maximum})",
                    },
                )
            )
        if unknown:
            findings.append(self.unchecked(self.field_labels, unknown))
        return findings


@dataclass(frozen=True)
class Zone:
    slug: str
    labels: Labels
    kinds: tuple[str, ...] = ()  # kinds a card must have to be added here (empty: any)
    fixed: bool = False  # shown, not edited (e.g. a game's fixed starting deck)
    adding: Labels = field(default_factory=dict)  # the builder's button adding a card here (empty: "Add to …")


@dataclass(frozen=True)
class Mode:
    slug: str
    labels: Labels
    win_conditions: Labels = field(default_factory=dict)
    checked: bool = True  # False: the mode needs no construction check
    # The languages in which ``win_conditions`` is the site's own translation, not a source's words (the page marks it).
    win_conditions_translated: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Option:
    slug: str
    labels: Labels
    default: Any
    choices: tuple[Any, ...] = ()
    help: Labels = field(default_factory=dict)


@dataclass(frozen=True)
class PlaceholderKind:
    """A kind of card a deck may hold as a placeholder, in ``zone``, with the values it may state (``fields``:
    the integer fields the game's rules and goldfish engine read on that kind)."""

    kind: str
    zone: str
    fields: tuple[str, ...]


@dataclass(frozen=True)
class FixedCard:
    """A card every deck of the game has, identified by its key (e.g. Endbreaker's starting deck)."""

    key: str
    count: int


@dataclass(frozen=True)
class DeckRules:
    """Everything a game declares about decks; registered under the game's slug."""

    game: str
    zones: tuple[Zone, ...]
    modes: tuple[Mode, ...]
    rules_for_mode: Callable[[str, Mapping[str, Any]], list[Rule]]
    options: tuple[Option, ...] = ()
    fixed_cards: Mapping[str, tuple[FixedCard, ...]] = field(default_factory=dict)  # zone -> cards
    chart_fields: tuple[str, str] = ("cost", "attack")  # the builder's make-up charts: a cost and a strength
    notes: Labels = field(default_factory=dict)
    notes_translated: frozenset[str] = frozenset()  # languages in which ``notes`` is the site's own wording
    placeholders: tuple[PlaceholderKind, ...] = ()  # the kinds a deck may hold as placeholders (none: no deck)

    def placeholder_kind(self, kind: str) -> PlaceholderKind | None:
        return next((declared for declared in self.placeholders if declared.kind == kind), None)

    def zone(self, slug: str) -> Zone | None:
        return next((zone for zone in self.zones if zone.slug == slug), None)

    def mode(self, slug: str) -> Mode | None:
        return next((mode for mode in self.modes if mode.slug == slug), None)

    def default_options(self) -> dict[str, Any]:
        return {option.slug: option.default for option in self.options}

    def card_requirements(self) -> list[CardRequirement]:
        """The cards no legal deck can do without, derived from each checked mode's rules (default options).

        A size rule with a minimum asks that many cards of a zone (less what the rule's other zones can hold
        at most); the zone's copy limits (``MaxCopies``, ``AllDifferent``) say how many different cards
        that takes, and the rule's or the zone's kinds which cards count. Fixed zones are the game's own.
        """
        found: list[CardRequirement] = []
        options = self.default_options()
        for mode in self.modes:
            if not mode.checked:
                continue
            rules = self.rules(mode.slug, options)
            sizes = [rule for rule in rules if isinstance(rule, ZoneSize)]
            most: dict[str, int] = {}
            for rule in sizes:
                largest = max(rule.allowed_sizes) if rule.allowed_sizes else rule.maximum
                if len(rule.zones) == 1 and largest is not None:
                    most[rule.zones[0]] = min(largest, most.get(rule.zones[0], largest))
            needed: dict[str, tuple[int, ZoneSize]] = {}
            for rule in sizes:
                least = (min(rule.allowed_sizes) if rule.allowed_sizes else rule.minimum) or 0
                for slug in rule.zones if least else ():
                    others = [other for other in rule.zones if other != slug]
                    if any(other not in most for other in others):
                        continue  # the other zones could hold them all
                    cards = least - sum(most[other] for other in others)
                    if cards > needed.get(slug, (0, rule))[0]:
                        needed[slug] = (cards, rule)
            for slug, (cards, rule) in needed.items():
                zone = self.zone(slug)
                if zone is None or zone.fixed:
                    continue
                copies = _copies_allowed(rules, slug, options)
                found.append(
                    CardRequirement(
                        mode=mode.slug,
                        zone=zone,
                        kinds=rule.kinds or zone.kinds,
                        different=-(-cards // copies) if copies else 1,
                        rule=rule,
                    )
                )
        return found

    def field_needs(self) -> list[FieldNeed]:
        """The fields each checked mode's rules read, with the kinds they read them on (default options)."""
        found: list[FieldNeed] = []
        for mode in self.modes:
            if not mode.checked:
                continue
            for rule in self.rules(mode.slug, self.default_options()):
                for name in rule.fields_read():
                    kinds: tuple[str, ...] = getattr(rule, "kinds", ())
                    if not kinds:
                        zones = [self.zone(slug) for slug in getattr(rule, "zones", ())]
                        kinds = tuple(dict.fromkeys(kind for zone in zones if zone for kind in zone.kinds))
                    found.append(FieldNeed(mode=mode.slug, field=name, kinds=kinds, rule=rule))
        return found

    def rules(self, mode: str, options: Mapping[str, Any]) -> list[Rule]:
        chosen = self.mode(mode) or self.modes[0]
        if not chosen.checked:
            return []
        return self.rules_for_mode(chosen.slug, {**self.default_options(), **options})


@dataclass(frozen=True)
class CardRequirement:
    """At least ``different`` different cards of ``kinds`` (empty: any) in ``zone``, or no deck of ``mode``
    is legal; from the size ``rule`` (``DeckRules.card_requirements``)."""

    mode: str
    zone: Zone
    kinds: tuple[str, ...]
    different: int
    rule: Rule


@dataclass(frozen=True)
class FieldNeed:
    """``rule`` of ``mode`` reads ``field`` on cards of ``kinds``: where it is unknown, a deck cannot be checked."""

    mode: str
    field: str
    kinds: tuple[str, ...]
    rule: Rule


def _copies_allowed(rules: list[Rule], zone: str, options: Mapping[str, Any]) -> int | None:
    """How many copies of one card ``zone`` may hold under ``rules`` (None: no limit)."""
    limits = []
    for rule in rules:
        if zone not in getattr(rule, "zones", ()):
            continue
        if isinstance(rule, AllDifferent):
            limits.append(1)
        elif isinstance(rule, MaxCopies) and not rule.kinds:
            limits.append(rule.limit_for(DeckSpec(game="", zones={}, options=options)))
    return min(limits) if limits else None


@dataclass(frozen=True)
class Verdict:
    findings: tuple[Finding, ...]
    checked: bool  # False when the mode has no construction check
    placeholders: int = 0  # placeholder cards in the deck (copies counted): never legal, counted apart

    @property
    def legal(self) -> bool:
        return self.checked and not self.findings and not self.placeholders

    @property
    def legal_apart_from_placeholders(self) -> bool:
        """Every rule kept, counting placeholders as cards of their kind, yet the deck holds placeholders."""
        return self.checked and not self.findings and self.placeholders > 0

    @property
    def violations(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.kind == "violation"]

    @property
    def unchecked(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.kind == "unchecked"]


def validate(rules: DeckRules, deck: DeckSpec) -> Verdict:
    """Every finding of every rule of the deck's mode, at once."""
    mode = rules.mode(deck.mode) or rules.modes[0]
    findings = [finding for rule in rules.rules(mode.slug, deck.options) for finding in rule.check(deck)]
    placeholders = sum(entry.count for entries in deck.zones.values() for entry in entries if entry.card.placeholder)
    return Verdict(tuple(findings), checked=mode.checked, placeholders=placeholders)
