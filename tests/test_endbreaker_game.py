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
    Setup,
    SetupError,
    Strategy,
    place_rewards,
    play_game,
)
from simulator.engines.endbreaker_game.skills import pay


def card(key, kind, **fields):
    return SimCard(key, f"テスト{key}", kind, fields)


# Synthetic values only (none of them comes from a source).
TAVERN = card("EB1-001", "city", skill="", at=0)
KNIGHT = card("EB9-902", "job", skill="P", at=1, cost="P")
HUNTER = card("EB9-903", "job", skill="T", at=1, cost="T")
ASTROMANCER = card("EB9-904", "job", skill="S", at=1, cost="S")
JOBS = (
    card("EB9-905", "job", cost="PP", skill="PP", at=2),
    card("EB9-906", "job", cost="TT", skill="TT", at=2),
    card("EB9-907", "job", cost="SS", skill="SS", at=2),
)
ABILITIES = (
    card("EB1-008", "ability", cost="PT", skill="B", at=1),
    card("EB1-017", "ability", cost="PPT", skill="", at=1),
    card("EB1-018", "ability", cost="PPPT", skill="", at=2),
    card("EB1-021", "ability", cost="TS", skill="T"),  # its AT is its text's
    *(card(f"EB9-91{n}", "ability", cost="P" * n + "S", skill="●", at=n) for n in range(5)),
)
SCENARIOS = tuple(card(f"EB9-93{n}", "scenario", cost="PT", payout="2") for n in range(10))
MASQUERADES = tuple(card(f"EB9-95{n}", "masquerade", payout="6-4-2-0", damage=3) for n in range(8))
THORN = card("EB1-059", "thorn", at=1, skill="")


def make_setup(**changes):
    values = dict(
        tavern=TAVERN,
        knight=KNIGHT,
        hunter=HUNTER,
        astromancer=ASTROMANCER,
        jobs=JOBS,
        abilities=ABILITIES,
        scenarios=SCENARIOS,
        masquerades=MASQUERADES,
        thorn=THORN,
    )
    values.update(changes)
    return Setup(**values)


def new_game(players=2, seed=1, strategies=None, **rules):
    return Game(make_setup(), strategies or [BIG_DARC] * players, seed, Rules(**rules))


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
    from simulator.engines.endbreaker_game import missing_values

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
