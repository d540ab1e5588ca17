"""Decks: a player's cards per zone for one game, with the game's mode and options.

What zones, modes and options a game has, and its construction rules, are declared
in ``decks.rules`` (plain Python). Writes go through ``decks.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Game
from cardsite.sharing import Shared, new_share_token
from cardsite.sharing import Visibility as SharedVisibility

__all__ = [
    "Deck",
    "DeckEntry",
    "DeckFolder",
    "DeckPlaceholder",
    "DeckTag",
    "DeckVersion",
    "DeckVisibility",
    "new_share_token",
]


class DeckVisibility(models.TextChoices):
    """Who sees a deck: its owner, or whoever has its share link. A deck is never public: what everyone browses,
    likes, comments on and copies is a published snapshot of it (NetrunnerDB's deck and decklist), so a deck
    shown to everyone is published, not made public."""

    PRIVATE = SharedVisibility.PRIVATE.value, SharedVisibility.PRIVATE.label
    LINK = SharedVisibility.LINK.value, SharedVisibility.LINK.label


class DeckFolder(models.Model):
    """A folder of a player's own decks: one level, a deck in at most one folder. Folders,
    tags and the archive are the owner's organisation, shown to the owner alone (``decks.organise.services``)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deck_folders")
    name = models.CharField(_("name"), max_length=60)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="one_folder_name_per_owner")]
        verbose_name = _("deck folder")
        verbose_name_plural = _("deck folders")

    def __str__(self) -> str:
        return self.name


class DeckTag(models.Model):
    """A tag a player puts on their own decks; a tag no deck carries any more is removed."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deck_tags")
    name = models.CharField(_("name"), max_length=40)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="one_tag_name_per_owner")]
        verbose_name = _("deck tag")
        verbose_name_plural = _("deck tags")

    def __str__(self) -> str:
        return self.name


class Deck(Shared):
    Visibility = DeckVisibility  # type: ignore[assignment]  # the sharing choices less "public"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="decks")
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True, default="")
    mode = models.CharField(_("mode"), max_length=32, default="")
    options = models.JSONField(_("options"), default=dict, blank=True)
    visibility = models.CharField(
        _("visibility"), max_length=8, choices=DeckVisibility.choices, default=DeckVisibility.PRIVATE
    )
    # The deck this one was copied from (NetrunnerDB's precedent, ArkhamDB's previous deck); kept as null when
    # that deck is deleted. Shown only to someone who may see it (``selectors.lineage``).
    forked_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="forks", verbose_name=_("copied from")
    )
    # The owner's organisation (never a change of the deck: ``updated_at`` and the versions stay as they are).
    folder = models.ForeignKey(
        DeckFolder, on_delete=models.SET_NULL, null=True, blank=True, related_name="decks", verbose_name=_("folder")
    )
    tags = models.ManyToManyField(DeckTag, blank=True, related_name="decks", verbose_name=_("tags"))
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta(Shared.Meta):
        ordering = ["-updated_at", "id"]
        indexes = [models.Index(fields=["game", "visibility", "-updated_at"])]
        verbose_name = _("deck")
        verbose_name_plural = _("decks")

    def __str__(self) -> str:
        return self.name


class DeckEntry(models.Model):
    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    zone = models.CharField(_("zone"), max_length=32)
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_entries")
    count = models.PositiveSmallIntegerField(_("count"), default=1)

    class Meta:
        ordering = ["zone", "card__sort_key"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "zone", "card"], name="one_entry_per_card_and_zone"),
            models.CheckConstraint(condition=models.Q(count__gte=1), name="entry_count_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.card.key} ({self.zone})"


class DeckVersion(models.Model):
    """A saved state of a deck's cards, kept by ``decks.services`` on every change of its
    entries: ``entries`` as ``[{"zone", "card", "count"}]`` (card keys), the deck's name and the verdict then
    (``{"legal", "checked", "findings": [{"rule", "kind", "texts"}]}``). Changes of the same kind within
    ``services.VERSION_COALESCE_SECONDS`` update the last version instead of adding one."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField(_("number"))
    created_at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(_("change"), max_length=32, default="")
    entries = models.JSONField(default=list)
    # The placeholder cards then: ``[{"zone", "kind", "values", "name", "count"}]`` (``decks.placeholders``).
    placeholders = models.JSONField(default=list, blank=True)
    name = models.CharField(_("name"), max_length=120)
    verdict = models.JSONField(default=dict)
    note = models.CharField(_("note"), max_length=200, blank=True, default="")

    class Meta:
        ordering = ["deck", "number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="one_version_number_per_deck")]
        verbose_name = _("deck version")
        verbose_name_plural = _("deck versions")

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"

    @property
    def legal(self) -> bool:
        return bool(self.verdict.get("legal"))


class DeckPlaceholder(models.Model):
    """Cards the deck will hold once they exist in the database: a kind of the game (``decks.rules``
    ``placeholders``) with the values the player states, ``count`` copies. Never a card: never legal, never in
    search or card pages; the goldfish deals it with its stated values and says so (``decks.placeholders``)."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="placeholders")
    zone = models.CharField(_("zone"), max_length=32)
    kind = models.CharField(_("kind"), max_length=32)
    values = models.JSONField(_("stated values"), default=dict, blank=True)
    name = models.CharField(_("name"), max_length=120, blank=True, default="")
    count = models.PositiveSmallIntegerField(_("count"), default=1)

    class Meta:
        ordering = ["zone", "kind", "id"]
        constraints = [models.CheckConstraint(condition=models.Q(count__gte=1), name="placeholder_count_positive")]
        verbose_name = _("placeholder card")
        verbose_name_plural = _("placeholder cards")

    def __str__(self) -> str:
        return f"{self.count} {self.kind} placeholder ({self.zone})"
