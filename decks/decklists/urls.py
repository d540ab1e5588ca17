"""Decklist import and export pages, included under ``decks/`` with the namespace ``decklist``."""

from django.urls import path

from . import views

app_name = "decklist"

urlpatterns = [
    path("import/", views.import_new, name="import"),
    path("<int:pk>/import/", views.import_replace, name="replace"),
    path("<int:pk>/export.txt", views.export_text_view, name="export_text"),
    path("<int:pk>/export.json", views.export_json_view, name="export_json"),
    path("shared/<str:token>/export.txt", views.shared_export_text, name="shared_export_text"),
    path("shared/<str:token>/export.json", views.shared_export_json, name="shared_export_json"),
]
