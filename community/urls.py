"""Pages of the public deck space, included at the site's root with the namespace ``community``."""

from django.urls import path

from notifications import views as inbox_views

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
    path("notifications/", inbox_views.inbox, name="notifications"),
    path("notifications/read/", inbox_views.mark_read, name="mark_read"),
    path("moderation/", views.moderation, name="moderation"),
    path("moderation/act/", views.moderate, name="moderate"),
]
