"""エンドブレイカー！SCG, the whole game (``simulator.engines.endbreaker_game``), set up from the cards the database
knows. Plain Python: the cards come in as ``SimCard``s (``simulator.shared.selectors`` reads them).

Seed 000, 遊戲準備:
1「將魔獸戰士、スカイランナー、デモニスタ三疊職業卡牌堆放在場中。」 — the three job piles, by name.
2「特技卡牌堆任選９種放置在場中。」 — 9 ability piles, chosen (by default the first 9 in card-number order).
3「將所有的劇本卡洗牌後疊成一起」 — every scenario card the database knows.
4「將假面卡隨機選出３張」 — every masquerade card the database knows (3 masked, the rest the damage pile).
5「城塞騎士、狩獵者、星靈術士各２張；旅人的酒場４張 … 並將棘７張」 — the starting cards by key (the keys of
   ``decks.rules.endbreaker``'s fixed starting zone), and the thorn ソーン＆ダブルトリガー (EB1-059).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardsite.labels import pick

from ..core import CardNeed, SimCard
from ..engines.endbreaker_game import (
    STRATEGIES,
    Setup,
    SetupError,
    evolve,
    format_strategy,
    missing_values,
    parse_strategy,
    seated,
)
from ..engines.endbreaker_game.declarations import EVENT_KINDS, QUESTIONS
from ..engines.endbreaker_game.game import STOP
from ..engines.endbreaker_game.rules import ABILITY_PILES, JOB_PILES, MASQUERADES_IN_PLAY
from ..engines.endbreaker_game.strategy_text import MESSAGES as STRATEGY_MESSAGES
from . import FullGame, Refused, SearchHooks, SetupProblem, SetupRefused, register

# 遊戲準備 5, keyed as the deck rules' fixed starting zone keys them.
STARTING = {"tavern": "EB1-001", "knight": "城塞騎士", "hunter": "狩猟者", "astromancer": "星霊術士"}
JOB_PILE_KEYS = ("魔獣戦士", "スカイランナー", "デモニスタ")  # 遊戲準備 1
THORN_KEY = "EB1-059"  # ソーン＆ダブルトリガー

BLOCKS = {
    "ja": "エンドブレイカー！SCGのシミュレーターが遊べません",
    "zh-hant": "エンドブレイカー！SCG 模擬器無法進行遊戲",
    "en": "blocks the Endbreaker! SCG simulator",
}

# What every set-up reads, kind by kind (``setup.missing_values`` names the exact cards and values of one set-up;
# an attribute is read only by some abilities' and masquerades' texts, so it is not counted here).
CARD_NEEDS = tuple(
    CardNeed(name, kinds, BLOCKS)
    for name, kinds in (
        ("cost", ("job", "ability", "scenario")),
        ("skill", ("job", "ability")),
        ("at", ("job", "ability", "thorn")),
        ("payout", ("masquerade", "scenario")),
        ("damage", ("masquerade",)),
    )
)

STRATEGY_LABELS = {
    "big_darc": {
        "ja": "ビッグダルク（払えるときは必ずシナリオを解決し、ほかは最も高いカードを獲得）",
        "zh-hant": "大錢幣（能支付就解決事件，否則獲得最貴的卡）",
        "en": "Big darc (resolve a scenario whenever it can be paid, else gain the most expensive card)",
    },
    "build_then_resolve": {
        "ja": "構築してから解決（獲得できるカードがないときだけシナリオを解決）",
        "zh-hant": "先構築後解決（沒有可獲得的卡時才解決事件）",
        "en": "Build then resolve (resolve a scenario only when nothing can be gained)",
    },
    "skill_engine": {
        "ja": "スキルエンジン（●を生むアビリティを先に獲得し、獲得できないときにシナリオを解決）",
        "zh-hant": "技能引擎（先獲得產生●的特技，無可獲得時才解決事件）",
        "en": "Skill engine (gain the abilities that make ● first; resolve when nothing can be gained)",
    },
    "draw_engine": {
        "ja": "ドローエンジン（ドローとプレイ可能枚数を増やすアビリティを獲得し、払えるときはシナリオを解決）",
        "zh-hant": "抽牌引擎（獲得增加抽牌與行動的特技，能支付就解決事件）",
        "en": "Draw engine (gain the abilities that draw and add plays; resolve whenever it can be paid)",
    },
    "battle_at": {
        "ja": "戦闘AT（ATを上げるアビリティを獲得し、マスカレイドとの戦闘で報酬を狙う）",
        "zh-hant": "戰鬥AT（獲得提升AT的特技，在假面戰鬥中爭取獎賞）",
        "en": "Battle AT (gain the abilities that raise AT, for the masquerades' rewards)",
    },
    "scenario_rush": {
        "ja": "シナリオラッシュ（毎ターンシナリオを解決し、解決を助けるカードだけを獲得）",
        "zh-hant": "事件速攻（每回合解決事件，只獲得幫助解決的卡）",
        "en": "Scenario rush (resolve a scenario every turn; gain only the cards that help to resolve)",
    },
}

ROLES = {
    "starting": {"ja": "初期デッキ", "zh-hant": "起始牌庫", "en": "starting deck"},
    "job": {"ja": "ジョブの山", "zh-hant": "職業牌堆", "en": "job pile"},
    "ability": {"ja": "アビリティの山", "zh-hant": "特技牌堆", "en": "ability pile"},
    "thorn": {"ja": "ソーン", "zh-hant": "棘", "en": "thorn"},
    "masquerade": {"ja": "マスカレイド", "zh-hant": "假面", "en": "masquerade"},
    "scenario": {"ja": "シナリオ", "zh-hant": "劇本", "en": "scenario"},
}


# What a seated person is asked (the engine's ``Decider`` kinds), in three languages.
CHOICE_WORDS: dict[str, dict[str, str]] = {
    "play": {
        "ja": "手札からカードをプレイするか、プレイを終えてください。",
        "zh-hant": "從手牌打出一張卡，或停止打牌。",
        "en": "Play a card from your hand, or stop playing.",
    },
    "act": {
        "ja": "分岐点のシナリオを解決しますか、それともこのターンのスキルでカードを獲得しますか？",
        "zh-hant": "要解決路口的事件，還是用本回合的技能獲得卡片？",
        "en": "Resolve the scenario at the junction, or gain cards with this turn's skills?",
    },
    "gain": {
        "ja": "カードを獲得する（コストはこのターンのスキルから支払います）か、これ以上獲得しないかを選んでください。",
        "zh-hant": "獲得一張卡（費用由本回合的技能支付），或不再獲得。",
        "en": "Gain a card (its cost is paid from this turn's skills), or gain nothing more.",
    },
    "thorn": {
        "ja": "どのマスカレイドにソーンを置きますか？",
        "zh-hant": "要把棘放到哪隻假面上？",
        "en": "Which masquerade takes your thorn?",
    },
    "may": {"ja": "{card}: {phrase}？", "zh-hant": "{card}：{phrase}？", "en": "{card}: {phrase}?"},
    "pick": {
        "ja": "{card}: {phrase}。カードを１枚ずつ選ぶか、選ぶのを終えてください。",
        "zh-hant": "{card}：{phrase}。一次選一張卡，或停止選擇。",
        "en": "{card}: {phrase}. Choose a card, one at a time, or stop choosing.",
    },
    "place": {
        "ja": "{card}: {chosen}をどこに置きますか？",
        "zh-hant": "{card}：{chosen}要放到哪裡？",
        "en": "{card}: where does {chosen} go?",
    },
    "stop:pick": {"ja": "これ以上選ばない", "zh-hant": "不再選擇", "en": "Choose no more"},
    "place:discard": {"ja": "捨て札にする", "zh-hant": "棄牌堆", "en": "To the discard pile"},
    "place:destroy": {
        "ja": "破壊する（ゲームから除外）",
        "zh-hant": "破壞（移出遊戲）",
        "en": "Destroy (out of the game)",
    },
    "place:top": {"ja": "山札の上に置く", "zh-hant": "放回牌庫上方", "en": "On top of the deck"},
    "stop:play": {"ja": "プレイを終える", "zh-hant": "停止打牌", "en": "Stop playing"},
    "stop:gain": {"ja": "これ以上獲得しない", "zh-hant": "不再獲得", "en": "Gain nothing more"},
    "resolve": {"ja": "シナリオを解決する", "zh-hant": "解決事件", "en": "Resolve the scenario"},
    "gain_cards": {"ja": "カードを獲得する", "zh-hant": "獲得卡片", "en": "Gain cards"},
    "masquerade": {"ja": "マスカレイド {place}", "zh-hant": "假面 {place}", "en": "Masquerade {place}"},
    "yes": {"ja": "はい", "zh-hant": "是", "en": "Yes"},
    "no": {"ja": "いいえ", "zh-hant": "否", "en": "No"},
}


# An assumption whose reach depends on the cards of a set-up, said beside the results of a set-up holding the card
# (``rules.ASSUMPTIONS`` states each with its reason).
SETUP_NOTES: dict[str, dict[str, str]] = {
    "EB1-048": {
        "ja": "ヘカトンケイルの「場の都市国家すべて」：どのカードが都市国家かは規則に書かれていないため、"
        "この結果ではどのカードも都市国家として扱っていません（効果は起きません）。",
        "zh-hant": "ヘカトンケイル的「場上所有的都市國家」：規則沒有說明哪些卡是都市國家，"
        "因此這個結果中沒有任何卡被當作都市國家（效果不會發生）。",
        "en": "ヘカトンケイル's 「場の都市国家すべて」: the rules do not say which cards are 都市国家, so these "
        "results take no card as one (its effect never happens).",
    }
}


def result_notes(setup: Setup, language: str) -> list[str]:
    """The assumptions the results on ``setup`` rest on, by card present (``SETUP_NOTES``), in ``language``."""
    present = {card.key for card in (*setup.masquerades, *setup.abilities, *setup.jobs)}
    return [pick(words, language) or words["en"] for key, words in SETUP_NOTES.items() if key in present]


def describe_choice(
    kind: str, options: Sequence[str], names: Mapping[str, str], language: str
) -> tuple[str, list[str]]:
    """A seated person's pending choice (``seated.Pending``) in ``language``: the prompt and each option's label
    (a card by its name and key)."""

    def words(key: str, **params: str) -> str:
        return (pick(CHOICE_WORDS[key], language) or CHOICE_WORDS[key]["en"]).format(**params)

    if kind.startswith("may:"):
        question = kind.removeprefix("may:")
        asked = QUESTIONS.get(question)
        card = names.get(question.split(":")[0], question)
        prompt = words("may", card=card, phrase=asked.phrase if asked else question)
        return prompt, [words(option) for option in options]
    if kind.startswith("place:"):  # ``place:<question>:<card key>``: where the card goes
        question, chosen = kind.removeprefix("place:").rsplit(":", 1)
        prompt = words("place", card=names.get(question.split(":")[0], question), chosen=names.get(chosen, chosen))
        return prompt, [words(f"place:{option}") for option in options]
    if kind.startswith("pick:"):  # ``pick:<question>``: a card at a time, or stop
        question = kind.removeprefix("pick:")
        asked = QUESTIONS.get(question)
        card = names.get(question.split(":")[0], question)
        prompt = words("pick", card=card, phrase=asked.phrase if asked else question)
        return prompt, [words("stop:pick") if option == STOP else card_label(option, names) for option in options]
    labels = []
    for option in options:
        if option == STOP:
            labels.append(words(f"stop:{'play' if kind == 'play' else 'gain'}"))
        elif kind == "act":
            labels.append(words("resolve" if option == "resolve" else "gain_cards"))
        elif kind == "thorn":
            labels.append(words("masquerade", place=option))
        else:
            labels.append(card_label(option, names))
    return words(kind), labels


def next_play(kind: str, options: Sequence[str]) -> str | None:
    """「行動を消費してカードをプレイする」 for a whole hand: the first card a play choice offers, in hand order (the
    stop is always offered last), until none is left."""
    return options[0] if kind == "play" and options and options[0] != STOP else None


def card_label(key: str, names: Mapping[str, str]) -> str:
    """A card by its name and key, the key left out where it is the name (a job's pile is keyed by its name)."""
    name = names.get(key, key)
    return name if name == key else f"{name} ({key})"


def build_setup(cards: Sequence[SimCard], abilities: Sequence[str] = ()) -> Setup:
    """The set-up of seed 000's 遊戲準備 from ``cards`` (the game's cards, in card-number order); ``abilities``:
    the 9 ability piles chosen by key (none: the first 9). Raises ``SetupRefused`` naming every card and value
    that is missing, or the counts that do not add up."""
    by_key = {card.key: card for card in cards}
    refused: list[Refused] = []
    problems: list[SetupProblem] = []

    def one(key: str, role: str, kind: str | None) -> SimCard | None:
        card = by_key.get(key)
        if card is None:
            refused.append(Refused(key, None, role, kind))
        return card

    starting = {role: one(key, "starting", None if role == "tavern" else "job") for role, key in STARTING.items()}
    jobs = [one(key, "job", "job") for key in JOB_PILE_KEYS]
    thorn = one(THORN_KEY, "thorn", "thorn")
    of_kind = {kind: [card for card in cards if card.kind == kind] for kind in ("ability", "masquerade", "scenario")}
    if abilities:
        chosen = [by_key[key] for key in abilities if key in by_key and by_key[key].kind == "ability"]
        unknown = [key for key in abilities if key not in by_key or by_key[key].kind != "ability"]
        problems += [SetupProblem("not_choosable", {"key": key}) for key in unknown]
    else:
        chosen = of_kind["ability"][:ABILITY_PILES]
    if len(of_kind["ability"]) < ABILITY_PILES:
        refused.append(Refused("", None, "ability", "ability"))
    elif len(chosen) != ABILITY_PILES:
        problems.append(SetupProblem("choose_count", {"count": ABILITY_PILES, "chosen": len(chosen)}))
    if len(of_kind["masquerade"]) < 2 * MASQUERADES_IN_PLAY:
        refused.append(Refused("", None, "masquerade", "masquerade"))
    if len(of_kind["scenario"]) < 2:
        refused.append(Refused("", None, "scenario", "scenario"))
    if refused or problems:
        raise SetupRefused(refused, problems)
    assert thorn is not None and all(starting.values()) and all(jobs)
    setup = Setup(
        tavern=starting["tavern"],  # type: ignore[arg-type]
        knight=starting["knight"],  # type: ignore[arg-type]
        hunter=starting["hunter"],  # type: ignore[arg-type]
        astromancer=starting["astromancer"],  # type: ignore[arg-type]
        jobs=tuple(jobs),  # type: ignore[arg-type]
        abilities=tuple(chosen),
        scenarios=tuple(of_kind["scenario"]),
        masquerades=tuple(of_kind["masquerade"]),
        thorn=thorn,
    )
    try:
        setup.check_counts()
    except SetupError as error:
        raise SetupRefused([], [SetupProblem("counts", {"detail": str(error)})]) from error
    missing = missing_values(setup)
    if missing:
        raise SetupRefused([Refused(entry.key, entry.field, entry.role) for entry in missing])
    return setup


assert len(JOB_PILE_KEYS) == JOB_PILES

FULLGAME = register(
    FullGame(
        game="endbreaker",
        names={"ja": "エンドブレイカー！SCG", "zh-hant": "エンドブレイカー！SCG", "en": "Endbreaker! SCG"},
        card_needs=CARD_NEEDS,
        strategies=STRATEGIES,
        strategy_labels=STRATEGY_LABELS,
        roles=ROLES,
        build_setup=build_setup,
        choosable=("ability",),
        choose_count=ABILITY_PILES,
        read_strategy=lambda text, name, spellings, gainable: parse_strategy(
            text, name=name, cards=spellings, gainable=gainable
        ),
        write_strategy=format_strategy,
        strategy_messages=STRATEGY_MESSAGES,
        gainable_kinds=("job", "ability"),
        questions=QUESTIONS,
        syntax_template="simulator/strategy_syntax/endbreaker.html",
        setup_type=Setup,
        advance=seated.advance,
        table_view=seated.table_view,
        wrong_answer=seated.WrongAnswer,
        describe_choice=describe_choice,
        next_play=next_play,
        result_notes=result_notes,
        event_kinds=EVENT_KINDS,
        search=SearchHooks(
            start=lambda seed, setup, players, config: evolve.start_state(
                seed, setup, players=players, config=evolve.EvolutionConfig(**config)
            ),
            step=lambda state, setup, generations: evolve.step(state, setup, generations),
            report=lambda state, setup, games: evolve.final_report(state, setup, games),
            to_dict=lambda state: state.to_dict(),
            from_dict=evolve.EvolutionState.from_dict,
        ),
    )
)
