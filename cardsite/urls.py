from django.contrib import admin
from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token

from . import views

urlpatterns = [
    path("healthz/", views.healthz, name="healthz"),
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

handler400 = "cardsite.errorpages.bad_request"
handler403 = "cardsite.errorpages.forbidden"
handler404 = "cardsite.errorpages.not_found"
handler500 = "cardsite.errorpages.server_error"
