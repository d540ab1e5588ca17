"""Pages of games played one choice at a time, included under ``simulator/games/<game>/play/`` (namespace
``seated``)."""

from django.urls import path

from . import views

app_name = "seated"

urlpatterns = [
    path("", views.start, name="start"),
    path("<int:pk>/", views.play, name="game"),
    path("<int:pk>/back/", views.take_back, name="back"),
    path("sample/<int:run_id>/<int:percentile>/", views.sample, name="sample"),
]
