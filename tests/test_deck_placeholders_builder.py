"""The deck builder's placeholder controls: one copy more or fewer, removed at 0 or at once, each answered with
the builder's placeholders and the server's verdict; only the owner changes them. Synthetic Shadow Era cards
(``tests/support/placeholder_decks.py``)."""

from __future__ import annotations

import pytest
from django.test import Client

from decks.models import DeckPlaceholder
from decks.placeholders import services

from .support.clients import signed_in
from .support.html import parse, squash
from .support.placeholder_decks import fill_with_placeholders, shadow_era_deck

pytestmark = pytest.mark.usefixtures("synthetic_cards")


def _htmx(client: Client, url: str, body: dict):
    return client.post(url, body, HTTP_HX_REQUEST="true")


def test_the_builder_steps_a_placeholders_count_and_redraws_the_verdict(owner):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    ability = DeckPlaceholder.objects.get(deck=deck, kind="ability")
    english = signed_in(owner)
    builder = parse(english.get(f"/decks/{deck.pk}/edit/"))
    listed = builder.find(id="builder-placeholders").find("li", data_placeholder=str(ability.pk))
    step = listed.find("form", hx_post=f"/decks/{deck.pk}/placeholders/{ability.pk}/count/")
    assert [button.attrs["value"] for button in step.find_all("button")] == ["-1", "1"]

    answer = _htmx(english, f"/decks/{deck.pk}/placeholders/{ability.pk}/count/", {"delta": "-1"})
    assert answer.status_code == 200
    page = parse(answer)
    assert "18× [placeholder: Ability (Cost 1)]" in squash(page.find(id="builder-placeholders").text)
    verdict = squash(page.find(id="deck-verdict").text)
    assert "Legal apart from" not in verdict  # 39 cards: the size rule is broken again
    assert DeckPlaceholder.objects.get(pk=ability.pk).count == 18

    page = parse(_htmx(english, f"/decks/{deck.pk}/placeholders/{ability.pk}/count/", {"delta": "1"}))
    assert "Legal apart from 31 placeholder cards" in squash(page.find(id="deck-verdict").text)

    single = services.add_placeholder(deck, "trap", {}, 1)
    page = parse(_htmx(english, f"/decks/{deck.pk}/placeholders/{single.pk}/count/", {"delta": "-1"}))
    assert not DeckPlaceholder.objects.filter(pk=single.pk).exists()  # one fewer than one: removed
    assert "[placeholder: Trap]" not in squash(page.find(id="builder-placeholders").text)


def test_the_builder_removes_a_placeholder_at_once(owner):
    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    ally = DeckPlaceholder.objects.get(deck=deck, kind="ally")
    english = signed_in(owner)
    builder = parse(english.get(f"/decks/{deck.pk}/edit/"))
    remove = f"/decks/{deck.pk}/placeholders/{ally.pk}/remove/"
    assert builder.find(id="builder-placeholders").find("form", hx_post=remove)
    page = parse(_htmx(english, remove, {"from": "builder"}))
    assert "Big ally" not in squash(page.find(id="builder-placeholders").text)
    assert "19× [placeholder: Ability (Cost 1)]" in squash(page.find(id="builder-placeholders").text)
    assert "Legal apart from" not in squash(page.find(id="deck-verdict").text)
    assert not DeckPlaceholder.objects.filter(pk=ally.pk).exists()
    # without htmx the builder's form goes back to the builder
    ability = DeckPlaceholder.objects.get(deck=deck, kind="ability")
    plain = english.post(f"/decks/{deck.pk}/placeholders/{ability.pk}/remove/", {"from": "builder"})
    assert plain.status_code == 302 and plain["Location"] == f"/decks/{deck.pk}/edit/"


def test_a_count_past_99_or_a_bad_step_is_refused_in_the_builders_message_area(owner):
    deck = shadow_era_deck(owner)
    full = services.add_placeholder(deck, "ability", {"cost": 1}, 99)
    english = signed_in(owner)
    url = f"/decks/{deck.pk}/placeholders/{full.pk}/count/"
    refused = _htmx(english, url, {"delta": "1"})
    assert refused.status_code == 409 and refused["HX-Retarget"] == "#builder-message"
    assert "between 1 and 99" in refused.content.decode()
    bad = _htmx(english, url, {"delta": "5"})
    assert bad.status_code == 400 and bad["HX-Retarget"] == "#builder-message"
    assert DeckPlaceholder.objects.get(pk=full.pk).count == 99


def test_someone_else_cannot_step_or_remove_placeholders(owner, db):
    from .users import make_user

    deck = shadow_era_deck(owner)
    fill_with_placeholders(deck)
    ability = DeckPlaceholder.objects.get(deck=deck, kind="ability")
    other = Client()
    other.force_login(make_user("other"))
    stepped = _htmx(other, f"/decks/{deck.pk}/placeholders/{ability.pk}/count/", {"delta": "-1"})
    removed = _htmx(other, f"/decks/{deck.pk}/placeholders/{ability.pk}/remove/", {"from": "builder"})
    assert stepped.status_code in (403, 404) and removed.status_code in (403, 404)
    assert DeckPlaceholder.objects.get(pk=ability.pk).count == 19
