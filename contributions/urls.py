"""Pages of the contributions, included under ``contributions/``: a user's change sets, the review queue, and a
game's contribution pages (``games/<game>/…``)."""

from django.urls import path

from . import views
from .images import views as views_images

app_name = "contributions"

urlpatterns = [
    path("", views.mine, name="mine"),
    path("review/", views.review_queue, name="review_queue"),
    path("<int:pk>/", views.change_set, name="change_set"),
    path("<int:pk>/review/", views.review, name="review"),
    path("games/<slug:game>/contribute/", views.card_new, name="card_new"),
    path("games/<slug:game>/contribute/bulk/", views.bulk_contribution, name="bulk"),
    path("games/<slug:game>/contribute/bulk/sheet.csv", views.bulk_sheet, name="bulk_sheet"),
    path("seed-conflicts/<int:pk>/", views.seed_conflict_resolve, name="seed_conflict_resolve"),
    path("games/<slug:game>/deleted-cards/", views.deleted_cards, name="deleted_cards"),
    path("games/<slug:game>/deleted-cards/<int:version>/restore/", views.card_restore, name="card_restore"),
    path("games/<slug:game>/contributors/<int:user>/block/", views.user_block, name="user_block"),
    # Before the card page's <path:key>, which would take "…/edit" for a key.
    path("games/<slug:game>/cards/<path:key>/edit/", views.card_edit, name="card_edit"),
    path("games/<slug:game>/cards/<path:key>/revert/", views.card_revert, name="card_revert"),
    path("games/<slug:game>/cards/<path:key>/images/", views_images.card_images, name="card_images"),
    path("games/<slug:game>/cards/<path:key>/translate/", views.card_translate, name="card_translate"),
]
