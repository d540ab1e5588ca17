"""Pages of the readings (card photos read to fill the database), included under ``readings/``."""

from django.urls import path

from . import views

app_name = "readings"

urlpatterns = [
    path("photos/", views.upload, name="upload"),
    path("photos/<int:batch_id>/", views.batch, name="batch"),
    path("photos/<int:batch_id>/cancel/", views.cancel, name="cancel"),
    path("photos/<int:batch_id>/<int:index>/", views.review, name="review"),
]
