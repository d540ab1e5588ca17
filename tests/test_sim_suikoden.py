"""乙女遊戯 水滸伝 goldfish: each phase rule of seed 002, on synthetic decks."""

from simulator.core import SimCard, SimDeck, default_parameters, play_game
from simulator.engines import get_engine
from simulator.engines.suikoden import Character, CostPart, parse_cost

ENGINE = get_engine("suikoden")
LAND = SimCard("test-land", "テスト土地", "land", {"value": 2, "leader": 3})


def person(index: int, cost: str = "0", colour: str = "仁", attack: int = 3) -> SimCard:
    fields = {"cost": cost, "colour": colour, "attack": attack, "defense": 2, "intelligence": 2}
    return SimCard(f"test-person-{index}", f"テスト人物{index:02d}", "character", fields)


def deck_of(characters: list[SimCard], lands: int = 4) -> SimDeck:
    return SimDeck("suikoden", {"characters": tuple(characters), "lands": (LAND,) * lands})


def new_game(deck: SimDeck, seed: int = 1, opponent_lands: int = 4):
    return ENGINE.new_game(deck, seed, {**default_parameters(ENGINE), "opponent_lands": opponent_lands}, "default")


def unhireable(count: int) -> list[SimCard]:
    return [person(i, cost="黄9") for i in range(count)]  # a colour no source names: never paid


def test_cost_notation():
    assert parse_cost("白1藍1") == [CostPart("白", False, 1), CostPart("藍", False, 1)]
    assert parse_cost("仁殺1") == [CostPart("仁", True, 1)]
    assert parse_cost("0") == []
    assert parse_cost(None) is None


def test_opening_hand_of_five_and_the_first_land_turned_over():
    state = new_game(deck_of(unhireable(40)))
    assert len(state.hand) == 5
    assert state.land == LAND
    assert len(state.lands) == 3


def test_no_battle_on_the_first_turn():
    state = new_game(deck_of([person(i) for i in range(40)]))
    ENGINE.play_turn(state)
    assert not any(event.kind == "attack" for event in state.log)
    assert state.opponent_lands == 4


def test_a_hired_character_waits_a_turn_then_an_undefended_land_falls():
    state = new_game(deck_of([person(i) for i in range(40)]))
    ENGINE.play_turn(state)
    ENGINE.play_turn(state)
    assert state.opponent_lands == 3
    assert any(event.kind == "damage" and event.turn == 2 for event in state.log)


def test_white_is_paid_by_discarding_cards_from_hand():
    target = person(99, cost="白2")
    state = new_game(deck_of(unhireable(40)))
    state.hand = [target, *unhireable(2)]
    ENGINE._hire(state, ENGINE.policies["default"])
    assert [c.card for c in state.field_characters] == [target]
    assert state.hand == [] and len(state.discard) == 2


def test_a_colour_is_paid_by_sending_a_character_of_that_colour_wandering():
    payer = Character(person(1, colour="義"), ready=True)
    target = person(2, cost="義1")
    state = new_game(deck_of(unhireable(40)))
    state.field_characters = [payer]
    state.hand = [target]
    ENGINE._hire(state, ENGINE.policies["default"])
    assert state.wandering == [payer.card]
    assert [c.card for c in state.field_characters] == [target]


def test_blue_is_paid_by_sending_a_blue_character_wandering_as_the_seeds_example_does():
    # seed 002: 丁得孫的代價是白1藍1，要讓他出場就要捨一張手牌並讓一隻藍色人物放浪。
    payer = Character(person(1, colour="藍"), ready=True)
    target = person(2, cost="白1藍1")
    discarded = person(3, cost="黄9")
    state = new_game(deck_of(unhireable(40)))
    state.field_characters = [payer]
    state.hand = [target, discarded]
    ENGINE._hire(state, ENGINE.policies["default"])
    assert [c.card for c in state.field_characters] == [target]
    assert state.wandering == [payer.card] and state.discard == [discarded]


def test_blue_is_not_paid_by_other_colours_and_the_log_says_why():
    state = new_game(deck_of(unhireable(40)))
    state.field_characters = [Character(person(1, colour=colour), ready=True) for colour in ("仁", "義", "勇")]
    target = person(2, cost="藍1")
    state.hand = [target]
    ENGINE._hire(state, ENGINE.policies["default"])
    assert state.hand == [target] and len(state.field_characters) == 3
    assert any(event.message == "blue_unpaid" and event.card == target.name for event in state.log)


def test_kill_costs_discard_the_character():
    payer = Character(person(1, colour="勇"), ready=True)
    target = person(2, cost="勇殺1")
    state = new_game(deck_of(unhireable(40)))
    state.field_characters = [payer]
    state.hand = [target]
    ENGINE._hire(state, ENGINE.policies["default"])
    assert payer.card in state.discard and not state.wandering


def test_a_colour_cost_without_such_a_character_is_not_hired():
    state = new_game(deck_of(unhireable(40)))
    state.hand = [person(2, cost="仁1")]
    ENGINE._hire(state, ENGINE.policies["default"])
    assert state.field_characters == []


def test_discard_down_to_five_at_the_end():
    state = new_game(deck_of(unhireable(40)))
    state.hand += unhireable(3)
    ENGINE.play_turn(state)
    assert len(state.hand) == 5


def test_return_phase_and_the_second_income_draw():
    wanderer = person(7)
    state = new_game(deck_of(unhireable(40)))
    state.wandering = [wanderer, person(8)]
    state.hand = []
    ENGINE.play_turn(state)
    assert any(event.kind == "return" and event.card == wanderer.name for event in state.log)
    assert any(event.message == "second_draw" for event in state.log)
    assert len([event for event in state.log if event.kind == "draw" and event.turn == 1]) == 2


def test_a_player_who_cannot_draw_loses():
    state = new_game(deck_of(unhireable(5)))
    ENGINE.play_turn(state)
    assert ENGINE.is_over(state) and state.won_on_turn is None


def test_destroying_every_land_wins_and_replays_from_its_seed():
    deck = deck_of([person(i) for i in range(40)])
    result = play_game(ENGINE, deck, seed=9, turns=10, params={"opponent_lands": 3})
    assert result.won_on_turn == 4  # lands fall on turns 2, 3 and 4
    assert play_game(ENGINE, deck, seed=9, turns=10, params={"opponent_lands": 3}).log == result.log


def test_characters_that_attacked_stay_tapped_and_hired_ones_stand_up_at_the_end():
    state = new_game(deck_of([person(i) for i in range(40)]))
    ENGINE.play_turn(state)  # hires; no battle on turn 1
    assert state.field_characters and all(c.ready for c in state.field_characters)
    ENGINE.play_turn(state)  # battle: the attackers stay tapped, this turn's hires stand up
    attacked = {e.card for e in state.log if e.kind == "attack" and e.turn == 2}
    assert attacked
    for character in state.field_characters:
        assert character.ready == (character.card.name not in attacked)


def test_how_a_wanderer_comes_back_is_a_stated_parameter():
    # seed 002, 2. 歸還階段: 可選擇放浪區的角色一名回場 — it does not say in what state.
    parameter = next(p for p in ENGINE.parameters if p.slug == "returns_ready")
    assert parameter.default == 1 and "assumption" in parameter.source["en"]
    for returns_ready, message in ((1, "returned_ready"), (0, "returned_acted")):
        wanderer = person(7)
        state = ENGINE.new_game(
            deck_of(unhireable(40)), 1, {**default_parameters(ENGINE), "returns_ready": returns_ready}, "default"
        )
        state.wandering = [wanderer]
        ENGINE.play_turn(state)
        back = next(c for c in state.field_characters if c.card is wanderer)
        assert back.ready is bool(returns_ready)
        assert any(event.kind == "return" and event.message == message for event in state.log)
