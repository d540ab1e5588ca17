from django.urls import path

from . import views

app_name = "collection"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("cards/<int:card>/", views.change, name="change"),
    path("decks/<int:pk>/wants/", views.wants, name="wants"),
    path("<slug:game>/", views.game_collection, name="game"),
    path("<slug:game>/import/", views.import_list, name="import"),
    path("<slug:game>/import-csv/", views.import_csv, name="import_csv"),
    path("<slug:game>/export.csv", views.export, name="export"),
    path("<slug:game>/shared/", views.shared, name="shared"),
]
