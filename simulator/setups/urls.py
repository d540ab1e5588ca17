"""The set-up builder's addresses (set-ups are decks now: each leads to the deck pages, ``views``), included
under ``simulator/games/<game>/setups/`` (namespace ``setups``)."""

from django.urls import path

from . import views

app_name = "setups"

urlpatterns = [
    path("", views.setup_list, name="list"),
    path("new/", views.setup_new, name="new"),
    path("check/", views.setup_check, name="check"),
    path("<int:pk>/", views.setup_detail, name="detail"),
    path("<int:pk>/edit/", views.setup_edit, name="edit"),
    path("<int:pk>/delete/", views.setup_delete, name="delete"),
]
