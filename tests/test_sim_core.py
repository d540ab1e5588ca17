"""The engine core's own random helpers replay exactly what the standard library would."""

import random

from simulator.core import GameState, SeededRandom, SimCard


def test_the_seeded_generator_is_random_random_in_the_same_state():
    for seed in (0, 1, 7, 2**31, 2**70 + 3):
        assert SeededRandom(seed).getstate() == random.Random(seed).getstate()


def test_shuffle_gives_the_order_random_shuffle_gives_and_logs_it():
    cards = [SimCard(f"test-{i}", f"Test {i}") for i in range(60)]
    for seed in range(50):
        for size in (0, 1, 2, 5, 40, 60):
            state, expected, rng = GameState(seed), cards[:size], random.Random(seed)
            state.deck = cards[:size]
            rng.shuffle(expected)
            state.shuffle(state.deck)
            assert state.deck == expected
            assert state.rng.random() == rng.random()  # the same random numbers used up
            assert state.log[-1].kind == "shuffle" and state.log[-1].amount == size
