"""URLs of the readings API, included under ``api/`` with the namespace ``readings_api``.

``readings/`` upload a batch of card photos to be read (POST, multipart); ``readings/<id>/`` the batch and
each photo's reading (GET); ``readings/<id>/cancel/`` cancel it (POST);
``readings/<id>/photos/<n>/submit/`` submit the values confirmed for photo n as a change set (POST);
``readings/<id>/review/`` what is left to decide in the batch (GET); ``readings/<id>/submit/`` the contributor's
choices for the whole batch as one change set (POST).
"""

from django.urls import path

from .views import (
    BatchReviewView,
    BatchSubmitView,
    PhotoSubmitView,
    ReadingBatchCancelView,
    ReadingBatchCreateView,
    ReadingBatchView,
)

app_name = "readings_api"

urlpatterns = [
    path("readings/", ReadingBatchCreateView.as_view(), name="batches"),
    path("readings/<int:batch_id>/", ReadingBatchView.as_view(), name="batch"),
    path("readings/<int:batch_id>/cancel/", ReadingBatchCancelView.as_view(), name="batch-cancel"),
    path("readings/<int:batch_id>/review/", BatchReviewView.as_view(), name="batch-review"),
    path("readings/<int:batch_id>/submit/", BatchSubmitView.as_view(), name="batch-submit"),
    path("readings/<int:batch_id>/photos/<int:index>/submit/", PhotoSubmitView.as_view(), name="photo-submit"),
]
