"""Exact draw odds against hand-computed values and against brute force."""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.core import cards_seen_by_turn
from simulator.engines import get_engine
from simulator.odds import Group, at_least, at_least_one, at_least_one_by_turn


def test_one_copy_in_a_two_card_deck_seen_once_is_a_half():
    assert at_least_one(2, 1, 1) == Fraction(1, 2)


def test_four_copies_in_forty_by_a_six_card_opening_hand():
    # 1 - C(36,6)/C(40,6), worked by hand: 1 - 1947792/3838380
    assert at_least_one(40, 4, 6) == 1 - Fraction(1947792, 3838380)


def test_seeing_the_whole_deck_makes_it_certain_and_no_copies_impossible():
    assert at_least_one(10, 1, 10) == 1
    assert at_least_one(10, 0, 5) == 0


def test_shadow_era_schedule_honours_the_skipped_first_draw():
    engine = get_engine("shadowera")
    assert cards_seen_by_turn(engine, 3, first_player=True) == [6, 7, 8]
    assert cards_seen_by_turn(engine, 3, first_player=False) == [7, 8, 9]
    odds = at_least_one_by_turn(40, 4, cards_seen_by_turn(engine, 3, first_player=True))
    assert odds[0] == at_least_one(40, 4, 6) and odds[0] < odds[1] < odds[2]


def test_epic_battles_sees_three_more_cards_each_turn():
    assert cards_seen_by_turn(get_engine("epicbattles"), 3, first_player=True) == [6, 9, 12]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=9).flatmap(
        lambda size: st.tuples(
            st.just(size),
            st.integers(0, size // 2),
            st.integers(0, size // 2),
            st.integers(0, 2),
            st.integers(0, 2),
            st.integers(0, size),
        )
    )
)
def test_multivariate_tail_equals_counting_every_hand(case):
    size, copies_a, copies_b, need_a, need_b, seen = case
    deck = ["a"] * copies_a + ["b"] * copies_b + ["x"] * (size - copies_a - copies_b)
    hands = list(combinations(range(size), seen))
    good = sum(
        1
        for hand in hands
        if sum(deck[i] == "a" for i in hand) >= need_a and sum(deck[i] == "b" for i in hand) >= need_b
    )
    assert at_least(size, [Group(copies_a, need_a), Group(copies_b, need_b)], seen) == Fraction(good, len(hands))


def test_groups_larger_than_the_deck_are_refused():
    with pytest.raises(ValueError):
        at_least(5, [Group(4, 1), Group(3, 1)], 2)
