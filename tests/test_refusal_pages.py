"""A refused action looks the same on every page: the one "The change was not made" page (with its status and a
link on), the message alone for an htmx request, an error above the form when the form is drawn again, and a
message on the next page after a redirect."""

from __future__ import annotations

import pytest
from django import forms
from django.test import RequestFactory

from cardsite.errors import AppError
from cardsite.refusals import show_refusal
from community import services as community_services
from decks import services as deck_services

from .support.clients import signed_in
from .synthetic_decks import card, game

pytestmark = pytest.mark.django_db


def _publication(owner):
    entries = [("hero", card("shadowera", "Test Hero 01"), 1), ("deck", card("shadowera", "Test Ally 01"), 3)]
    deck = deck_services.create_deck(owner=owner, game=game("shadowera"), name="Test refusal deck", entries=entries)
    return community_services.publish(deck, user=owner, title="Test refusal deck")


def test_a_refusal_of_two_apps_is_the_same_page_with_its_status_and_a_way_on(owner, other, synthetic_cards):
    publication = _publication(owner)
    client = signed_in(other)
    comment = client.post(f"/community/decks/published/{publication.pk}/comments/", {"body": "   "})
    assert comment.status_code == 400
    page = comment.content.decode()
    assert "<h1>The change was not made</h1>" in page and "A comment cannot be empty." in page
    assert 'href="/community/decks/published/"' in page

    builder = client.post("/decks/999999/edit/entry/", {"card": "x", "zone": "deck", "delta": "1"})
    assert builder.status_code == 404
    page = builder.content.decode()
    assert "<h1>The change was not made</h1>" in page and "There is no such deck" in page
    assert 'href="/decks/"' in page


def test_an_htmx_refusal_is_the_message_alone_for_the_alert_area(owner, other, synthetic_cards):
    publication = _publication(owner)
    answer = signed_in(other).post(
        f"/community/decks/published/{publication.pk}/comments/", {"body": "   "}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 400
    assert answer.content.decode().strip() == '<p class="message error">A comment cannot be empty.</p>'


def test_a_refusal_goes_on_the_form_drawn_again_or_else_into_the_next_pages_messages(owner):
    class AnyForm(forms.Form):
        name = forms.CharField(required=False)

    request = RequestFactory().post("/")
    form = AnyForm({"name": "x"})
    assert form.is_valid()
    show_refusal(request, AppError("Test refusal."), form=form)
    assert form.non_field_errors() == ["Test refusal."] and not form.is_valid()

    client = signed_in(owner)
    answer = client.post("/decks/folders/", {"action": "nonsense"}, follow=True)
    assert "Unknown action." in answer.content.decode()
