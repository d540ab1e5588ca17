"""URLs of the deck API, included under ``api/decks/`` with the namespace ``decks_api``.

``""`` list and create; ``<pk>/`` read, change, delete; ``<pk>/entries/`` read, replace (PUT)
or set counts (PATCH); ``<pk>/validate/`` the verdict (GET or POST); ``validate/`` the
verdict on an unsaved deck (POST); ``folders/`` the user's deck folders; ``<pk>/placeholders/`` the deck's
placeholder cards (``decks.placeholders.urls``).
"""

from rest_framework.routers import SimpleRouter

from ..placeholders import urls as placeholder_urls
from .folders import DeckFolderViewSet
from .views import DeckViewSet

app_name = "decks_api"

router = SimpleRouter(use_regex_path=False)  # path converters: DeckViewSet.lookup_value_converter
router.register("folders", DeckFolderViewSet, basename="folder")  # before the decks' own routes
router.register("", DeckViewSet, basename="deck")

urlpatterns = [*router.urls, *placeholder_urls.urlpatterns]
