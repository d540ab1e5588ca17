from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the receivers
