"""エンドブレイカー！SCG starting-deck hands: 5 cards, 5 plays, the skills they produce."""

from simulator.core import SimCard, SimDeck, default_parameters, play_game
from simulator.engines import get_engine

ENGINE = get_engine("endbreaker")


def starting_deck(knight_skill: str | None = "P") -> SimDeck:
    knight = SimCard("城塞騎士", "城塞騎士", "job", {"skill": knight_skill} if knight_skill else {})
    tavern = SimCard("EB1-001", "旅人の酒場", None, {})
    hunter = SimCard("狩猟者", "狩猟者", "job", {})
    mage = SimCard("星霊術士", "星霊術士", "job", {})
    return SimDeck.from_counts("endbreaker", {"starting": [(tavern, 4), (knight, 2), (hunter, 2), (mage, 2)]})


def test_hands_of_five_from_the_ten_card_deck_reshuffled_every_two_turns():
    result = play_game(ENGINE, starting_deck(), seed=4, turns=6)
    assert [turn.cards_played for turn in result.turns] == [5] * 6
    assert [turn.hand_size for turn in result.turns] == [5] * 6
    shuffles = [event.turn for event in result.log if event.kind == "shuffle"]
    assert shuffles == [0, 2, 4, 6]  # the deck of 10 gives two hands, then the discard pile is shuffled


def test_two_consecutive_hands_see_the_whole_deck():
    result = play_game(ENGINE, starting_deck(), seed=8, turns=2)
    played = [event.card for event in result.log if event.kind == "play"]
    assert sorted(played) == sorted(["旅人の酒場"] * 4 + ["城塞騎士"] * 2 + ["狩猟者"] * 2 + ["星霊術士"] * 2)


def test_skills_count_only_known_values():
    state = ENGINE.new_game(starting_deck(), 8, default_parameters(ENGINE), "default")
    ENGINE.play_turn(state)
    ENGINE.play_turn(state)
    # Over two hands both 城塞騎士 (P each) are played; the other cards' skills are unknown.
    assert sum(turn["P"] for turn in state.skills_by_turn) == 2
    assert state.unknown_skill_plays == 8
    assert any(event.message == "skill_unknown" for event in state.log)


def test_the_opening_hand_is_a_stated_parameter():
    # seed 000, 遊戲準備 5 ends with 洗牌後成為牌庫: no source says how many cards a player draws first.
    parameter = next(p for p in ENGINE.parameters if p.slug == "opening_hand")
    assert parameter.default == 5 and "assumption" in parameter.source["en"]
    assert len(play_game(ENGINE, starting_deck(), seed=8, turns=0).state.hand) == 5
    assert len(play_game(ENGINE, starting_deck(), seed=8, turns=0, params={"opening_hand": 3}).state.hand) == 3
