"""エンドブレイカー！SCG, the whole game (seed 000): set-up, phases, battles, the end, effects and strategies.

Every value here is synthetic (keys EB9-9xx, names テスト…): the seed gives almost none. The scripted cards
(EB1-001, EB1-008, EB1-017, EB1-018, EB1-021) keep their real keys so their effects run, with synthetic values.
"""

from collections import Counter

import pytest

from simulator.core import SimCard
from simulator.engines.endbreaker_game import (
    BIG_DARC,
    GainRule,
    Game,
    InPlay,
    MissingCardValues,
    MissingValue,
    Rules,
    SetupError,
    Strategy,
    missing_values,
    place_rewards,
    play_game,
)
from simulator.engines.endbreaker_game.skills import pay

from .support.endbreaker_game import (
    ABILITIES,
    ASTROMANCER,
    HUNTER,
    JOBS,
    KNIGHT,
    MASQUERADES,
    SCENARIOS,
    TAVERN,
    THORN,
    card,
    make_setup,
    new_game,
)


def fill(player, *cards):
    """Puts ``cards`` in the hand (the rest of the player's cards go to the deck)."""
    player.deck += player.hand
    player.hand = list(cards)


def test_set_up_places_the_piles_the_scenario_pair_the_masked_masquerades_and_the_starting_decks():
    game = new_game(players=3, pile_size=8)
    assert sorted(game.supply) == sorted(c.key for c in (*JOBS, *ABILITIES))
    assert all(len(pile) == 8 for pile in game.supply.values())
    assert game.scenario_right is not None and len(game.scenario_pile) == len(SCENARIOS) - 1
    assert len(game.masquerades) == 3 and all(m.stage == 0 for m in game.masquerades)
    assert len(game.masquerade_pile) == len(MASQUERADES) - 3
    for player in game.players:
        owned = Counter(c.key for c in player.owned())
        assert owned == {"EB1-001": 4, "EB9-902": 2, "EB9-903": 2, "EB9-904": 2}
        assert len(player.hand) == 5 and len(player.deck) == 5
        assert player.thorns == 7 and player.darc == 0


def test_set_up_refuses_wrong_counts():
    with pytest.raises(SetupError, match="abilities"):
        Game(make_setup(abilities=ABILITIES[:8]), [BIG_DARC], 1)
    with pytest.raises(SetupError, match="players"):
        Game(make_setup(), [BIG_DARC] * 5, 1)


def test_unknown_values_are_reported_by_card_and_field_and_the_game_does_not_start():
    no_cost = card("EB9-990", "ability", skill="P", at=1)
    no_damage = card("EB9-991", "masquerade", payout="6-4-2-0")
    setup = make_setup(abilities=(*ABILITIES[:8], no_cost), masquerades=(*MASQUERADES[:7], no_damage))
    with pytest.raises(MissingCardValues) as refused:
        Game(setup, [BIG_DARC, BIG_DARC], 1)
    assert refused.value.missing == [
        MissingValue("EB9-990", "cost", "ability"),
        MissingValue("EB9-991", "damage", "masquerade"),
    ]


def test_the_text_given_at_of_arrow_rain_is_not_asked_for():
    assert missing_values(make_setup()) == []


def test_skills_pay_costs_with_wild_standing_for_any_one():
    # 「例如本回合玩家打了 : 魔獸戰士(PP)、スカイランナー(TT)、城塞騎士(P)x2，共獲得PPPPTT。
    # 則可用這些技能值獲得特技練刺棍(PPT)兩張、或者劍衝擊(PPPT)+居合斬(PT)。」
    pool = Counter("PPPPTT")
    left = pay(pool, "PPT")
    assert left is not None and pay(left, "PPT") == Counter()
    left = pay(pool, "PPPT")
    assert left is not None and pay(left, "PT") == Counter()
    assert pay(pool, "PPPPP") is None
    assert pay(Counter("P●"), "PT") == Counter()  # 「萬能可以代表前面任１種」
    assert pay(Counter("PT"), "●●") == Counter()


GAINER = Strategy("gainer", gain_priority=(GainRule("*"),), resolve="never")


def test_a_turn_plays_five_cards_gains_with_their_skills_and_adjusts_the_hand():
    game = new_game(strategies=[GAINER, GAINER])
    player = game.players[0]
    fill(player, KNIGHT, KNIGHT, HUNTER, ASTROMANCER, KNIGHT)  # P P T S P: PPPTS
    before = len(player.owned())
    game.play_turn()
    gained = [entry.card for entry in game.log if entry.kind == "gain"]
    # The most expensive cards PPPTS pays for cost 4 (EB1-018 PPPT and EB9-913 PPPS): the pile set up first
    # is taken; the S left pays for EB9-910 (S).
    assert gained == ["EB1-018", "EB9-910"]
    assert len(player.hand) == 5 and player.field == []
    assert len(player.owned()) == before + 2 and len(game.supply["EB1-018"]) == 9
    assert [entry.kind for entry in game.log if entry.seat == 0 and entry.turn == 1][:2] == ["start", "play"]
    assert game.current == 1 and player.turns_taken == 1


def test_only_five_cards_are_played_without_more_plays():
    game = new_game()
    player = game.players[0]
    fill(player, *[KNIGHT] * 7)
    player.plays = 5
    game.play_cards(player)
    assert len(player.field) == 5 and len(player.hand) == 2


def test_a_scenario_is_resolved_at_most_once_a_turn_and_puts_a_thorn_on_a_masquerade():
    game = new_game()
    player = game.players[0]
    player.field = [InPlay(KNIGHT, "PTPTPT", 0)]
    right = game.scenario_right
    assert game.resolve_scenario(player)
    assert player.darc == 2 and player.thorns == 6
    assert right in game.scenarios_out and game.scenario_right is not right
    assert sorted(m.stage for m in game.masquerades) == [0, 0, 1]
    # 「一回合不能解決兩次以上的事件。」
    assert not game.resolve_scenario(player)
    assert player.darc == 2 and player.thorns == 6


def test_resolving_is_instead_of_gaining():
    game = new_game()
    player = game.players[0]
    fill(player, KNIGHT, HUNTER, KNIGHT, KNIGHT, KNIGHT)  # PPPPT: pays the junction PT
    game.play_turn()
    kinds = [entry.kind for entry in game.log if entry.seat == 0]
    assert "scenario" in kinds and "gain" not in kinds


def test_hand_adjustment_discards_everything_and_shuffles_when_the_deck_runs_out():
    game = new_game()
    player = game.players[0]
    player.deck = [KNIGHT, KNIGHT]
    player.hand = [HUNTER]
    player.field = [InPlay(ASTROMANCER, "S", 1)]
    player.discard = [TAVERN] * 4
    game.adjust_hand(player)
    # 2 from the deck, then the 6 discarded cards are shuffled into a new deck and 3 more are drawn.
    assert len(player.hand) == 5 and player.field == [] and player.discard == [] and len(player.deck) == 3
    assert Counter(c.key for c in player.owned()) == {"EB1-001": 4, "EB9-902": 2, "EB9-903": 1, "EB9-904": 1}
    assert [(entry.kind, entry.amount) for entry in game.log[-2:]] == [("shuffle", 6), ("draw", 5)]


def test_shared_places_average_their_rewards_rounded_down():
    # 「例如在上例中，前兩名玩家如果平手則兩人都獲得5000。」
    assert place_rewards([6, 4, 2, 0], [9, 9, 3]) == [5, 5, 2]
    assert place_rewards([6, 4, 2, 0], [1, 5, 5, 5]) == [0, 4, 4, 4]
    assert place_rewards([6, 4, 2, 0], [7]) == [6]


def test_a_battle_ranks_by_at_halves_an_incapacitated_reward_and_gives_the_thorns_back():
    game = new_game(players=2)
    masquerade = game.masquerades[0]
    masquerade.thorns = [0, 0, 1]
    a, b = game.players
    a.thorns, b.thorns = 5, 6
    big = card("EB9-960", "job", skill="", at=5)
    a.hand, a.deck, a.discard, a.field = [], [big] * 25, [], []
    b.hand, b.deck, b.discard, b.field = [], [KNIGHT] * 5, [], []
    game.masquerade_pile[-1] = card("EB9-961", "masquerade", payout="9-9", damage=4)
    game.battle(masquerade)
    # a plays 5 cards of AT 5 (AT 25) and is first: 6 of 6-4-2-0; b plays its whole deck (AT 5), so its
    # deck is empty after the damage: incapacitated, its 4 is halved.
    rewards = [(entry.seat, entry.amount, entry.detail) for entry in game.log if entry.kind == "reward"]
    assert rewards == [(0, 6, "AT 25"), (1, 2, "AT 5")]
    assert [entry.amount for entry in game.log if entry.kind == "damage"] == [4, 4]
    assert any(entry.kind == "incapacitated" and entry.seat == 1 for entry in game.log)
    assert (a.thorns, b.thorns) == (7, 7)
    assert masquerade.fought and game.battles == 1
    assert all(len(p.hand) == 5 or not (p.deck or p.discard) for p in game.players)


def test_a_whole_game_ends_after_the_third_battle_and_names_the_winner():
    game = play_game(make_setup(), [BIG_DARC, BIG_DARC, BIG_DARC], seed=5)
    assert game.over and not game.stopped and game.battles == 3
    assert all(m.fought for m in game.masquerades)
    best = max(p.darc for p in game.players)
    assert all(game.players[seat].darc == best for seat in game.winners)
    assert game.log[-1].kind == "end"


def test_ties_go_to_the_smaller_deck_then_it_is_a_draw():
    game = new_game(players=3)
    a, b, c = game.players
    a.darc = b.darc = c.darc = 8
    a.deck, b.deck, c.deck = [KNIGHT] * 4, [KNIGHT] * 3, [KNIGHT] * 3
    game.finish()
    assert game.winners == [1, 2]
    c.darc = 7
    game.finish()
    assert game.winners == [1]


def test_the_same_seed_plays_the_same_game():
    one = play_game(make_setup(), [BIG_DARC, BIG_DARC], seed=42)
    two = play_game(make_setup(), [BIG_DARC, BIG_DARC], seed=42)
    other = play_game(make_setup(), [BIG_DARC, BIG_DARC], seed=43)
    assert one.log == two.log and one.winners == two.winners
    assert one.log != other.log


def test_a_strategy_that_never_resolves_is_stopped_not_ended():
    never = Strategy("never", gain_priority=(GainRule("*"),), resolve="never")
    game = play_game(make_setup(), [never], seed=1, rules=Rules(max_turns=12))
    assert game.stopped and game.battles == 0 and game.turn == 12


# Card effects, each from its text -----------------------------------------------------------------------


def scripted_turn(*field_skills, answers=None):
    strategy = Strategy("test", answers=answers or {})
    game = new_game(strategies=[strategy, strategy])
    player = game.players[0]
    player.field = [InPlay(card(f"EB9-97{n}", "job"), skill, 1) for n, skill in enumerate(field_skills)]
    player.plays = 5
    return game, player


def test_tavern_may_turn_the_p_t_s_of_up_to_two_field_cards_into_b():
    # EB1-001「[日常]場のカード２枚までを選び、「スキル：P・T・S」すべてを「スキル：B」に変更してもよい。」
    # 「[日常] 選擇場上最多２張卡片，將技能P、T、S全變成技能B。」
    game, player = scripted_turn("PT", "S", "PPT", answers={"EB1-001": True})
    fill(player, TAVERN)
    game.play(player, TAVERN)
    assert [c.skill for c in player.field] == ["BB", "S", "BBB", ""]
    assert game.skills(player) == Counter({"B": 5, "S": 1})


def test_tavern_changes_nothing_when_the_strategy_declines():
    game, player = scripted_turn("PT", answers={"EB1-001": False})
    fill(player, TAVERN)
    game.play(player, TAVERN)
    assert player.field[0].skill == "PT"


def test_the_play_loop_leaves_out_only_the_effects_a_strategy_says_no_to():
    # The play loop skips an effect that only asks and that the seat's strategy declines: the same tavern in
    # the same game still changes skills for the seat whose strategy says yes.
    yes, no = Strategy("yes", answers={"EB1-001": True}), Strategy("no")
    game = new_game(strategies=[yes, no])
    for player in game.players:
        player.field = [InPlay(card("EB9-970", "job"), "PT", 1)]
        player.plays = 1
        fill(player, TAVERN)
        game.play_cards(player)
    assert [c.skill for c in game.players[0].field] == ["BB", ""]
    assert [c.skill for c in game.players[1].field] == ["PT", ""]


def test_iai_giri_may_turn_b_into_wild_on_up_to_two_cards():
    # EB1-008「[日常]場のカード２枚までを選び、「スキル：B」すべてを「スキル：●」に変更してもよい。」
    game, player = scripted_turn("BB", "PB", "B", answers={"EB1-008": True})
    iai = ABILITIES[0]
    fill(player, iai)
    game.play(player, iai)
    assert [c.skill for c in player.field] == ["●●", "P●", "B", "B"]


def test_kirisaki_may_give_two_more_plays():
    # EB1-017「[日常・戦闘]「プレイ可能枚数：＋２」してもよい。」「[日常/戰鬥] 可獲得行動+2」
    game, player = scripted_turn()
    fill(player, ABILITIES[1])
    game.play(player, ABILITIES[1])
    assert player.plays == 5 - 1 + 2
    game, player = scripted_turn(answers={"EB1-017": False})
    fill(player, ABILITIES[1])
    game.play(player, ABILITIES[1])
    assert player.plays == 4


def test_void_scratch_may_draw_three():
    # EB1-018「[日常・戦闘]「ドロー：＋３」してもよい。」「[日常・戦闘] 可獲得抽牌+3。」
    game, player = scripted_turn()
    fill(player, ABILITIES[2])
    game.play(player, ABILITIES[2])
    assert len(player.hand) == 3


def test_arrow_rain_has_the_at_of_the_abilities_played_and_may_draw_one_and_play_one_more():
    # EB1-021「ＡＴ：プレイしているアビリティ枚数」「[日常・戦闘]「ドロー：＋１＆プレイ可能枚数：＋１」してもよい。」
    game, player = scripted_turn()
    rain = ABILITIES[3]
    fill(player, ABILITIES[1], rain)
    game.play(player, ABILITIES[1])
    game.play(player, rain)
    assert game.at_of(player, player.field[-1]) == 2
    assert len(player.hand) == 1 and player.plays == 5 - 2 + 2 + 1


def ability(key, **fields):
    return card(key, "ability", **{"cost": "PT", "skill": "", "at": 1, "attribute": "S", **fields})


JOB_A = card("EB9-980", "job", skill="P", at=1, cost="P", attribute="P")
JOB_T = card("EB9-981", "job", skill="T", at=3, cost="T", attribute="T")
JOB_S = card("EB9-982", "job", skill="S", at=1, cost="S", attribute="S")
BLANK = card("EB9-983", "city", skill="", at=0)


def play_one(game, player, played):
    player.hand.append(played)
    game.play(player, played)
    return player.field[-1]


def test_shield_guard_may_draw_two_and_in_battle_takes_three_less_damage_and_pays_two_with_ten_cards_left():
    # EB1-009「[日常]「ドロー：＋２」してもよい。[戦闘]「ダメージ：－３」してもよい。戦闘終了時、
    # 山札が１０枚以上残っている場合、
    # 『１０００ダルク』２枚を獲得する。」
    game, player = scripted_turn()
    player.hand = []
    play_one(game, player, ability("EB1-009"))
    assert len(player.hand) == 2
    shield = ability("EB1-009")
    game = fight(MASQ, [[shield] * 20, [KNIGHT] * 20], damage=4)
    # Five shield guards take 15 off the damage of 4; each pays 2 with 15 cards left in the deck.
    assert [e.amount for e in game.log if e.kind == "damage"] == [0, 4]
    assert [(e.seat, e.amount) for e in game.log if e.kind == "darc"] == [(0, 2)] * 5
    game = fight(MASQ, [[shield] * 14, [KNIGHT] * 20], damage=0)
    assert [e.kind for e in game.log].count("darc") == 0  # 9 cards left


def test_ren_shi_kon_reveals_until_two_jobs_and_may_take_them():
    # EB1-010「ジョブ２枚がでるまで山札を公開し、公開したジョブを手札に加えてもよい。
    # 残りの公開したカードは捨て札にする。」
    game, player = scripted_turn()
    player.hand, player.deck, player.discard = [], [KNIGHT, JOB_A, BLANK, JOB_T, BLANK], []
    play_one(game, player, ability("EB1-010"))
    assert player.hand == [JOB_T, JOB_A] and player.discard == [BLANK, BLANK] and player.deck == [KNIGHT]


def test_sword_rush_destroys_up_to_two_jobs_in_hand_for_three_at_each():
    # EB1-011「[戦闘]手札のジョブ２枚までを破壊してもよい。破壊したジョブ１枚ごとに、このカードを「ＡＴ：＋３」する。」
    game, player = scripted_turn()
    game.in_battle = True
    player.hand = [JOB_A, BLANK, JOB_T, JOB_S]
    rush = play_one(game, player, ability("EB1-011", at=2))
    assert rush.at == 2 + 6 and len(player.destroyed) == 2 and player.hand.count(BLANK) == 1


def test_wild_swing_may_discard_or_destroy_up_to_three_and_draw_as_many():
    # EB1-012「[日常]手札３枚までを好きに割り振って、捨て札または破壊してもよい。
    # 捨て札や破壊したカードの合計数だけ「ドロー」してもよい。」
    game, player = scripted_turn(answers={"EB1-012": True})
    player.hand, player.deck, player.discard = [BLANK, JOB_A, BLANK, BLANK], [JOB_T] * 5, []
    play_one(game, player, ability("EB1-012"))
    assert player.discard == [BLANK] * 3 and sorted(c.key for c in player.hand) == ["EB9-980"] + ["EB9-981"] * 3


def test_axe_divide_may_destroy_a_card_and_gain_one_costing_one_symbol_more():
    # EB1-013「[日常]手札１枚を破壊してもよい。破壊したカードの「コスト数＋１以下」
    # のコスト数を持つカード１枚を獲得してもよい。」
    game, player = scripted_turn(answers={"EB1-013": True})
    game.players[0].strategy = Strategy("test", gain_priority=(GainRule("*"),), answers={"EB1-013": True})
    player.hand = [JOB_A]
    play_one(game, player, ability("EB1-013"))
    gained = [e.card for e in game.log if e.kind == "gain"]
    assert player.destroyed == [JOB_A] and len(gained) == 1
    assert len(str(game.supply[gained[0]][-1].fields["cost"])) <= 2


def test_genocide_hammer_gives_wild_to_every_other_card_of_at_three_or_more():
    # EB1-014「[日常]場の「ＡＴ：３以上」のカードすべてに「スキル：●」
    # を与えてもよい（『ジェノサイドハンマー』を除く）。」
    game, player = scripted_turn()
    player.field = [InPlay(JOB_T, "T", 3), InPlay(JOB_A, "P", 1)]
    hammer = play_one(game, player, ability("EB1-014", at=4, skill="P"))
    assert [c.skill for c in player.field] == ["T●", "P", "P"] and hammer.skill == "P"


def test_capture_may_draw_one_and_put_two_hand_cards_on_the_deck_before_hand_adjustment():
    # EB1-015「[日常]「ドロー：＋１」してもよい。次の手札調整フェイズ前に、手札２枚までを山札の上に置いてもよい。」
    game, player = scripted_turn()
    player.hand, player.deck, player.discard = [JOB_T, JOB_S], [BLANK] * 10, []
    play_one(game, player, ability("EB1-015"))
    assert len(player.hand) == 3
    game.adjust_hand(player)
    assert JOB_T in player.hand and JOB_S in player.hand and len(player.hand) == 5


def test_sonic_wave_makes_every_other_player_draw_one():
    # EB1-016「[日常]他プレイヤーすべては「ドロー：＋１」する。」
    game, player = scripted_turn()
    other = game.players[1]
    before = len(other.hand)
    player.hand = []
    play_one(game, player, ability("EB1-016"))
    assert len(other.hand) == before + 1 and player.hand == []


def test_tonfa_combo_reveals_until_an_ability():
    # EB1-019「アビリティ１枚がでるまで山札を公開し、公開したアビリティを手札に加えてもよい。
    # 残りの公開したカードは捨て札にする。」
    game, player = scripted_turn()
    found = ability("EB9-984")
    player.hand, player.deck, player.discard = [], [found, JOB_A, BLANK], []
    play_one(game, player, ability("EB1-019"))
    assert player.hand == [found] and player.discard == [BLANK, JOB_A] and player.deck == []


def test_lance_impact_resolves_a_scenario_as_an_effect_when_the_hand_has_p_t_and_s():
    # EB1-020「[日常]手札に「属性：Ｐ・Ｔ・Ｓ」の３種が揃っている場合、それを公開し、シナリオ１枚を解決してもよい
    # （シナリオ解決は効果であり、日常フェイズの各行動は別に行える）。」
    game, player = scripted_turn()
    player.hand = [JOB_A, JOB_T]
    play_one(game, player, ability("EB1-020"))
    assert player.darc == 0
    player.hand = [JOB_A, JOB_T, JOB_S]
    play_one(game, player, ability("EB1-020"))
    assert player.darc == 2 and player.thorns == 6
    player.field.append(InPlay(KNIGHT, "PT", 1))
    assert game.resolve_scenario(player)  # the daily phase's own resolution is still there
    assert not game.resolve_scenario(player)


def test_flowing_dance_may_draw_one_and_update_a_scenario():
    # EB1-022「[日常]「ドロー：＋1」してもよい。シナリオ1枚を更新してもよい。」
    game, player = scripted_turn(answers={"EB1-022:update": True})
    right, left = game.scenario_right, game.scenario_pile[-1]
    player.hand = []
    play_one(game, player, ability("EB1-022"))
    assert len(player.hand) == 1 and game.scenario_right is left and right in game.scenarios_out and player.darc == 0


def test_black_whirlwind_mills_two_and_gains_a_wild_per_job():
    # EB1-023「[日常]山札２枚を捨て札にしてもよい。この効果で捨て札にしたジョブ１枚ごとに、このカードに「スキル：●」
    # を与える。」
    game, player = scripted_turn()
    player.deck, player.discard = [BLANK, BLANK, JOB_A, JOB_T], []
    whirlwind = play_one(game, player, ability("EB1-023", skill="P"))
    assert whirlwind.skill == "P●●" and player.discard == [JOB_T, JOB_A]


def test_get_set_keeps_on_top_or_discards_the_three_cards_looked_at():
    # EB1-024「山札を上から３枚確認してもよい。確認したカードを好きに割り振って、山札の上か捨て山に置く。」
    game, player = scripted_turn()
    player.deck, player.discard = [JOB_S, JOB_A, BLANK, JOB_T], []
    play_one(game, player, ability("EB1-024"))
    assert player.deck == [JOB_S, JOB_A, JOB_T] and player.discard == [BLANK]


def test_lance_windmill_may_draw_two_and_give_a_card_of_at_two_or_more_two_at():
    # EB1-025「「ドロー：＋２」してもよい。場の「ＡＴ：２以上」のカード１枚を「ＡＴ：＋２」してもよい。」
    game, player = scripted_turn()
    player.hand = []
    player.field = [InPlay(JOB_A, "P", 1), InPlay(JOB_T, "T", 3)]
    play_one(game, player, ability("EB1-025"))
    assert len(player.hand) == 2 and [c.at for c in player.field] == [1, 5, 1]


def test_magic_missile_discards_a_hand_card_for_a_wild():
    # EB1-026「[日常]手札１枚を捨て札か破壊し、このカードに「スキル：●」を与えてもよい。」
    game, player = scripted_turn()
    player.hand, player.discard = [JOB_T, BLANK], []
    missile = play_one(game, player, ability("EB1-026"))
    assert missile.skill == "●" and player.discard == [BLANK] and player.hand == [JOB_T]


def test_discord_draws_seven_at_hand_adjustment_unless_a_scenario_was_resolved():
    # EB1-027「[日常]このターン、シナリオを解決しなければ、手札調整フェイズのドローを７枚にする。」
    game, player = scripted_turn()
    player.deck = [BLANK] * 20
    play_one(game, player, ability("EB1-027"))
    game.adjust_hand(player)
    assert len(player.hand) == 7
    game, player = scripted_turn()
    player.deck = [BLANK] * 20
    play_one(game, player, ability("EB1-027"))
    player.field.append(InPlay(KNIGHT, "PT", 1))
    assert game.resolve_scenario(player)
    game.adjust_hand(player)
    assert len(player.hand) == 5


def test_ice_blast_gains_a_job_on_the_deck_and_has_two_more_at_against_a_masquerade_with_its_thorn():
    # EB1-028「[日常]ジョブ１枚を獲得し、山札の上に置いてもよい。
    # [戦闘]戦闘の対象となっているマスカレイドにあなたがソーンを乗せていた場合、このカードを「ＡＴ：＋２」してもよい。」
    game, player = scripted_turn()
    game.players[0].strategy = Strategy("test", gain_priority=(GainRule("*"),))
    play_one(game, player, ability("EB1-028"))
    assert player.deck[-1].kind == "job" and player.deck[-1] in JOBS
    blast = ability("EB1-028", at=1)
    game = fight(MASQ, [[blast] * 10, [blast] * 10], thorns=[0])
    # Seat 0's thorn was on the masquerade: its five blasts have AT 3 each (the thorn, drawn last, is not played).
    assert [e.detail for e in game.log if e.kind == "reward"] == ["AT 15", "AT 5"]


def test_thorn_puts_a_hand_card_on_the_bottom_draws_two_and_plays_one_more():
    # EB1-059「[戦闘]手札１枚を山札の一番下に戻し、「ドロー：＋２＆プレイ可能枚数：＋１」する。」
    game, player = scripted_turn()
    game.in_battle = True
    player.hand, player.deck = [JOB_T, BLANK], [JOB_A, JOB_S]
    play_one(game, player, THORN)
    assert player.deck == [BLANK] and sorted(c.key for c in player.hand) == ["EB9-980", "EB9-981", "EB9-982"]
    assert player.plays == 5 - 1 + 1


# Masquerades -----------------------------------------------------------------------------------------------

MASQ = card("EB9-970", "masquerade", payout="0", damage=0)


def masq(key):
    return card(key, "masquerade", payout="6-4-2-0", damage=2)


def fight(masquerade_card, decks, thorns=(), damage=0, current=0, strategies=None, **rules):
    game = new_game(players=len(decks), strategies=strategies, **rules)
    fought = game.masquerades[0]
    fought.card, fought.thorns = masquerade_card, list(thorns)
    for player, deck in zip(game.players, decks, strict=True):
        player.hand, player.deck, player.discard, player.field = [], list(deck), [], []
    game.masquerade_pile[-1] = card("EB9-961", "masquerade", payout="0", damage=damage)
    game.current = current
    game.battle(fought)
    return game


def ats(game):
    return [e.detail for e in game.log if e.kind == "reward"]


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("EB1-039", "[戦闘]場の「属性：Ｐ」のカードすべてを「ＡＴ：＋１」する。", ["AT 10", "AT 15"]),
        ("EB1-040", "[戦闘]場の「属性：Ｔ」のカードすべてを「ＡＴ：＋１」する。", ["AT 5", "AT 20"]),
        ("EB1-051", "[戦闘]場のジョブすべてを「ＡＴ：＋２」する。", ["AT 15", "AT 25"]),
        (
            "EB1-052",
            "[戦闘]場のアビリティすべてを「ＡＴ：－２」する（０以下になった場合、０として扱う）。",
            ["AT 5", "AT 15"],
        ),
    ],
)
def test_masquerades_that_change_the_at_in_their_battle(key, text, expected):
    game = fight(masq(key), [[JOB_A] * 10, [JOB_T] * 10])
    assert ats(game) == expected, text
    assert ats(fight(masq("EB1-052"), [[ability("EB9-985", at=1)] * 10, [JOB_A] * 10])) == ["AT 0", "AT 5"]


def test_walking_cactus_gives_two_more_plays_in_its_battle():
    # EB1-046「[戦闘]プレイヤーすべては戦闘フェイズ開始時に得られる「プレイ可能枚数：＋２」する。」
    game = fight(masq("EB1-046"), [[JOB_A] * 10, [JOB_A] * 10])
    assert all(p.plays == 2 for p in game.players)  # 7 plays, 5 cards in hand


def test_insectea_adds_three_to_a_damage_of_sixteen_or_more():
    # EB1-047「[戦闘]ダメージ適用時、公開したダメージが１６以上の場合、「ダメージ：＋３」する。」
    game = fight(masq("EB1-047"), [[JOB_A] * 30], damage=16)
    assert [e.amount for e in game.log if e.kind == "damage"] == [19]
    game = fight(masq("EB1-047"), [[JOB_A] * 30], damage=15)
    assert [e.amount for e in game.log if e.kind == "damage"] == [15]


def test_bamboo_man_takes_one_damage_off_per_job_played():
    # EB1-050「[戦闘]場のジョブすべてに「ダメージ：－１」を与える。」
    game = fight(masq("EB1-050"), [[JOB_A] * 30, [BLANK] * 30], damage=8)
    assert [e.amount for e in game.log if e.kind == "damage"] == [3, 8]


def test_alraune_goes_to_the_only_incapacitated_player_and_has_skill_pts():
    # EB1-053「[戦闘]ダメージ適用後、戦闘不能になったプレイヤーが１人の場合、
    # そのプレイヤーはこのカードを捨て山に加える。
    # このカードは「スキル：ＰＴＳ」を持つ。」
    alraune = card("EB1-053", "masquerade", payout="6-4", damage=3)
    game = fight(alraune, [[JOB_A] * 5, [JOB_A] * 30], damage=1)
    down, standing = game.players
    assert down.incapacitated and alraune in down.owned() and alraune not in game.masquerades_out
    assert alraune not in standing.owned()
    down.hand.append(alraune)
    down.plays = 1
    game.play(down, alraune)
    assert down.field[-1].skill == "PTS"


def test_red_baroque_starts_with_the_left_neighbour_and_adds_each_players_at_to_the_damage():
    # EB1-056「[戦闘]このマスカレイドとの戦闘は、ターンプレイヤーの左隣のプレイヤーからプレイを行う。
    # ダメージ適用時、プレイヤーすべては「ダメージ：＋自分の出したＡＴ」する。」
    game = fight(masq("EB1-056"), [[JOB_A] * 30, [JOB_T] * 30], damage=1)
    assert next(e.seat for e in game.log if e.kind == "play") == 1
    assert [e.amount for e in game.log if e.kind == "damage"] == [6, 16]


def test_jester_pays_three_to_the_standing_players_with_the_fewest_cards_in_the_deck():
    # EB1-057「ダメージ適用後、戦闘不能になっていないプレイヤーのうち、
    # 山札の枚数がもっとも少ないプレイヤーすべてが対象。
    # 対象は追加で『１０００ダルク』３枚を獲得する。」
    game = fight(masq("EB1-057"), [[JOB_A] * 5, [JOB_A] * 8, [JOB_A] * 9], damage=1)
    assert [(e.seat, e.amount) for e in game.log if e.kind == "darc"] == [(1, 3)]


def test_prophet_pays_two_to_the_standing_players_who_played_the_most_jobs():
    # EB1-058「ダメージ適用後、戦闘不能になっていないプレイヤーのうち、
    # プレイしたジョブの枚数がもっとも多いプレイヤーすべてが対象。
    # 対象は追加で『１０００ダルク』２枚を獲得する。」
    game = fight(masq("EB1-058"), [[JOB_A] * 10, [BLANK] * 10, [JOB_A] * 10])
    assert [(e.seat, e.amount) for e in game.log if e.kind == "darc"] == [(0, 2), (2, 2)]


def test_hippobone_lets_the_turn_player_gain_a_card_within_pp_t_s_when_its_ability_is_revealed():
    # EB1-042「[日常]ターンプレイヤーは「コスト：ＰＰＴＳ以内」のカード１枚を獲得してもよい。
    # この効果は内容が公開されたターンしか
    # 発揮しない。」
    game = new_game()
    target = game.masquerades[0]
    target.card, target.thorns = masq("EB1-042"), [1]
    game.place_thorn(game.players[0])
    assert target.stage == 2
    assert [e.card for e in game.log if e.kind == "gain"] == ["EB1-017"]  # PPT: the first of the costliest


def test_lily_head_pays_one_at_hand_adjustment_to_a_player_who_played_ten_at():
    # EB1-055「プレイヤーすべてが対象。対象は自分のターンに「合計ＡＴ：１０以上」のカードをプレイしているなら、
    # 手札調整フェイズ開始時に
    # 『１０００ダルク』１枚を獲得する。」
    game = new_game()
    target = game.masquerades[0]
    target.card, target.revealed = masq("EB1-055"), 2
    player = game.players[0]
    player.field = [InPlay(JOB_T, "T", 5), InPlay(JOB_T, "T", 5)]
    game.adjust_hand(player)
    player.field = [InPlay(JOB_T, "T", 9)]
    game.adjust_hand(player)
    assert [(e.seat, e.amount) for e in game.log if e.kind == "darc"] == [(0, 1)]


def test_a_missing_kind_is_reported_and_the_axe_divide_asks_for_the_starting_cards_costs():
    kindless = SimCard("EB9-992", "テストEB9-992", None, {"cost": "P", "skill": "P", "at": 1})
    axe = ability("EB1-013")
    assert missing_values(make_setup(jobs=(*JOBS[:2], kindless))) == [MissingValue("EB9-992", "kind", "job")]
    assert missing_values(make_setup(abilities=(*ABILITIES[:8], axe))) == [
        MissingValue("EB1-001", "cost", "starting")  # the synthetic starting jobs have costs, the tavern none
    ]
    # ラビシャン reads the attribute of every job and ability (「場の「属性：Ｐ」のカードすべて」).
    no_attribute = card("EB9-993", "ability", cost="P", skill="P", at=1)
    setup = make_setup(abilities=(*ABILITIES[:8], no_attribute))
    assert missing_values(setup) == []
    setup = make_setup(abilities=(*ABILITIES[:8], no_attribute), masquerades=(masq("EB1-039"), *MASQUERADES))
    assert missing_values(setup) == [MissingValue("EB9-993", "attribute", "ability")]


def test_every_rule_the_seed_leaves_open_is_a_parameter_with_its_assumption_stated():
    from dataclasses import fields

    from simulator.engines.endbreaker_game import ASSUMPTIONS

    assert {f.name for f in fields(Rules)} == set(ASSUMPTIONS)


def test_a_darc_pile_of_a_given_size_runs_out():
    game = new_game(darc_pile=3)
    a, b = game.players
    game.add_darc(a, 2)
    game.add_darc(b, 2)
    game.add_darc(a, 1)
    assert (a.darc, b.darc, game.darc_left) == (2, 1, 0)


def every_scripted_ability():
    from simulator.engines.endbreaker_game import SCRIPTS

    keys = sorted(key for key in SCRIPTS if "EB1-008" <= key <= "EB1-028")
    return [
        ability(key, cost="P" * (1 + n % 3) + "T", skill="PT"[n % 2] + "S" * (n % 2), attribute="PTS"[n % 3])
        for n, key in enumerate(keys)
    ]


@pytest.mark.parametrize("piles", [0, 9, 12])
def test_whole_games_with_every_scripted_card_end_and_log_only_declared_kinds(piles):
    from simulator.engines.endbreaker_game import LOGGED_KINDS, MASQUERADE_SCRIPTS

    abilities = every_scripted_ability()[piles : piles + 9]
    masquerades = tuple(masq(key) for key in sorted(MASQUERADE_SCRIPTS)) + MASQUERADES
    tavern = card("EB1-001", "city", skill="", at=0, cost="P")  # アクスディバイド reads the starting cards' costs
    setup = make_setup(tavern=tavern, abilities=tuple(abilities), masquerades=masquerades)
    for seed in range(20):
        game = play_game(setup, [BIG_DARC] * (1 + seed % 4), seed)
        assert game.over and not game.stopped and game.battles == 3, seed
        assert {entry.kind for entry in game.log} <= LOGGED_KINDS


def test_a_gain_priority_is_followed_with_its_guards():
    # Dominiate style: one EB9-905 at most, EB1-017 only from the player's third turn, then the costliest card.
    strategy = Strategy(
        "guarded",
        gain_priority=(GainRule("EB9-905", max_owned=1), GainRule("EB1-017", min_turn=3), GainRule("*")),
        resolve="never",
    )
    game = new_game(strategies=[strategy, strategy])
    player = game.players[0]
    player.turns_taken = 1
    player.field = [InPlay(KNIGHT, "PPPPPPT", 1)]
    # PP for EB9-905, PPPT for the costliest (EB1-018); the P left pays for nothing.
    assert game.gain_cards(player) == 2
    player.turns_taken = 3
    game.gain_cards(player)
    # PPT for EB1-017; EB9-905 is owned once, so its own rule passes it by, but the costliest rule takes it twice.
    assert [e.card for e in game.log if e.kind == "gain"] == ["EB9-905", "EB1-018", "EB1-017", "EB9-905", "EB9-905"]


def test_a_strategy_says_when_to_resolve_rather_than_gain_and_where_its_thorn_goes():
    builder = Strategy(
        "builder", gain_priority=(GainRule("*"),), resolve="if_nothing_to_gain", thorn_target="fewest_thorns"
    )
    game = new_game(strategies=[builder, builder])
    player = game.players[0]
    player.field = [InPlay(KNIGHT, "PT", 1)]
    game.choose_and_act(player)
    assert [e.kind for e in game.log if e.kind in ("gain", "scenario")] == ["gain"]  # PT pays for EB1-008
    for pile in game.supply.values():
        pile.clear()
    game.masquerades[0].thorns = [1]
    game.choose_and_act(player)
    assert [e.kind for e in game.log if e.kind in ("gain", "scenario")] == ["gain", "scenario"]
    assert sorted(len(m.thorns) for m in game.masquerades) == [0, 1, 1]  # not on the one that had a thorn


# Fixed outcomes, so that making the engine faster is shown not to change a single game -----------------------


def _outcomes(setup, seeds, strategies_of, **options):
    import hashlib

    rows, logs = [], hashlib.sha256()
    for seed in seeds:
        game = Game(setup, strategies_of(seed), seed, **options)
        game.play_to_end()
        rows.append(
            (
                tuple(game.winners),
                game.turn,
                tuple(p.darc for p in game.players),
                tuple(len(p.deck) for p in game.players),
            )
        )
        logs.update(repr(game.log).encode())
    return rows, logs.hexdigest()[:16]


def test_games_for_fixed_seeds_keep_their_outcomes_and_logs():
    from simulator.engines.endbreaker_game.strategy import BUILD_THEN_RESOLVE

    def pairing(seed):
        return [BIG_DARC, BUILD_THEN_RESOLVE][:: 1 if seed % 2 else -1]

    rows, log_digest = _outcomes(make_setup(), range(6), pairing)
    assert rows == [
        ((1,), 24, (18, 30), (20, 0)),
        ((0,), 27, (35, 13), (3, 18)),
        ((1,), 24, (12, 33), (17, 9)),
        ((0,), 27, (31, 17), (5, 22)),
        ((1,), 22, (14, 28), (7, 7)),
        ((0,), 23, (32, 16), (10, 18)),
    ]
    assert log_digest == "9f980193bce6347b"
    # Without the log the games are the same.
    unlogged, _ = _outcomes(make_setup(), range(6), pairing, log_events=False)
    assert unlogged == rows


@pytest.mark.parametrize("piles, digest", [(0, "b8f60c185b0bdec5"), (9, "dc455442895465df"), (12, "926268af280cecfd")])
def test_games_with_every_scripted_card_keep_their_logs(piles, digest):
    from simulator.engines.endbreaker_game import MASQUERADE_SCRIPTS

    abilities = every_scripted_ability()[piles : piles + 9]
    masquerades = tuple(masq(key) for key in sorted(MASQUERADE_SCRIPTS)) + MASQUERADES
    tavern = card("EB1-001", "city", skill="", at=0, cost="P")
    setup = make_setup(tavern=tavern, abilities=tuple(abilities), masquerades=masquerades)
    assert _outcomes(setup, range(8), lambda seed: [BIG_DARC] * (1 + seed % 4))[1] == digest


def test_can_pay_agrees_with_pay_on_every_small_pool_and_cost():
    from itertools import combinations_with_replacement

    from simulator.engines.endbreaker_game.skills import SYMBOLS, can_pay

    small = ["".join(c) for size in range(4) for c in combinations_with_replacement(SYMBOLS, size)]
    for pool in small:
        for cost in small:
            assert can_pay(Counter(pool), cost) == (pay(Counter(pool), cost) is not None), (pool, cost)


def test_counted_skills_pay_as_the_readable_rule_does():
    from itertools import combinations_with_replacement

    from simulator.engines.endbreaker_game.skills import SYMBOLS, can_pay, can_pay_counts, counts_of, pay_counts

    small = ["".join(c) for size in range(5) for c in combinations_with_replacement(SYMBOLS, size)]
    for pool in small:
        for cost in small:
            left = pay(Counter(pool), cost)
            assert can_pay_counts(counts_of(pool), counts_of(cost)) == can_pay(Counter(pool), cost), (pool, cost)
            expected = None if left is None else counts_of("".join(left.elements()))
            assert pay_counts(counts_of(pool), counts_of(cost)) == expected, (pool, cost)


def test_a_field_of_long_skills_is_counted_exactly_or_refused_never_miscounted():
    """Skills are counted in twelve bits a symbol: a field past that is counted as a whole, and a pool beyond
    it is refused with its reason rather than carried into the next symbol."""
    from simulator.engines.endbreaker_game.skills import COUNT_MAX, can_pay_counts, counts_of

    game = new_game()
    player = game.players[0]
    player.field = [InPlay(card(f"EB9-97{n}", "job"), "P" * 1500, 1) for n in range(2)]  # 3,000 P in all
    pool = game.skill_counts(player)
    assert pool == counts_of("P" * 3000)
    assert can_pay_counts(pool, counts_of("P" * 3000)) and not can_pay_counts(pool, counts_of("T"))
    player.field.append(InPlay(card("EB9-972", "job"), "P" * 1500, 1))  # 4,500 P: more than a pool holds
    with pytest.raises(ValueError, match=str(COUNT_MAX)):
        game.skill_counts(player)
    with pytest.raises(ValueError, match=str(COUNT_MAX)):
        counts_of("●" * (COUNT_MAX + 1))


def _plain_gain(game, pool, named=None):
    """The gain choice written plainly: the named card if paid for, else the most expensive card the pool pays
    for, ties to the pile set up first (what ``Game.choose_gain`` remembers per pool)."""
    from simulator.engines.endbreaker_game.skills import can_pay

    if named is not None and game.supply[named] and can_pay(pool, str(game.supply[named][-1].fields["cost"])):
        return game.supply[named][-1]
    best, most = None, -1
    for pile in game.supply.values():
        if pile and can_pay(pool, str(pile[-1].fields["cost"])) and len(str(pile[-1].fields["cost"])) > most:
            best, most = pile[-1], len(str(pile[-1].fields["cost"]))
    return best


def test_the_remembered_gain_choice_agrees_with_a_plain_search_on_random_hands():
    import random

    from simulator.engines.endbreaker_game.skills import counts_of

    rng = random.Random(13)
    skills = [str(c.fields["skill"]) for c in (KNIGHT, HUNTER, ASTROMANCER, *JOBS, *ABILITIES)] + ["●", "B", "PTS"]
    named = Strategy("named", gain_priority=(GainRule("EB1-018"), GainRule("*")))
    for trial in range(400):
        game = new_game(seed=trial, strategies=[BIG_DARC, named])
        for pile in game.supply.values():  # some piles run out, others run low
            del pile[: rng.choice((0, 0, 5, 10))]
        pool = Counter("".join(rng.choice(skills) for _ in range(rng.randint(0, 9))))
        assert game.choose_gain(game.players[0], counts_of("".join(pool.elements()))) is _plain_gain(game, pool)
        chosen = game.choose_gain(game.players[1], counts_of("".join(pool.elements())))
        assert chosen is _plain_gain(game, pool, named="EB1-018"), (trial, pool)


def test_a_game_plays_the_same_whatever_was_played_before_it_on_its_set_up():
    # A set-up's facts (its gain order, the cards each pool pays for…) are worked out once and kept for every
    # game on it: they must not change a game.
    from simulator.engines.endbreaker_game import game as game_module

    def played(seed):
        game = Game(make_setup(), [BIG_DARC, Strategy("builder", (GainRule("*"),), "if_nothing_to_gain")], seed)
        game.play_to_end()
        return game.log, game.winners

    game_module._PREPARED.clear()
    first = played(3)
    for seed in range(40):
        played(seed)
    assert played(3) == first


def test_the_game_shuffles_as_random_shuffle_does():
    import random

    from simulator.core import SeededRandom

    game = new_game()
    # Up to 256 cards the draws are read from one byte of each word; past it, from the whole word.
    for size in (0, 1, 2, 3, 7, 33, 255, 256, 257, 300, 700):
        for seed in range(5):
            cards = [card(f"EB9-98{n}", "job") for n in range(size)]
            game.rng, reference, expected = SeededRandom(seed), SeededRandom(seed), list(cards)
            random.Random.shuffle(reference, expected)
            game.shuffle(cards)
            assert cards == expected, (size, seed)
            # The generator is left where random.shuffle leaves it, so every later draw of the game is the same.
            assert game.rng.getstate() == reference.getstate(), (size, seed)


# Readings checked against the seed's words -----------------------------------------------------------------


def test_lance_windmill_adds_two_to_arrow_rain_whose_at_its_text_gives():
    # EB1-021「ＡＴ：プレイしているアビリティ枚数」 and
    # EB1-025「場の「ＡＴ：２以上」のカード１枚を「ＡＴ：＋２」してもよい」:
    # field [アローレイン (AT 2: two abilities played), 槍風車 (AT 2)]; the +2 goes to the first, and stays.
    game, player = scripted_turn()
    player.field, player.hand = [], []
    play_one(game, player, ABILITIES[3])
    play_one(game, player, ability("EB1-025", at=2))
    assert [game.at_of(player, c) for c in player.field] == [4, 2]
    assert game.total_at(player) == 6


def test_lance_windmill_reads_at_as_the_fought_masquerade_changes_it():
    # 「場の「ＡＴ：２以上」のカード」 in battle with チッタニアン (jobs +2): a job of printed AT 1 counts as 3.
    game, player = scripted_turn()
    game.in_battle = True
    game.fighting = game.masquerades[0]
    game.fighting.card = masq("EB1-051")
    player.field, player.hand = [InPlay(JOB_A, "P", 1)], []
    play_one(game, player, ability("EB1-025", at=0))
    assert player.field[0].at == 3 and game.at_now(player, player.field[0]) == 5
    # With 白馬の王子様 (abilities −2) an ability of printed AT 3 counts as 1: not 「ＡＴ：２以上」.
    game.fighting.card = masq("EB1-052")
    player.field = [InPlay(ability("EB9-986", at=3), "", 3)]
    play_one(game, player, ability("EB1-025", at=0))
    assert player.field[0].at == 3


class Answers:
    """A person's answers by kind of choice: ``picks`` for ``pick:``/``place:`` choices in order, ``stop`` to
    playing and gaining, ``yes`` to every 「してもよい」."""

    def __init__(self, *picks):
        self.picks = list(picks)
        self.asked = []

    def decide(self, game, player, kind, options):
        self.asked.append((kind, options))
        if kind.startswith(("pick:", "place:")):
            answer = self.picks.pop(0) if self.picks else "stop"
            assert answer in options, (kind, answer, options)
            return answer
        if kind.startswith("may:"):
            return "yes"
        return "gain" if kind == "act" else "stop"


def test_capture_carries_over_a_battle_that_ends_the_turn_to_the_next_hand_adjustment():
    # EB1-015「次の手札調整フェイズ前に、手札２枚までを山札の上に置いてもよい。」: a battle ends the turn (no hand
    # adjustment then); the next hand adjustment phase is the player's next turn's.
    game, player = scripted_turn()
    player.decider = Answers("EB9-981", "EB9-982")
    player.hand, player.deck = [], [BLANK] * 10
    play_one(game, player, ability("EB1-015"))
    game.battle(game.masquerades[0])
    game.current = 0
    player.hand, player.deck, player.discard, player.field = [JOB_T, JOB_S, BLANK], [BLANK] * 10, [], []
    game.play_turn()
    assert ("pick:EB1-015:top", ("EB9-981", "EB9-982", "EB9-983", "stop")) in player.decider.asked
    assert JOB_T in player.hand and JOB_S in player.hand
    asked = len(player.decider.asked)
    player.hand = [JOB_T]
    game.adjust_hand(player)  # used once: not offered again
    assert player.decider.asked[asked:] == []


def test_capture_is_lost_with_the_turn_when_the_rule_says_so():
    game = Game(make_setup(), [BIG_DARC, BIG_DARC], 1, Rules(capture_carries_over=False))
    player = game.players[0]
    player.decider = Answers("EB9-981")
    play_one(game, player, ability("EB1-015"))
    game.battle(game.masquerades[0])
    game.current = 0
    game.play_turn()
    assert not any(kind == "pick:EB1-015:top" for kind, _ in player.decider.asked)


TAVERN_OF_UNKNOWN_KIND = card("EB1-001", None, skill="", at=0)


def test_hekatonkheires_reaches_only_the_cards_the_rules_take_as_city_states():
    # EB1-048「[戦闘]場の都市国家すべてを「AT：＋３」する。」: the seed never says which cards are 都市国家.
    decks = [[TAVERN_OF_UNKNOWN_KIND] * 10, [JOB_A] * 10]
    assert ats(fight(masq("EB1-048"), decks)) == ["AT 0", "AT 5"]
    assert ats(fight(masq("EB1-048"), decks, city_states=("EB1-001",))) == ["AT 15", "AT 5"]


def test_prophet_pays_no_one_when_no_standing_player_played_a_job():
    # EB1-058「プレイしたジョブの枚数がもっとも多いプレイヤーすべてが対象」: none played, none is the most.
    game = fight(masq("EB1-058"), [[BLANK] * 10, [BLANK] * 10])
    assert [e for e in game.log if e.kind == "darc"] == []
    game = fight(masq("EB1-058"), [[BLANK] * 10, [BLANK] * 10], prophet_without_jobs="everyone")
    assert [(e.seat, e.amount) for e in game.log if e.kind == "darc"] == [(0, 2), (1, 2)]


def test_cards_left_from_a_battle_pay_no_skill_and_no_at_in_the_next_turn():
    # battle_discards_field=False: the battle's cards stay in front of the player, but they were not played in
    # the next turn (「本回合打出的卡片上的技能值」).
    game = fight(masq("EB1-039"), [[JOB_A] * 10, [JOB_T] * 10], battle_discards_field=False)
    a = game.players[0]
    assert game.skills(a) == Counter() and game.total_at(a) == 0
    assert len(a.left_from_battle) == 5 and len(a.owned()) == 10
    game.adjust_hand(a)
    assert a.left_from_battle == [] and len(a.owned()) == 10


def test_a_tie_goes_to_the_player_who_owns_fewer_cards_by_default():
    # 「同分時則比較牌庫張數，較少者獲勝」: 牌庫 is the whole deck (「洗牌後成為牌庫」);
    # the draw pile is left to chance.
    game = new_game(players=2)
    a, b = game.players
    a.darc = b.darc = 8
    a.deck, a.hand, a.discard = [KNIGHT] * 6, [], []
    b.deck, b.hand, b.discard = [KNIGHT] * 2, [], [KNIGHT] * 6
    game.finish()
    assert game.winners == [0]
    game.rules = Rules(tiebreak_count="draw_pile")
    game.finish()
    assert game.winners == [1]


def test_a_person_chooses_wild_swings_three_cards_and_where_each_goes():
    game, player = scripted_turn()
    player.decider = Answers("EB9-980", "EB9-983", "stop", "destroy", "discard")
    player.hand, player.deck, player.discard = [BLANK, JOB_A, JOB_S], [JOB_T] * 5, []
    play_one(game, player, ability("EB1-012"))
    assert player.destroyed == [JOB_A] and player.discard == [BLANK]
    assert sorted(c.key for c in player.hand) == ["EB9-981", "EB9-981", "EB9-982"]
    assert player.decider.asked[0] == ("pick:EB1-012", ("EB9-983", "EB9-980", "EB9-982", "stop"))
    assert player.decider.asked[3] == ("place:EB1-012:EB9-980", ("discard", "destroy"))


def test_a_person_chooses_how_many_jobs_sword_rush_destroys():
    game, player = scripted_turn()
    game.in_battle = True
    player.decider = Answers("EB9-982")  # one job, then stop
    player.hand = [JOB_A, BLANK, JOB_T, JOB_S]
    rush = play_one(game, player, ability("EB1-011", at=2))
    assert rush.at == 2 + 3 and player.destroyed == [JOB_S]


def test_a_person_says_where_each_card_get_set_looked_at_goes():
    game, player = scripted_turn()
    player.decider = Answers("discard", "top", "top")
    player.deck, player.discard = [JOB_S, JOB_A, BLANK, JOB_T], []
    play_one(game, player, ability("EB1-024"))
    assert player.discard == [JOB_T] and player.deck == [JOB_S, JOB_A, BLANK]


def test_a_person_chooses_the_cards_the_tavern_and_iai_giri_change():
    game, player = scripted_turn("PT", "S", "PPT")
    player.decider = Answers("EB9-971", "stop")
    fill(player, TAVERN)
    game.play(player, TAVERN)
    assert [c.skill for c in player.field] == ["PT", "B", "PPT", ""]
    player.decider = Answers("EB9-971")
    fill(player, ABILITIES[0])
    game.play(player, ABILITIES[0])
    assert [c.skill for c in player.field] == ["PT", "●", "PPT", "", "B"]
