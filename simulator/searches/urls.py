"""Pages of the strategy searches, included under ``simulator/games/<game>/search/`` (namespace ``searches``)."""

from django.urls import path

from . import views

app_name = "searches"

urlpatterns = [
    path("", views.start, name="start"),
    path("<int:run_id>/", views.run_detail, name="run"),
    path("<int:run_id>/cancel/", views.cancel, name="cancel"),
    path("<int:run_id>/save/", views.save, name="save"),
]
