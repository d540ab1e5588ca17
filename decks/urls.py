from django.urls import path

from . import views
from .organise import views as views_organise
from .placeholders import views as views_placeholders
from .printing import views as views_printing
from .versions import views as views_versions

app_name = "decks"

urlpatterns = [
    path("", views_organise.my_decks, name="my_decks"),
    path("folders/", views_organise.folders, name="folders"),
    path("public/", views.public_decks, name="public"),
    path("new/", views.new_deck, name="new"),
    path("shared/<str:token>/", views.shared_deck, name="shared"),
    path("<int:pk>/", views.deck_detail, name="detail"),
    path("<int:pk>/edit/", views.deck_builder, name="edit"),
    path("<int:pk>/edit/search/", views.builder_search, name="search"),
    path("<int:pk>/edit/entry/", views.change_entry, name="change_entry"),
    path("<int:pk>/settings/", views.deck_settings, name="settings"),
    path("<int:pk>/copy/", views.copy_deck, name="copy"),
    path("<int:pk>/share-link/", views.new_share_link, name="new_share_link"),
    path("<int:pk>/delete/", views.delete_deck, name="delete"),
    path("<int:pk>/organise/", views_organise.organise, name="organise"),
    path("<int:pk>/placeholders/", views_placeholders.add, name="add_placeholder"),
    path("<int:pk>/placeholders/<int:placeholder_pk>/remove/", views_placeholders.remove, name="remove_placeholder"),
    path("<int:pk>/placeholders/<int:placeholder_pk>/count/", views_placeholders.step, name="step_placeholder"),
    path("<int:pk>/placeholders/<int:placeholder_pk>/replace/", views_placeholders.replace, name="replace_placeholder"),
    path("<int:pk>/picture.png", views_printing.deck_picture, name="picture"),
    path("<int:pk>/registration.pdf", views_printing.registration_sheet, name="registration_sheet"),
    path("<int:pk>/proxies.pdf", views_printing.proxies, name="proxies"),
    path("<int:pk>/history/", views_versions.history, name="history"),
    path("<int:pk>/diff/", views_versions.diff, name="diff"),
    path("<int:pk>/versions/<int:number>/restore/", views_versions.restore, name="restore_version"),
    path("<int:pk>/versions/<int:number>/branch/", views_versions.branch, name="branch_version"),
]
