"""Card effects, registered by card key (XMage style: each card composes shared effects; no if-chains on names).

A player card's script has an effect for the daily phase (「[日常]」), one for battle (「[戦闘]」), one when the
battle ends, and, where its text gives them, its AT and its skill. A masquerade's script has the hooks of the
battle it is fought in, and its daily effect once its ability is revealed. Every 「〜してもよい」 ("may") asks the
player's strategy (``Game.may``) under the card's key (or the key and a suffix), with the effect's default.
Which cards a chosen effect picks (the two cards the tavern changes …) is a default of the helper for a strategy;
a seated person is asked (``Game.choose_cards``, ``Game.choose_place``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from ...core import SimCard
    from .game import Game, InPlay, Player

Effect = Callable[["Game", "Player", "InPlay"], None]
AtRule = Callable[["Game", "Player", "InPlay"], int]
PlayerHook = Callable[["Game", "Player"], None]
GameHook = Callable[["Game", "SimCard"], None]
AtBonus = Callable[["Game", "Player", "InPlay"], int]
DamageBonus = Callable[["Game", "Player", int], int]


@dataclass(frozen=True)
class CardScript:
    key: str
    daily: Effect | None = None
    battle: Effect | None = None
    battle_end: Effect | None = None  # 「戦闘終了時」, for a card played in the battle
    at: AtRule | None = None  # the AT the text gives, instead of the card's `at` value
    skill: str | None = None  # the skill the text gives (「このカードは「スキル：ＰＴＳ」を持つ」)
    # Fields it reads on any card that can be in a deck (so each such card must give them): ("cost",) …
    reads: tuple[str, ...] = ()


@dataclass(frozen=True)
class MasqueradeScript:
    key: str
    revealed: PlayerHook | None = None  # a 「[日常]」 ability: for the turn player when it is revealed
    hand_adjustment: PlayerHook | None = None  # a lasting 「[日常]」 ability, at each hand adjustment
    battle_start: PlayerHook | None = None  # for each player, when its battle begins
    at_bonus: AtBonus | None = None  # for each card on a field, in its battle
    damage: DamageBonus | None = None  # more (or less) damage for a player, given the revealed damage
    after_damage: GameHook | None = None  # 「ダメージ適用後」
    first_offset: int = 0  # who plays first in its battle: the turn player's left neighbour is 1
    reads: tuple[str, ...] = ()  # fields it reads on any card that can be in a deck


# ``Final``: filled in below, never replaced (compiled, a use reads no module globals).
SCRIPTS: Final[dict[str, CardScript]] = {}
MASQUERADE_SCRIPTS: Final[dict[str, MasqueradeScript]] = {}


def script(
    key: str,
    *,
    daily: Effect | None = None,
    battle: Effect | None = None,
    battle_end: Effect | None = None,
    at: AtRule | None = None,
    skill: str | None = None,
    reads: tuple[str, ...] = (),
) -> None:
    if key in SCRIPTS:
        raise ValueError(f"{key}: scripted twice")
    SCRIPTS[key] = CardScript(key, daily, battle, battle_end, at, skill, reads)


def masquerade(key: str, **hooks: object) -> None:
    if key in MASQUERADE_SCRIPTS:
        raise ValueError(f"{key}: scripted twice")
    MASQUERADE_SCRIPTS[key] = MasqueradeScript(key, **hooks)  # type: ignore[arg-type]


# Shared effects ---------------------------------------------------------------------------------------------


def asks_first(effect: Effect, question: str) -> Effect:
    """Notes on ``effect`` that the first thing it does is ask ``question`` (``declarations.QUESTIONS``), and that it does
    nothing at all on a no. A strategy is frozen and its answers are read once per set-up, so the game leaves
    such an effect out for a strategy that says no (``Game._seat_values``) instead of calling it for every card
    played."""
    effect.asks_first = question  # type: ignore[attr-defined]
    return effect


def declined(effect: Effect, answer: Callable[[str], bool]) -> bool:
    """Whether ``effect`` is one that ``asks_first`` and ``answer`` (a strategy's) says no to it."""
    asked: str | None = getattr(effect, "asks_first", None)
    return asked is not None and not answer(asked)


def may(question: str, effect: Effect) -> Effect:
    """「〜してもよい」: the effect happens if the strategy says yes to ``question``."""

    def run(game: Game, player: Player, played: InPlay) -> None:
        if game.may(player, question):
            effect(game, player, played)

    return asks_first(run, question)


def both(*effects: Effect) -> Effect:
    def run(game: Game, player: Player, played: InPlay) -> None:
        for effect in effects:
            effect(game, player, played)

    return run


def draw(count: int) -> Effect:
    """「ドロー：＋N」"""

    def run(game: Game, player: Player, played: InPlay) -> None:
        game.draw(player, count)

    return run


def plays(count: int) -> Effect:
    """「プレイ可能枚数：＋N」"""

    def run(game: Game, player: Player, played: InPlay) -> None:
        player.plays += count
        if game.log_events:
            game.note(player, "plays", played.card.key, count)

    return run


def less_damage(count: int) -> Effect:
    """「ダメージ：－N」"""

    def run(game: Game, player: Player, played: InPlay) -> None:
        player.damage_reduction += count

    return run


def give_wild(game: Game, player: Player, played: InPlay, count: int = 1) -> None:
    """「このカードに「スキル：●」を与える」"""
    if count > 0:
        played.skill += "●" * count
        game.note(player, "skill_changed", played.card.key, detail=played.skill)


def change_skills(question: str, *, up_to: int, symbols: str, into: str) -> Effect:
    """「場のカード{up_to}枚までを選び、「スキル：{symbols}」すべてを「スキル：{into}」に変更してもよい」.

    The strategy says whether (``question``); the cards changed are those with the most of ``symbols``.
    """

    wanted = frozenset(symbols)

    def run(game: Game, player: Player, played: InPlay) -> None:
        if player.decider is not None:  # a person picks the cards (none: the effect is declined)
            candidates = [card for card in player.field if not wanted.isdisjoint(card.skill)]
            chosen = game.choose_cards(player, question, candidates, up_to)
        else:
            # The strategy is asked first: its answer is a look-up, and most say no (the default).
            if not game.may(player, question):
                return
            candidates = [card for card in player.field if not wanted.isdisjoint(card.skill)]
            candidates.sort(key=lambda card: -sum(card.skill.count(symbol) for symbol in symbols))
            chosen = candidates[:up_to]
        for card in chosen:
            card.skill = "".join(into if symbol in symbols else symbol for symbol in card.skill)
            game.note(player, "skill_changed", card.card.key, detail=card.skill)

    return asks_first(run, question)


def reveal_until(kind: str, count: int) -> Effect:
    """「{kind}{count}枚がでるまで山札を公開し、公開した{kind}を手札に加えてもよい。残りの公開したカードは捨て札にする。」"""

    def run(game: Game, player: Player, played: InPlay) -> None:
        found: list[SimCard] = []
        others: list[SimCard] = []
        while len(found) < count:
            card = game.reveal_top(player)
            if card is None:
                break
            (found if card.kind == kind else others).append(card)
        if found and game.may(player, played.card.key):
            player.hand += found
        else:
            others += found
        player.discard += others
        game.note(player, "revealed", played.card.key, len(found) + len(others))

    return run


def worth(card: SimCard) -> tuple[int, Any]:
    """What a card is worth keeping, by default: its number of skills, then its AT (a default, not a rule).

    A module function, not a lambda: compiled, a lambda in a function makes an object each time it is called."""
    return (len(str(card.fields.get("skill") or "")), card.fields.get("at") or 0)


def worst_first(cards: list[SimCard]) -> list[SimCard]:
    """The cards a strategy parts with first: fewest skills, then lowest AT (``worth``)."""
    return sorted(cards, key=worth)


def abilities_played(game: Game, player: Player, played: InPlay) -> int:
    """「ＡＴ：プレイしているアビリティ枚数」"""
    return sum(1 for card in player.field if card.card.kind == "ability")


def for_field(kind: str | None = None, attribute: str | None = None, bonus: int = 0) -> AtBonus:
    """「場の{kind or 属性}すべてを「ＡＴ：{bonus}」する」"""

    def run(game: Game, player: Player, played: InPlay) -> int:
        if kind is not None and played.card.kind != kind:
            return 0
        if attribute is not None and played.card.fields.get("attribute") != attribute:
            return 0
        return bonus

    return run


def gain_within(key: str, cost: str) -> PlayerHook:
    """「ターンプレイヤーは「コスト：{cost}以内」のカード１枚を獲得してもよい。この効果は内容が公開されたターンしか発揮しない。」"""

    def run(game: Game, player: Player) -> None:
        if game.may(player, key):
            game.gain_one_within(player, cost)

    return run


def goes_to_the_one_incapacitated(game: Game, card: SimCard) -> None:
    """「ダメージ適用後、戦闘不能になったプレイヤーが１人の場合、そのプレイヤーはこのカードを捨て山に加える。」"""
    down = [player for player in game.players if player.incapacitated]
    if len(down) == 1:
        game.keep_masquerade(down[0], card)


def bonus_darc(
    count: int, chosen: Callable[[Game, Player], int], most: bool, none_at_zero: Callable[[Game], bool] | None = None
) -> GameHook:
    """「ダメージ適用後、戦闘不能になっていないプレイヤーのうち、…もっとも{most: 多い / 少ない}プレイヤーすべてが対象。
    対象は追加で『１０００ダルク』{count}枚を獲得する。」 ``none_at_zero``: whether a most of 0 makes no target."""

    def run(game: Game, card: SimCard) -> None:
        standing = [player for player in game.players if not player.incapacitated]
        if not standing:
            return
        values = [chosen(game, player) for player in standing]
        target = max(values) if most else min(values)
        if target == 0 and none_at_zero is not None and none_at_zero(game):
            return
        for player, value in zip(standing, values, strict=True):
            if value == target:
                game.add_darc(player, count, card.key)

    return run


# The player cards -------------------------------------------------------------------------------------------

# EB1-001 旅人の酒場「[日常]場のカード２枚までを選び、「スキル：P・T・S」すべてを「スキル：B」に変更してもよい。」
script("EB1-001", daily=change_skills("EB1-001", up_to=2, symbols="PTS", into="B"))

# EB1-008 居合い斬り「[日常]場のカード２枚までを選び、「スキル：B」すべてを「スキル：●」に変更してもよい。」
script("EB1-008", daily=change_skills("EB1-008", up_to=2, symbols="B", into="●"))


def _shield_guard_end(game: Game, player: Player, played: InPlay) -> None:
    if len(player.deck) >= 10:
        game.add_darc(player, 2, played.card.key)


# EB1-009 シールドガード「[日常]「ドロー：＋２」してもよい。」
# 「[戦闘]「ダメージ：－３」してもよい。戦闘終了時、山札が１０枚以上残っている場合、『１０００ダルク』２枚を獲得する。」
script(
    "EB1-009",
    daily=may("EB1-009", draw(2)),
    battle=may("EB1-009", less_damage(3)),
    battle_end=_shield_guard_end,
)

# EB1-010 練刺棍「[日常・戦闘]ジョブ２枚がでるまで山札を公開し、公開したジョブを手札に加えてもよい。残りの公開したカードは捨て札にする。」
script("EB1-010", daily=reveal_until("job", 2), battle=reveal_until("job", 2))


def _sword_rush(game: Game, player: Player, played: InPlay) -> None:
    in_hand = [card for card in player.hand if card.kind == "job"]
    if player.decider is not None:  # a person picks which jobs, and so how many (none: declined)
        jobs = game.choose_cards(player, "EB1-011", in_hand, 2)
    else:
        jobs = worst_first(in_hand)[:2] if in_hand and game.may(player, "EB1-011") else []
    if jobs:
        for card in jobs:
            game.destroy(player, card)
        played.at += 3 * len(jobs)


# EB1-011 ソードラッシュ「[戦闘]手札のジョブ２枚までを破壊してもよい。破壊したジョブ１枚ごとに、このカードを「ＡＴ：＋３」する。」
script("EB1-011", battle=_sword_rush)


def _wild_swing(game: Game, player: Player, played: InPlay) -> None:
    if player.decider is not None:  # a person picks up to three cards and where each goes
        picked = game.choose_cards(player, "EB1-012", list(player.hand), 3)
        for card in picked:
            if game.choose_place(player, "EB1-012", card, ("discard", "destroy")) == "destroy":
                game.destroy(player, card)
            else:
                game.discard_from_hand(player, card)
        if picked and game.may(player, "EB1-012:draw"):
            game.draw(player, len(picked))
        return
    chosen = worst_first(player.hand)[:3]
    if not chosen or not game.may(player, "EB1-012"):
        return
    destroy = game.may(player, "EB1-012:destroy")
    for card in chosen:
        game.destroy(player, card) if destroy else game.discard_from_hand(player, card)
    if game.may(player, "EB1-012:draw"):
        game.draw(player, len(chosen))


# EB1-012 ワイルドスイング「[日常]手札３枚までを好きに割り振って、捨て札または破壊してもよい。捨て札や破壊したカードの合計数だけ「ドロー」してもよい。」
script("EB1-012", daily=_wild_swing)


def _axe_divide(game: Game, player: Player, played: InPlay) -> None:
    costed = [card for card in player.hand if card.fields.get("cost") is not None]  # a masquerade has no cost
    if not costed or not game.may(player, "EB1-013"):
        return
    card = min(costed, key=lambda card: len(str(card.fields["cost"])))
    game.destroy(player, card)
    if game.may(player, "EB1-013:gain"):
        game.gain_one_costing_at_most(player, len(str(card.fields["cost"])) + 1)


# EB1-013 アクスディバイド「[日常]手札１枚を破壊してもよい。破壊したカードの「コスト数＋１以下」のコスト数を持つカード１枚を獲得してもよい。」
script("EB1-013", daily=_axe_divide, reads=("cost",))


def _genocide_hammer(game: Game, player: Player, played: InPlay) -> None:
    if not game.may(player, "EB1-014"):
        return
    for card in player.field:
        if card.card.key != "EB1-014" and game.at_now(player, card) >= 3:
            give_wild(game, player, card)


# EB1-014 ジェノサイドハンマー「[日常]場の「ＡＴ：３以上」のカードすべてに「スキル：●」を与えてもよい（『ジェノサイドハンマー』を除く）。」
script("EB1-014", daily=_genocide_hammer)


def _capture(game: Game, player: Player, played: InPlay) -> None:
    if game.may(player, "EB1-015"):
        game.draw(player, 1)
    player.to_deck_top_before_adjustment += 2  # each 捕縛撃 its own two cards (rules.capture_carries_over)


# EB1-015 捕縛撃「[日常]「ドロー：＋１」してもよい。次の手札調整フェイズ前に、手札２枚までを山札の上に置いてもよい。」
script("EB1-015", daily=_capture)


def _sonic_wave(game: Game, player: Player, played: InPlay) -> None:
    for other in game.players:
        if other is not player:
            game.draw(other, 1)


# EB1-016 ソニックウェーブ「[日常]他プレイヤーすべては「ドロー：＋１」する。」
script("EB1-016", daily=_sonic_wave)

# EB1-017 切り裂き「[日常・戦闘]「プレイ可能枚数：＋２」してもよい。」
script("EB1-017", daily=may("EB1-017", plays(2)), battle=may("EB1-017", plays(2)))

# EB1-018 ヴォイドスクラッチ「[日常・戦闘]「ドロー：＋３」してもよい。」
script("EB1-018", daily=may("EB1-018", draw(3)), battle=may("EB1-018", draw(3)))

# EB1-019 トンファーコンボ「[日常・戦闘]アビリティ１枚がでるまで山札を公開し、公開したアビリティを手札に加えてもよい。残りの公開したカードは捨て札にする。」
script("EB1-019", daily=reveal_until("ability", 1), battle=reveal_until("ability", 1))


def _lance_impact(game: Game, player: Player, played: InPlay) -> None:
    attributes = {card.fields.get("attribute") for card in player.hand}
    if {"P", "T", "S"} <= attributes and game.may(player, "EB1-020"):
        game.note(player, "revealed", played.card.key, len(player.hand))
        game.resolve_scenario(player, by_effect=True)


# EB1-020 ランスインパクト「[日常]手札に「属性：Ｐ・Ｔ・Ｓ」の３種が揃っている場合、それを公開し、シナリオ１枚を解決してもよい
# （シナリオ解決は効果であり、日常フェイズの各行動は別に行える）。」
script("EB1-020", daily=_lance_impact, reads=("attribute",))

# EB1-021 アローレイン「ＡＴ：プレイしているアビリティ枚数」「[日常・戦闘]「ドロー：＋１＆プレイ可能枚数：＋１」してもよい。」
script(
    "EB1-021",
    daily=may("EB1-021", both(draw(1), plays(1))),
    battle=may("EB1-021", both(draw(1), plays(1))),
    at=abilities_played,
)


def _update_scenario(game: Game, player: Player, played: InPlay) -> None:
    if game.may(player, "EB1-022:update"):
        game.update_scenario(player)


# EB1-022 流水演舞「[日常]「ドロー：＋1」してもよい。シナリオ1枚を更新してもよい。」
script("EB1-022", daily=both(may("EB1-022", draw(1)), _update_scenario))


def _black_whirlwind(game: Game, player: Player, played: InPlay) -> None:
    if not game.may(player, "EB1-023"):
        return
    milled = [card for card in (game.reveal_top(player), game.reveal_top(player)) if card is not None]
    player.discard += milled
    give_wild(game, player, played, sum(1 for card in milled if card.kind == "job"))


# EB1-023 黒旋風「[日常]山札２枚を捨て札にしてもよい。この効果で捨て札にしたジョブ１枚ごとに、このカードに「スキル：●」を与える。」
script("EB1-023", daily=_black_whirlwind)


def _get_set(game: Game, player: Player, played: InPlay) -> None:
    if not game.may(player, "EB1-024"):
        return
    seen = [card for card in (game.reveal_top(player) for _ in range(3)) if card is not None]
    if player.decider is not None:  # a person says where each goes; the first put back ends on top
        keep = [card for card in seen if game.choose_place(player, "EB1-024", card, ("top", "discard")) == "top"]
    else:
        keep = [card for card in seen if card.fields.get("skill") or card.fields.get("at")]
    player.discard += [card for card in seen if card not in keep]
    player.deck += reversed(keep)  # the first seen back on top


# EB1-024 ゲットセット「[日常・戦闘]山札を上から３枚確認してもよい。確認したカードを好きに割り振って、山札の上か捨て山に置く。」
script("EB1-024", daily=_get_set, battle=_get_set)


def _lance_windmill(game: Game, player: Player, played: InPlay) -> None:
    if game.may(player, "EB1-025"):
        game.draw(player, 2)
    # 「場の「ＡＴ：２以上」のカード」: its AT as it counts now (a card whose text gives its AT, a masquerade's
    # change in battle); the +2 is added to what the card has, so it lasts whatever gives the rest.
    strong = [card for card in player.field if game.at_now(player, card) >= 2]
    if not strong:
        return
    if player.decider is not None:
        chosen = game.choose_cards(player, "EB1-025:at", strong, 1)
    else:
        chosen = strong[:1] if game.may(player, "EB1-025:at") else []
    for card in chosen:
        card.at += 2


# EB1-025 槍風車「[日常・戦闘]「ドロー：＋２」してもよい。場の「ＡＴ：２以上」のカード１枚を「ＡＴ：＋２」してもよい。」
script("EB1-025", daily=_lance_windmill, battle=_lance_windmill)


def _magic_missile(game: Game, player: Player, played: InPlay) -> None:
    if not player.hand or not game.may(player, "EB1-026"):
        return
    card = worst_first(player.hand)[0]
    game.destroy(player, card) if game.may(player, "EB1-026:destroy") else game.discard_from_hand(player, card)
    give_wild(game, player, played)


# EB1-026 マジックミサイル「[日常]手札１枚を捨て札か破壊し、このカードに「スキル：●」を与えてもよい。」
script("EB1-026", daily=_magic_missile)


def _discord(game: Game, player: Player, played: InPlay) -> None:
    player.discord = True


# EB1-027 ディスコード「[日常]このターン、シナリオを解決しなければ、手札調整フェイズのドローを７枚にする。」
script("EB1-027", daily=_discord)


def _ice_blast(game: Game, player: Player, played: InPlay) -> None:
    if game.may(player, "EB1-028"):
        game.gain_job_to_deck_top(player)


def _ice_blast_battle(game: Game, player: Player, played: InPlay) -> None:
    if player.seat in game.fighting_thorns and game.may(player, "EB1-028:at"):
        played.at += 2


# EB1-028 アイスブラスト「[日常]ジョブ１枚を獲得し、山札の上に置いてもよい。」
# 「[戦闘]戦闘の対象となっているマスカレイドにあなたがソーンを乗せていた場合、このカードを「ＡＴ：＋２」してもよい。」
script("EB1-028", daily=_ice_blast, battle=_ice_blast_battle)


def _thorn(game: Game, player: Player, played: InPlay) -> None:
    others = [card for card in player.hand if card is not game.setup.thorn]
    if others:
        card = worst_first(others)[0]
        player.hand.remove(card)
        player.deck.insert(0, card)
    game.draw(player, 2)
    player.plays += 1


# EB1-059 ソーン＆ダブルトリガーＲ「[戦闘]手札１枚を山札の一番下に戻し、「ドロー：＋２＆プレイ可能枚数：＋１」する。」
script("EB1-059", battle=_thorn)

# The masquerades --------------------------------------------------------------------------------------------

# EB1-039 ラビシャン「[戦闘]場の「属性：Ｐ」のカードすべてを「ＡＴ：＋１」する。」
masquerade("EB1-039", at_bonus=for_field(attribute="P", bonus=1), reads=("attribute",))
# EB1-040 フェルプール「[戦闘]場の「属性：Ｔ」のカードすべてを「ＡＴ：＋１」する。」
masquerade("EB1-040", at_bonus=for_field(attribute="T", bonus=1), reads=("attribute",))
# EB1-041 マミー「[戦闘]場の「属性：Ｓ」のカードすべてを「ＡＴ：＋１」する。」
masquerade("EB1-041", at_bonus=for_field(attribute="S", bonus=1), reads=("attribute",))
# EB1-042 ヒポボーン「[日常]ターンプレイヤーは「コスト：ＰＰＴＳ以内」のカード１枚を獲得してもよい。」
masquerade("EB1-042", revealed=gain_within("EB1-042", "PPTS"))
# EB1-043 ミミック「[日常]ターンプレイヤーは「コスト：ＰＴＴＳ以内」のカード１枚を獲得してもよい。」
masquerade("EB1-043", revealed=gain_within("EB1-043", "PTTS"))
# EB1-044 エレファンタス「[日常]ターンプレイヤーは「コスト：ＰＴＳＳ以内」のカード１枚を獲得してもよい。」
masquerade("EB1-044", revealed=gain_within("EB1-044", "PTSS"))


def _scope_owl(game: Game, player: Player) -> None:
    if player.deck:
        game.note(player, "revealed", player.deck[-1].key, 1)


# EB1-045 スコープアウル「[戦闘]プレイヤーすべては山札の一番上を公開する。」
masquerade("EB1-045", battle_start=_scope_owl)


def _two_more_plays(game: Game, player: Player) -> None:
    player.plays += 2


# EB1-046 歩きサボテン「[戦闘]プレイヤーすべては戦闘フェイズ開始時に得られる「プレイ可能枚数：＋２」する。」
masquerade("EB1-046", battle_start=_two_more_plays)


def _insectea(game: Game, player: Player, damage: int) -> int:
    return 3 if damage >= 16 else 0


# EB1-047 インセクテア「[戦闘]ダメージ適用時、公開したダメージが１６以上の場合、「ダメージ：＋３」する。」
masquerade("EB1-047", damage=_insectea)


def _city_states_three_more(game: Game, player: Player, played: InPlay) -> int:
    return 3 if game.is_city_state(played.card) else 0


# EB1-048 ヘカトンケイル「[戦闘]場の都市国家すべてを「AT：＋３」する。」 Which cards are 都市国家: rules.city_states.
masquerade("EB1-048", at_bonus=_city_states_three_more)
# EB1-049 ジャグランツ: the seed's table gives it no text.


def _bamboo_man(game: Game, player: Player, damage: int) -> int:
    return -sum(1 for card in player.field if card.card.kind == "job")


# EB1-050 バンブーマン「[戦闘]場のジョブすべてに「ダメージ：－１」を与える。」
masquerade("EB1-050", damage=_bamboo_man)
# EB1-051 チッタニアン「[戦闘]場のジョブすべてを「ＡＴ：＋２」する。」
masquerade("EB1-051", at_bonus=for_field(kind="job", bonus=2))
# EB1-052 白馬の王子様「[戦闘]場のアビリティすべてを「ＡＴ：－２」する（０以下になった場合、０として扱う）。」
masquerade("EB1-052", at_bonus=for_field(kind="ability", bonus=-2))
# EB1-053 アルラウネ「…そのプレイヤーはこのカードを捨て山に加える。このカードは「スキル：ＰＴＳ」を持つ。」
masquerade("EB1-053", after_damage=goes_to_the_one_incapacitated)
script("EB1-053", skill="PTS")
# EB1-054 フリーズランサー「…そのプレイヤーはこのカードを捨て山に加える。このカードは「スキル：●●」を持つ。」
masquerade("EB1-054", after_damage=goes_to_the_one_incapacitated)
script("EB1-054", skill="●●")


def _lily_head(game: Game, player: Player) -> None:
    if game.total_at(player) >= 10:  # the field still holds the cards played this turn
        game.add_darc(player, 1, "EB1-055")


# EB1-055 リリィヘッド「[日常]プレイヤーすべてが対象。対象は自分のターンに「合計ＡＴ：１０以上」のカードをプレイしているなら、
# 手札調整フェイズ開始時に『１０００ダルク』１枚を獲得する。」
masquerade("EB1-055", hand_adjustment=_lily_head)


def _red_baroque(game: Game, player: Player, damage: int) -> int:
    return game.total_at(player)


# EB1-056 レッドバロック「[戦闘]このマスカレイドとの戦闘は、ターンプレイヤーの左隣のプレイヤーからプレイを行う。
# ダメージ適用時、プレイヤーすべては「ダメージ：＋自分の出したＡＴ」する。」
masquerade("EB1-056", first_offset=1, damage=_red_baroque)
# EB1-057 ジェスター「[戦闘]ダメージ適用後、戦闘不能になっていないプレイヤーのうち、山札の枚数がもっとも少ないプレイヤーすべてが
# 対象。対象は追加で『１０００ダルク』３枚を獲得する。」
masquerade("EB1-057", after_damage=bonus_darc(3, lambda game, player: len(player.deck), most=False))
# EB1-058 《予言者》「[戦闘]ダメージ適用後、戦闘不能になっていないプレイヤーのうち、プレイしたジョブの枚数がもっとも多いプレイヤー
# すべてが対象。対象は追加で『１０００ダルク』２枚を獲得する。」
masquerade(
    "EB1-058",
    after_damage=bonus_darc(
        2,
        lambda game, player: sum(1 for c in player.field if c.card.kind == "job"),
        most=True,
        none_at_zero=lambda game: game.rules.prophet_without_jobs == "nobody",
    ),
)
