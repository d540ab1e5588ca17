"""The placeholders' API routes, under the deck API's ``<pk>/placeholders/`` (namespace ``decks_api``, added to
``decks.api.urls``); the deck page's own forms are routed in ``decks.urls``."""

from django.urls import path

from . import api

urlpatterns = [
    path("<int:pk>/placeholders/", api.PlaceholderListView.as_view(), name="deck-placeholders"),
    path("<int:pk>/placeholders/<int:placeholder_pk>/", api.PlaceholderView.as_view(), name="deck-placeholder"),
]
