"""Pages of the readings (card photos read to fill the database), included at the site's root."""

from django.urls import path

from . import views

app_name = "readings"

urlpatterns = [
    path("contributions/photos/", views.upload, name="upload"),
    path("contributions/photos/<int:batch_id>/", views.batch, name="batch"),
    path("contributions/photos/<int:batch_id>/cancel/", views.cancel, name="cancel"),
    path("contributions/photos/<int:batch_id>/<int:index>/", views.review, name="review"),
]
