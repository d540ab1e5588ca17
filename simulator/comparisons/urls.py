"""Pages of the whole games' comparisons, included under ``simulator/games/<game>/compare/`` (namespace
``comparisons``)."""

from django.urls import path

from . import views

app_name = "comparisons"

urlpatterns = [
    path("", views.compare, name="compare"),
    path("setups/", views.compare_setups, name="setups"),
    path("<int:run_id>/", views.run_detail, name="run"),
    path("<int:run_id>/cancel/", views.cancel, name="cancel"),
]
