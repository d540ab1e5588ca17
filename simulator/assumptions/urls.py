"""A deck's assumptions pages, included under ``simulator/decks/<pk>/assumptions/`` (namespace ``assumptions``)."""

from django.urls import path

from . import views

app_name = "assumptions"

urlpatterns = [
    path("", views.assumptions_page, name="page"),
    path("sheet.csv", views.assumptions_sheet, name="sheet"),
]
