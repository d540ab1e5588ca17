from django.urls import path

from . import views

app_name = "contributions"

urlpatterns = [
    path("contributions/", views.mine, name="mine"),
    path("contributions/review/", views.review_queue, name="review_queue"),
    path("contributions/<int:pk>/", views.change_set, name="change_set"),
    path("contributions/<int:pk>/review/", views.review, name="review"),
    path("games/<slug:game>/contribute/", views.card_new, name="card_new"),
    path("games/<slug:game>/contribute/bulk/", views.bulk_contribution, name="bulk"),
    # Before the card page's <path:key>, which would take "…/edit" for a key.
    path("games/<slug:game>/cards/<path:key>/edit/", views.card_edit, name="card_edit"),
    path("games/<slug:game>/cards/<path:key>/translate/", views.card_translate, name="card_translate"),
]
