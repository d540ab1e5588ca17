"""Pages of the public deck space, included under ``community/`` with the namespace ``community``."""

from django.urls import path

from cardsite.moved import moved_view

from . import views

app_name = "community"

urlpatterns = [
    path("decks/published/", views.index, name="index"),
    path("decks/published/favourites/", views.favourites, name="favourites"),
    path("decks/published/<int:pk>/", views.detail, name="detail"),
    path("decks/published/<int:pk>/like/", views.like, name="like"),
    path("decks/published/<int:pk>/favourite/", views.favourite, name="favourite"),
    path("decks/published/<int:pk>/copy/", views.copy, name="copy"),
    path("decks/published/<int:pk>/comments/", views.comment, name="comment"),
    path("decks/published/<int:pk>/report/", views.report, name="report"),
    path("decks/published/<int:pk>/withdraw/", views.withdraw, name="withdraw"),
    path("decks/<int:pk>/publish/", views.publish, name="publish"),
    path("games/<slug:game>/decks/", views.game_list, name="game"),
    # The old names of the inbox (now one for every kind, ``notifications``), kept so that links made with them work.
    # They redirect to the inbox's own addresses, under the segment of the app that answers them.
    path("notifications/", moved_view("notifications:inbox"), name="notifications"),
    path("notifications/read/", moved_view("notifications:mark_read"), name="mark_read"),
    path("moderation/", views.moderation, name="moderation"),
    path("moderation/act/", views.moderate, name="moderate"),
]
