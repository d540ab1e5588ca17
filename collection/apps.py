from django.apps import AppConfig


class CollectionConfig(AppConfig):
    name = "collection"
    # First URL segments this app answers, for pages and after api/ (cardsite.urlmap).
    url_prefixes = ("collection",)

    def ready(self) -> None:
        # ``owned:`` in the search language needs the requesting user's collection (cards.search.compiler).
        from cards.extensions import register_user_cards
        from cards.search.compiler import register_user_field

        from .selectors import owned_card_ids, owned_counts, owned_filter

        register_user_field("owned", owned_filter)
        # The copies owned beside each card of a search and of the deck builder, and its "owned only" filter.
        register_user_cards("owned", owned_counts, owned_card_ids)
