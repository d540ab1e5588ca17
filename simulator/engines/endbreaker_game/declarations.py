"""What the game's log holds, declared with names in three languages (the engine protocol of ``simulator.core``):
the kinds of event besides ``CORE_EVENT_KINDS``. A later step plugs the game into the pages with these."""

from __future__ import annotations

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
