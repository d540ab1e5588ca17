"""The plain-Python diff of two states of a deck's cards (decks/diff.py), on synthetic keys."""

from decks.diff import as_text, diff


def test_added_and_removed_copies_per_zone():
    before = [("deck", "TEST-001", 2), ("deck", "TEST-002", 3), ("side", "TEST-009", 1)]
    after = [("deck", "TEST-001", 4), ("deck", "TEST-003", 1), ("side", "TEST-009", 1), ("deck", "TEST-001", 0)]
    result = diff(before, after, zone_order=["hero", "deck", "side"])
    assert [z.zone for z in result.zones] == ["deck"]
    assert result.zones[0].added == (("TEST-001", 2), ("TEST-003", 1))
    assert result.zones[0].removed == (("TEST-002", 3),)
    assert (result.added, result.removed) == (3, 3)
    assert as_text(result) == "deck:\n+2 TEST-001\n+1 TEST-003\n-3 TEST-002\n"


def test_same_cards_make_no_diff_and_duplicates_add_up():
    assert diff([("deck", "A", 1), ("deck", "A", 1)], [("deck", "A", 2)]).empty
    assert as_text(diff([], [])) == ""


def test_zone_order_then_other_zones_and_names():
    result = diff([], [("z", "B", 1), ("deck", "A", 1), ("hero", "H", 1)], zone_order=["hero", "deck"])
    assert [z.zone for z in result.zones] == ["hero", "deck", "z"]
    text = as_text(result, label=str.upper, name={"A": "Test card A"}.get)
    assert text.splitlines() == ["HERO:", "+1 H", "DECK:", "+1 A Test card A", "Z:", "+1 B"]
