"""エンドブレイカー！SCG decks that are a table's choice of piles, on the synthetic whole-game pool
(``tests.support.endbreaker_pool``): nine ability piles and the three job piles."""

from cards.models import Card, Game
from decks import services as deck_services

NINE = [f"EB9-91{n}" for n in range(9)]
OTHER_NINE = [f"EB9-91{n}" for n in range(1, 10)]
JOBS = ["魔獣戦士", "スカイランナー", "デモニスタ"]


def table_deck(owner, name: str, piles: list[str], *, jobs: list[str] = JOBS, visibility: str = "private"):
    game = Game.objects.get(slug="endbreaker")
    cards = {card.key: card for card in Card.objects.filter(game=game, key__in=[*piles, *jobs])}
    entries = [("supply", cards[key], 1) for key in piles] + [("jobs", cards[key], 1) for key in jobs]
    return deck_services.create_deck(owner=owner, game=game, name=name, entries=entries, visibility=visibility)
