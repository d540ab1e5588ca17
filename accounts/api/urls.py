"""Token API, included under ``api/``: ``token/`` (obtain), ``tokens/`` (list), ``tokens/<key>/`` (revoke)."""

from django.urls import path

from . import views

urlpatterns = [
    path("token/", views.TokenObtainView.as_view(), name="api-token"),
    path("tokens/", views.TokenListView.as_view(), name="api-tokens"),
    path("tokens/<segment:token_key>/", views.TokenDetailView.as_view(), name="api-token-detail"),
]
