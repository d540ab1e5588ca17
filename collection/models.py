"""A player's collection: how many copies of each card they own.

One row per (owner, card); the card's game is the collection it belongs to, so "the collection of a game" is the
rows whose card is of that game. Writes go through ``collection.services``; reads through ``collection.selectors``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from cards.models import Card

# The most copies of one card a collection records: far beyond any real collection of these games, small enough
# that a count is never a number too large for a column or a sum.
MAX_OWNED = 999


class OwnedCard(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_cards")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="owned_by")
    count = models.PositiveSmallIntegerField(_("copies owned"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["owner", "card__sort_key"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "card"], name="one_owned_row_per_card"),
            models.CheckConstraint(
                condition=models.Q(count__gte=0) & models.Q(count__lte=MAX_OWNED), name="owned_count_in_bounds"
            ),
        ]
        verbose_name = _("owned card")
        verbose_name_plural = _("owned cards")

    def __str__(self) -> str:
        return f"{self.count} {self.card.key}"
