from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("healthz/", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", views.set_language, name="set_language"),
    path("api/", include("simulator.api.urls")),
    path("api/decks/", include("decks.api.urls")),
    path("api/", include("accounts.api.urls")),
    path("api/", include("cards.api.urls")),
    path("accounts/", include("accounts.urls")),
    path("decks/", include("decks.urls")),
    path("decks/", include("decks.urls_decklist")),
    path("decks/", include("simulator.urls")),
    path("", include("cards.urls")),
]

handler400 = "cardsite.errorpages.bad_request"
handler403 = "cardsite.errorpages.forbidden"
handler404 = "cardsite.errorpages.not_found"
handler500 = "cardsite.errorpages.server_error"
