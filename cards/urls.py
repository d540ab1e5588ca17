from django.urls import path

from . import views
from .images import views as views_images

app_name = "cards"

urlpatterns = [
    path("", views.game_list, name="game_list"),
    path("media/<path:name>", views_images.media, name="media"),
    path("search/", views.search, name="search"),
    path("search/syntax/", views.search_syntax, name="search_syntax"),
    path("games/<slug:game>/", views.game_detail, name="game_detail"),
    path("games/<slug:game>/glossary/", views.glossary, name="glossary"),
    path("games/<slug:game>/missing/", views.game_missing, name="game_missing"),
    path("games/<slug:game>/tracks/prefer/", views.prefer_track, name="prefer_track"),
    path("games/<slug:game>/cards/", views.card_list, name="card_list"),
    path("games/<slug:game>/cards/<path:key>/history/", views.card_history, name="card_history"),
    path("games/<slug:game>/cards/<path:key>/", views.card_detail, name="card_detail"),
]
