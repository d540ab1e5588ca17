"""Games, cards and their texts in each language.

What a game's cards may carry (kinds, fields, types) is declared in
``cards.gamedefs``; a card stores only the values the sources give in
``Card.fields``, so a missing key means "unknown". Writes go through
``cards.services``.
"""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardsite.labels import SIMPLIFIED, TRADITIONAL, ShownName, simplified

from .gamedefs import get_game
from .gamedefs.base import CheckedValues, GameDefinition

LANGUAGE_CHOICES = [("ja", "日本語"), ("zh-hant", "繁體中文"), ("en", "English")]


class Game(models.Model):
    slug = models.SlugField(_("slug"), unique=True)
    sort_order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["sort_order", "slug"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.definition.name("en")

    @property
    def definition(self) -> GameDefinition:
        return get_game(self.slug)


class Card(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cards", verbose_name=_("game"))
    key = models.CharField(_("key"), max_length=100, help_text=_("Printed number, or the original name"))
    # NULL, not "", is how the database says "no source gives it" (ground rule: unknown is not a value).
    number = models.CharField(_("number"), max_length=32, blank=True, null=True)  # noqa: DJ001
    kind = models.CharField(_("kind"), max_length=32, blank=True, null=True)  # noqa: DJ001
    fields = models.JSONField(_("fields"), default=dict, blank=True)
    source = models.TextField(_("source of the values"), blank=True, default="")
    # Natural order of printed numbers, then unnumbered cards by key (see services.card_sort_key).
    sort_key = models.CharField(max_length=200, db_index=True, editable=False, default="")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "sort_key"]
        constraints = [models.UniqueConstraint(fields=["game", "key"], name="card_key_unique_per_game")]
        indexes = [models.Index(fields=["game", "kind", "sort_key"])]
        verbose_name = _("card")
        verbose_name_plural = _("cards")

    def __str__(self) -> str:
        return self.key

    @cached_property
    def checked(self) -> CheckedValues:
        """The stored kind and values as the game's declarations accept them.

        What reads a card's values (pages, deck rules, the goldfish, the API) reads them here: a
        value that breaks its declaration (stored by hand in the database, or before a declaration
        changed) counts as unknown there, and the card page shows it marked as invalid.
        """
        return self.game.definition.check_values(self.kind, self.fields)

    def text_in(self, language: str) -> CardText | None:
        """The card's main text in ``language`` (not another translation track's)."""
        return next((text for text in self.texts.all() if text.language == language and text.is_main), None)

    def display_name(self, language: str) -> str:
        """The name in ``language``, else in the game's original language, else any (main texts only)."""
        return self.shown_name(language).text

    def shown_name(self, language: str) -> ShownName:
        """``display_name`` with the language it is written in."""
        texts = {text.language: text for text in self.texts.all() if text.name and text.is_main}
        if language == SIMPLIFIED and TRADITIONAL in texts:
            return ShownName(simplified(texts[TRADITIONAL].name), SIMPLIFIED, converted_from=TRADITIONAL)
        preferred = [language, self.game.definition.original_language, "ja", "zh-hant", "en"]
        for code in preferred:
            if code in texts:
                return ShownName(texts[code].name, code)
        return ShownName(self.key, None)


class TranslationTrack(models.Model):
    """A named translation of a game's card texts into one language, as ygocdb keeps several Chinese ones.

    A language may hold several tracks, each with its credits and its status; a card has at most one text in
    each. The *main* track of a language is the one the card format's ``texts`` write into (a seed file
    declares its own, credited to the seed); a card's other tracks are its ``translations``. The original
    language has no tracks: its text is what the tracks translate.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("status of a translation", "draft")
        REVIEWED = "reviewed", pgettext_lazy("status of a translation", "reviewed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="tracks", verbose_name=_("game"))
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=100)
    credits = models.CharField(_("credits"), max_length=300, blank=True, default="")
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default=Status.DRAFT)
    main = models.BooleanField(_("main track of its language"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "language", "-main", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "language", "name"], name="track_name_unique_per_language"),
            models.UniqueConstraint(
                fields=["game", "language"], condition=models.Q(main=True), name="one_main_track_per_language"
            ),
        ]
        verbose_name = _("translation track")
        verbose_name_plural = _("translation tracks")

    def __str__(self) -> str:
        return f"{self.game.slug} [{self.language}] {self.name}"


class CardTextManager(models.Manager):
    """Texts come with their track (one join), so telling a main text from another track's costs no query."""

    def get_queryset(self) -> models.QuerySet:
        return super().get_queryset().select_related("track")


class CardText(models.Model):
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="texts")
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=200, blank=True, default="")
    text = models.TextField(_("rules text"), blank=True, default="")
    notes = models.TextField(_("translator's notes"), blank=True, default="")
    source = models.CharField(_("source"), max_length=300, blank=True, default="")
    # None: the language's only text (the original's, or a translation no track claims).
    track = models.ForeignKey(
        TranslationTrack, on_delete=models.PROTECT, null=True, blank=True, related_name="texts", verbose_name=_("track")
    )
    # For the original text, the revision that last changed it; for a translation, the revision of the original
    # text it translates. A translation whose pin is not its original's is stale (``cards.revisions``, which
    # keeps both after every revision, whatever wrote it). Not part of a revision's data itself.
    pinned_revision = models.ForeignKey(
        "reversion.Revision", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", editable=False
    )

    objects = CardTextManager()

    class Meta:
        ordering = ["card", "language", models.F("track_id").asc(nulls_first=True)]
        constraints = [
            models.UniqueConstraint(
                fields=["card", "language"], condition=models.Q(track__isnull=True), name="one_text_per_card_language"
            ),
            models.UniqueConstraint(
                fields=["card", "track"], condition=models.Q(track__isnull=False), name="one_text_per_card_track"
            ),
        ]
        verbose_name = _("card text")
        verbose_name_plural = _("card texts")

    def __str__(self) -> str:
        return f"{self.card.key} [{self.language}]"

    @property
    def is_main(self) -> bool:
        """The text the card format's ``texts`` holds for its language (not another track's)."""
        return self.track_id is None or self.track.main


class TrackPreference(models.Model):
    """The translation track a signed-in reader prefers for one language of one game (others keep theirs in
    their session)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="track_preferences")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    language = models.CharField(max_length=8, choices=LANGUAGE_CHOICES)
    track = models.ForeignKey(TranslationTrack, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "language"], name="one_preferred_track_per_language")
        ]

    def __str__(self) -> str:
        return f"{self.user} prefers {self.track}"


class Term(models.Model):
    """A glossary entry of a game: a rules word, a keyword ability or a printed symbol."""

    class Category(models.TextChoices):
        TERM = "term", _("term")
        KEYWORD = "keyword", _("keyword ability")
        SYMBOL = "symbol", _("symbol")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="terms")
    key = models.CharField(_("key"), max_length=100)
    category = models.CharField(_("category"), max_length=16, choices=Category.choices, default=Category.TERM)
    sort_order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "category", "sort_order"]
        constraints = [models.UniqueConstraint(fields=["game", "key"], name="term_key_unique_per_game")]
        verbose_name = _("glossary term")
        verbose_name_plural = _("glossary terms")

    def __str__(self) -> str:
        return self.key


class TermText(models.Model):
    term = models.ForeignKey(Term, on_delete=models.CASCADE, related_name="texts")
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    name = models.CharField(_("name"), max_length=200, blank=True, default="")
    text = models.TextField(_("meaning"), blank=True, default="")
    source = models.CharField(_("source"), max_length=300, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)  # with the row count, tells the search its glossary changed

    class Meta:
        ordering = ["term", "language"]
        constraints = [models.UniqueConstraint(fields=["term", "language"], name="one_text_per_term_language")]

    def __str__(self) -> str:
        return f"{self.term.key} [{self.language}]"


class RuleSection(models.Model):
    """A section of a game's rules as its seed gives them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rule_sections")
    key = models.CharField(_("section"), max_length=16)
    order = models.IntegerField(default=0)

    class Meta:
        ordering = ["game", "order", "id"]
        verbose_name = _("rules section")
        verbose_name_plural = _("rules sections")

    def __str__(self) -> str:
        return f"{self.game.slug}: {self.key}"


class RuleText(models.Model):
    section = models.ForeignKey(RuleSection, on_delete=models.CASCADE, related_name="texts")
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    title = models.CharField(_("title"), max_length=200, blank=True, default="")
    body = models.TextField(_("body"))
    source = models.CharField(_("source"), max_length=300, blank=True, default="")

    class Meta:
        ordering = ["section", "language"]
        constraints = [models.UniqueConstraint(fields=["section", "language"], name="one_text_per_rule_language")]

    def __str__(self) -> str:
        return f"{self.section} [{self.language}]"


class SearchDocument(models.Model):
    """A card's search tokens (see ``cards.search.tokens``), indexed by the database's text index.

    SQLite: the FTS5 table ``cards_search_fts`` (external content, its rowid the
    document's ``position``, kept in step by triggers on this table). PostgreSQL: the
    generated ``vector`` column with a GIN index. Both are created by migrations 0003
    and 0006. Rows are written by ``cards.search.indexing``.
    """

    card = models.OneToOneField(Card, on_delete=models.CASCADE, primary_key=True, related_name="search_document")
    # The card's place in number order, with gaps (see cards.search.indexing).
    position = models.BigIntegerField(unique=True)
    document = models.TextField()
    # PostgreSQL: the folded texts, where a phrase's needle is looked for (``cards.search.tokens``); None on
    # SQLite. Stored in the row (migration 0017), so testing a candidate does not read the document out of TOAST.
    # (Nullable without a default, so that SQLite adds the column rather than rebuild the table and lose the
    # FTS5 table's triggers.)
    phrase_text = models.TextField(null=True, blank=True)  # noqa: DJ001 (None: not kept, as said above)

    def __str__(self) -> str:
        return f"search document of card {self.card_id}"


class SearchPosting(models.Model):
    """One token of one search document, by the document's position (PostgreSQL only; empty on SQLite).

    Kept by triggers on ``SearchDocument`` from its ``vector`` (migration 0008), never written by Python.
    A query of one token reads its count and its first page from this table's primary key alone, in
    position order, as SQLite's FTS5 reads its index (``cards.search.backends``); PostgreSQL's GIN index
    would fetch every matching document to count and sort them. A model, not a bare table, so that
    everything that empties the models' tables (a test's flush, a restore) empties it too.
    """

    pk = models.CompositePrimaryKey("token", "position")
    token = models.TextField()
    position = models.BigIntegerField()

    def __str__(self) -> str:
        return f"{self.token}@{self.position}"


class SearchTokenCount(models.Model):
    """How many search documents hold a token (PostgreSQL only; empty on SQLite).

    Kept by the same triggers as ``SearchPosting`` (migration 0009), so a query of one token reads its
    count from one row rather than counting its postings.
    """

    token = models.TextField(primary_key=True)
    documents = models.BigIntegerField()

    def __str__(self) -> str:
        return f"{self.token}: {self.documents}"


class CardFieldValue(models.Model):
    """One known value of a card's field, for field filters and ordering; unknown values have no row."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="field_values")
    field = models.CharField(max_length=32)
    number = models.BigIntegerField(null=True)
    text = models.CharField(max_length=200, default="")

    class Meta:
        indexes = [
            models.Index(fields=["field", "number", "card"], name="field_value_number"),
            models.Index(fields=["field", "text", "card"], name="field_value_text"),
            # For testing one card (the correlated probes of cards.search.idsets).
            models.Index(fields=["card", "field", "number"], name="field_value_of_card"),
        ]

    def __str__(self) -> str:
        return f"{self.card_id}.{self.field}"


class RevisionSource(models.Model):
    """Where the changes of one revision of the cards came from (django-reversion's revision metadata).

    Every write of a card is a revision (``cards.revisions``): who, when and what are django-reversion's;
    this says by which path and from which source, so a card's history can say "seed 000" or "admin".
    """

    class Kind(models.TextChoices):
        SEED = "seed", pgettext_lazy("source of a change", "seed data")
        IMPORT = "import", pgettext_lazy("source of a change", "import")
        ADMIN = "admin", pgettext_lazy("source of a change", "admin")
        CONTRIBUTION = "contribution", pgettext_lazy("source of a change", "contribution")
        # An editor undid one revision (detail: its number), or brought back a deleted card (detail: the
        # number of its last revision); the editor is the revision's user.
        REVERT = "revert", pgettext_lazy("source of a change", "revert")
        RESTORE = "restore", pgettext_lazy("source of a change", "restored")

    revision = models.OneToOneField("reversion.Revision", on_delete=models.CASCADE, related_name="source")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    detail = models.CharField(max_length=300, blank=True, default="")  # the file, or what the editor wrote
    url = models.CharField(max_length=200, blank=True, default="")  # a page about the source (a change set's)
    # A photo or scan of the physical card the change came from (a change set's source photo).
    photo = models.ForeignKey("StoredImage", on_delete=models.PROTECT, null=True, blank=True, related_name="+")

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}" if self.detail else self.kind


class SeedState(models.Model):
    """A seed card as the seed files gave it when it was last loaded (number, kind, fields, source, texts).

    ``loadcards`` compares a seed file's card with this and with the card as it is now: a seed that has not
    changed leaves the card alone, whatever changed it since; a seed that changed is applied only to a card
    nobody else changed, and otherwise becomes a ``SeedConflict``.
    """

    card = models.OneToOneField(Card, on_delete=models.CASCADE, primary_key=True, related_name="seed_state")
    record = models.JSONField()
    loaded_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"seed state of card {self.card_id}"


class SeedConflict(models.Model):
    """A seed file changed a card that has also been changed since it was loaded: the card was kept as it is.

    Waits for an editor: ``seed`` is what the seed files now say, ``base`` what they said before (None for a
    card loaded before seed states were kept), and the card itself holds the other change.
    """

    card = models.OneToOneField(Card, on_delete=models.CASCADE, related_name="seed_conflict")
    base = models.JSONField(null=True, blank=True)
    seed = models.JSONField()
    found_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("seed conflict")
        verbose_name_plural = _("seed conflicts")

    def __str__(self) -> str:
        return f"seed conflict of card {self.card_id}"


class StoredImage(models.Model):
    """An uploaded picture as the site keeps it: re-encoded without metadata, with its thumbnail
    (``cards.images``), in the default storage (``STORAGES["default"]``: files under MEDIA_ROOT, or any
    backend), under a random name (``services_images``): its address cannot be guessed from its id. The same
    picture uploaded twice by one user is one row; by two users, two rows, each its uploader's to attach.

    It is a card's image (``CardImage``) once a change set that proposes it is applied, or the photo a change
    set gives as its source. Never deleted: a removed card image keeps its file (``CardImage.removed_at``).
    """

    file = models.FileField(max_length=200)
    thumbnail = models.FileField(max_length=200)
    format = models.CharField(max_length=8)  # of both files: "webp"
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    thumbnail_width = models.PositiveIntegerField()
    thumbnail_height = models.PositiveIntegerField()
    bytes = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64, db_index=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="uploaded_images"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # The perceptual hash of the card it shows (``cards.reading.fingerprint``), to recognise a photo of a card
    # that already has this picture; "" until computed (``services_images.image_hash``), or for a picture
    # without detail.
    perceptual_hash = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("uploaded image")
        verbose_name_plural = _("uploaded images")
        constraints = [
            models.UniqueConstraint(fields=["uploaded_by", "sha256"], name="stored_image_once_per_uploader"),
        ]

    def __str__(self) -> str:
        return self.file.name

    @property
    def url(self) -> str:
        """Where the site serves it (``cards.images.views``), whatever the storage's own address."""
        return reverse("cards:media", args=[self.file.name])

    @property
    def thumbnail_url(self) -> str:
        return reverse("cards:media", args=[self.thumbnail.name])


class CardImage(models.Model):
    """A picture of a card: its face, its back, or a printing in one language. Shown on the card page, in
    search results and in the deck builder; the first face (by ``position``) is the card's picture."""

    class Side(models.TextChoices):
        FACE = "face", pgettext_lazy("side of a card", "face")
        BACK = "back", pgettext_lazy("side of a card", "back")
        OTHER = "other", pgettext_lazy("side of a card", "other")

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="images")
    image = models.ForeignKey(StoredImage, on_delete=models.PROTECT, related_name="card_images")
    side = models.CharField(_("side"), max_length=8, choices=Side.choices, default=Side.FACE)
    # The language of the printing shown; "" for a picture that shows no text, or one not said.
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES, blank=True, default="")
    position = models.PositiveIntegerField(default=0)
    added_at = models.DateTimeField(auto_now_add=True)
    # Removed by a reviewed change: hidden, kept with its file, and put back by proposing it again.
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["card", "position", "pk"]
        constraints = [models.UniqueConstraint(fields=["card", "image"], name="one_card_image_per_upload")]
        verbose_name = _("card image")
        verbose_name_plural = _("card images")

    def __str__(self) -> str:
        return f"{self.card_id}: {self.side} {self.language}".strip()
