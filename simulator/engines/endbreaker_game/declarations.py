"""What the game declares once (the engine protocol of ``simulator.core``): the kinds of event its log holds
besides ``CORE_EVENT_KINDS``, with names in three languages, and the questions its cards ask a strategy (every
「してもよい」), with the answer given when a strategy does not say."""

from __future__ import annotations

from typing import NamedTuple

from ...core import CORE_EVENT_KINDS, EventKind

EVENT_KINDS: tuple[EventKind, ...] = (
    EventKind("start", {"ja": "開始フェイズ", "zh-hant": "開始階段", "en": "start phase"}),
    EventKind("plays", {"ja": "プレイ可能枚数", "zh-hant": "行動", "en": "plays"}),
    EventKind("gain", {"ja": "獲得", "zh-hant": "獲得", "en": "gain"}),
    EventKind("scenario", {"ja": "シナリオ解決", "zh-hant": "解決事件", "en": "scenario resolved"}),
    EventKind("scenario_updated", {"ja": "シナリオ更新", "zh-hant": "更新劇本", "en": "scenario updated"}),
    EventKind("thorn", {"ja": "ソーン", "zh-hant": "棘", "en": "thorn placed"}),
    EventKind("battle", {"ja": "戦闘", "zh-hant": "戰鬥", "en": "battle"}),
    EventKind("damage_card", {"ja": "ダメージのカード", "zh-hant": "傷害卡", "en": "damage card"}),
    EventKind("incapacitated", {"ja": "戦闘不能", "zh-hant": "戰鬥不能", "en": "incapacitated"}),
    EventKind("reward", {"ja": "報酬", "zh-hant": "獎賞", "en": "reward"}),
    EventKind("darc", {"ja": "ダルク", "zh-hant": "錢幣", "en": "darc"}),
    EventKind("destroy", {"ja": "破壊", "zh-hant": "破壞", "en": "destroyed"}),
    EventKind("revealed", {"ja": "公開", "zh-hant": "公開", "en": "revealed"}),
    EventKind("skill_changed", {"ja": "スキル変更", "zh-hant": "技能變更", "en": "skill changed"}),
    EventKind("end", {"ja": "ゲーム終了", "zh-hant": "遊戲結束", "en": "end of the game"}),
)

LOGGED_KINDS: frozenset[str] = frozenset(kind.slug for kind in (*CORE_EVENT_KINDS, *EVENT_KINDS))


class Question(NamedTuple):
    """A 「してもよい」 of a card: ``default`` is the answer when the strategy gives none; ``phrase`` is the printed
    words it asks about (seed 000's Japanese text, shown in the strategy editor as printed)."""

    default: bool
    phrase: str


# Keyed as strategies answer them: the card key, and ``:part`` where one card asks more than once.
QUESTIONS: dict[str, Question] = {
    "EB1-001": Question(False, "場のカード２枚までを選び、「スキル：P・T・S」すべてを「スキル：B」に変更してもよい"),
    "EB1-008": Question(False, "場のカード２枚までを選び、「スキル：B」すべてを「スキル：●」に変更してもよい"),
    "EB1-009": Question(True, "「ドロー：＋２」してもよい"),
    "EB1-010": Question(True, "公開したジョブを手札に加えてもよい"),
    "EB1-011": Question(True, "手札のジョブ２枚までを破壊してもよい"),
    "EB1-012": Question(False, "手札３枚までを好きに割り振って、捨て札または破壊してもよい"),
    "EB1-012:destroy": Question(False, "（割り振り）破壊する"),
    "EB1-012:draw": Question(True, "合計数だけ「ドロー」してもよい"),
    "EB1-013": Question(False, "手札１枚を破壊してもよい"),
    "EB1-013:gain": Question(True, "「コスト数＋１以下」のコスト数を持つカード１枚を獲得してもよい"),
    "EB1-014": Question(True, "場の「ＡＴ：３以上」のカードすべてに「スキル：●」を与えてもよい"),
    "EB1-015": Question(True, "「ドロー：＋１」してもよい"),
    "EB1-015:top": Question(True, "次の手札調整フェイズ前に、手札２枚までを山札の上に置いてもよい"),
    "EB1-017": Question(True, "「プレイ可能枚数：＋２」してもよい"),
    "EB1-018": Question(True, "「ドロー：＋３」してもよい"),
    "EB1-019": Question(True, "公開したアビリティを手札に加えてもよい"),
    "EB1-020": Question(True, "それを公開し、シナリオ１枚を解決してもよい"),
    "EB1-021": Question(True, "「ドロー：＋１＆プレイ可能枚数：＋１」してもよい"),
    "EB1-022": Question(True, "「ドロー：＋1」してもよい"),
    "EB1-022:update": Question(False, "シナリオ1枚を更新してもよい"),
    "EB1-023": Question(True, "山札２枚を捨て札にしてもよい"),
    "EB1-024": Question(True, "山札を上から３枚確認してもよい"),
    "EB1-025": Question(True, "「ドロー：＋２」してもよい"),
    "EB1-025:at": Question(True, "場の「ＡＴ：２以上」のカード１枚を「ＡＴ：＋２」してもよい"),
    "EB1-026": Question(True, "手札１枚を捨て札か破壊し、このカードに「スキル：●」を与えてもよい"),
    "EB1-026:destroy": Question(False, "（捨て札か破壊）破壊する"),
    "EB1-028": Question(True, "ジョブ１枚を獲得し、山札の上に置いてもよい"),
    "EB1-028:at": Question(True, "このカードを「ＡＴ：＋２」してもよい"),
    "EB1-042": Question(True, "「コスト：ＰＰＴＳ以内」のカード１枚を獲得してもよい"),
    "EB1-043": Question(True, "「コスト：ＰＴＴＳ以内」のカード１枚を獲得してもよい"),
    "EB1-044": Question(True, "「コスト：ＰＴＳＳ以内」のカード１枚を獲得してもよい"),
}
