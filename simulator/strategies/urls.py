"""Pages of written strategies, included under ``simulator/games/<game>/strategies/`` (namespace ``strategies``)."""

from django.urls import path

from . import views

app_name = "strategies"

urlpatterns = [
    path("", views.strategy_list, name="list"),
    path("new/", views.strategy_new, name="new"),
    path("check/", views.strategy_check, name="check"),
    path("shipped/<slug:name>/", views.shipped_detail, name="shipped"),
    path("shared/<str:token>/", views.strategy_shared, name="shared"),
    path("<int:pk>/", views.strategy_detail, name="detail"),
    path("<int:pk>/edit/", views.strategy_edit, name="edit"),
    path("<int:pk>/delete/", views.strategy_delete, name="delete"),
    path("<int:pk>/link/", views.strategy_new_link, name="new_link"),
]
