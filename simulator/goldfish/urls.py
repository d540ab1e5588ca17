"""Goldfish pages of a deck, included under ``decks/`` with the namespace ``goldfish``.

Every page has two addresses, as the deck page has: ``<pk>/…`` and ``shared/<token>/…`` (a deck
shared by link), with the same permission rules (``decks.selectors``).
"""

from django.urls import path

from . import views

app_name = "goldfish"

PAGES = [
    ("goldfish/", views.hand, "hand"),
    ("odds/", views.odds_page, "odds"),
    ("odds/calculate/", views.calculate, "calculate"),
    ("odds/cards/", views.odds_cards, "odds_cards"),
    ("odds/chip/", views.odds_chip, "odds_chip"),
    ("simulate/", views.simulate, "simulate"),
    ("simulate/<int:run_id>/", views.run_detail, "run"),
    ("simulate/<int:run_id>/cancel/", views.cancel, "cancel"),
]

urlpatterns = [path(f"<int:pk>/{route}", view, name=name) for route, view, name in PAGES] + [
    path(f"shared/<str:token>/{route}", view, name=f"shared_{name}") for route, view, name in PAGES
]
