"""The strategies that ship with the site: the two first ones as data, and four written in the
strategy text syntax (``strategy_text``), as a player would write them in the editor. Card keys are seed 000's;
a gain line whose card is not among the set-up's piles simply never fires, so each ends on ``gain *``.
"""

from __future__ import annotations

from .strategy import BIG_DARC, BUILD_THEN_RESOLVE, Strategy
from .strategy_text import parse_strategy

TEXTS: dict[str, str] = {
    # Skills first: cards that turn skills into ● (居合い斬り, ジェノサイドハンマー) or add one (マジックミサイル,
    # 黒旋風), then the most expensive card; scenarios once nothing can be gained.
    "skill_engine": """
gain EB1-008 if owned < 2    # 居合い斬り
gain EB1-014 if owned < 1    # ジェノサイドハンマー
gain EB1-026 if owned < 2    # マジックミサイル
gain EB1-023 if owned < 1    # 黒旋風
gain *
resolve if nothing to gain
play EB1-008, EB1-014, EB1-026, EB1-023
answer EB1-001 yes
answer EB1-008 yes
answer EB1-026 yes
""",
    # Draws and plays: ヴォイドスクラッチ, 槍風車, アローレイン, 切り裂き; the most expensive card otherwise.
    "draw_engine": """
gain EB1-018 if owned < 2    # ヴォイドスクラッチ
gain EB1-017 if owned < 2    # 切り裂き
gain EB1-025 if owned < 2    # 槍風車
gain EB1-021 if owned < 2    # アローレイン
gain *
resolve always
play EB1-017, EB1-021, EB1-018, EB1-025
""",
    # Battle AT: the masquerades pay by AT, so cards that raise it, and jobs; scenarios when behind in ダルク.
    "battle_at": """
gain EB1-011 if owned < 2    # ソードラッシュ
gain EB1-025 if owned < 2    # 槍風車
gain EB1-028 if owned < 1    # アイスブラスト
gain EB1-021 if owned < 1    # アローレイン
gain * if darc_lead >= 0
resolve always
play EB1-017, EB1-021, EB1-025, EB1-028, EB1-011
answer EB1-011 yes
answer EB1-028 yes
thorn most
""",
    # Scenario rush: every turn's skills go to the junction; gains only what helps to resolve (ランスインパクト,
    # 流水演舞) and only when no scenario can be paid.
    "scenario_rush": """
gain EB1-020 if owned < 2    # ランスインパクト
gain EB1-022 if owned < 1    # 流水演舞
gain *
resolve always
play EB1-020, EB1-022
answer EB1-020 yes
answer EB1-022:update yes
thorn fewest
""",
}

STRATEGIES: dict[str, Strategy] = {
    strategy.name: strategy
    for strategy in (
        BIG_DARC,
        BUILD_THEN_RESOLVE,
        *(parse_strategy(text, name=name) for name, text in TEXTS.items()),
    )
}
