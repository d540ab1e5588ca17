"""URLs of the collection API, included under ``api/collection/`` with the namespace ``collection_api``."""

from django.urls import path

from . import views

app_name = "collection_api"

urlpatterns = [
    path("", views.OverviewView.as_view(), name="overview"),
    path("decks/<int:pk>/wants/", views.WantsView.as_view(), name="wants"),
    path("<slug:game>/", views.GameCollectionView.as_view(), name="game"),
    path("<slug:game>/add/", views.AddView.as_view(), name="add"),
    path("<slug:game>/remove/", views.RemoveView.as_view(), name="remove"),
    path("<slug:game>/set/", views.SetView.as_view(), name="set"),
    path("<slug:game>/import/list/", views.ListImportView.as_view(), name="import-list"),
    path("<slug:game>/import/csv/", views.CsvImportView.as_view(), name="import-csv"),
    path("<slug:game>/export/", views.ExportView.as_view(), name="export"),
    path("<slug:game>/shared/", views.SharedView.as_view(), name="shared"),
]
