from django.apps import AppConfig


class CollectionConfig(AppConfig):
    name = "collection"

    def ready(self) -> None:
        # ``owned:`` in the search language needs the requesting user's collection (cards.search.compiler).
        from cards.search.compiler import register_user_field

        from .selectors import owned_filter

        register_user_field("owned", owned_filter)
