from django.contrib import admin
from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("simulator.api.urls")),
    path("api/decks/", include("decks.api.urls")),
    path("api/token/", obtain_auth_token, name="api-token"),
    path("api/", include("cards.api.urls")),
    path("accounts/", include("decks.accounts")),
    path("decks/", include("decks.urls")),
    path("decks/", include("decks.urls_decklist")),
    path("decks/", include("simulator.urls")),
    path("", include("cards.urls")),
]
