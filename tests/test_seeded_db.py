"""``seeded_db`` loads the seeds once for a module: each test still finds them as loaded, and a test that did not
ask for them finds none, wherever it is written in the module (tests/fixtures/database.py)."""

from __future__ import annotations

from cards.models import Card

SEED_CARD = {"game__slug": "endbreaker", "key": "EB1-008"}


def test_a_seeded_test_finds_the_seeds(seeded_db):
    assert Card.objects.filter(**SEED_CARD).exists()


def test_a_seeded_test_may_delete_every_card(seeded_db):
    Card.objects.all().delete()
    assert not Card.objects.exists()


def test_the_next_seeded_test_finds_them_again(seeded_db):
    assert Card.objects.filter(**SEED_CARD).exists()


def test_a_test_written_after_seeded_ones_that_did_not_ask_finds_no_card(db):
    assert not Card.objects.exists()
