"""Writes of uploaded images: checking an upload (``cards.images``), keeping it in the default storage, and
counting it against its uploader's allowance.

Every path that takes a picture (the card image form, a change set's source photo, the API) calls
``image_store``; what a refusal says is worded here once, in the reader's language, naming the limit.
"""

from __future__ import annotations

import logging
import math
import secrets
from datetime import timedelta
from functools import partial
from typing import IO, Any, BinaryIO

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cardsite import pagecache
from cardsite.errors import AppError, Message, QuotaExceeded
from cardsite.sizes import megabytes
from cardsite.storage import following_transaction, store_file
from cardsite.types import SiteUser

from ..models import StoredImage
from .encoding import ACCEPTED_FORMATS, ImageLimits, ImageRefused, check_image

logger = logging.getLogger("cards")


class ImageError(AppError):
    """An upload that is not an image the site takes, or is over a limit; nothing was stored."""

    code = "image_refused"


class ImageTooLarge(ImageError):
    status = 413


_REFUSALS: dict[str, tuple[Any, type[ImageError]]] = {
    "too_large": (_("The file is larger than %(limit)s, the most an upload may be."), ImageTooLarge),
    "too_many_pixels": (
        _("The image has more than %(limit)s pixels (width × height), the most an upload may have."),
        ImageTooLarge,
    ),
    "too_small": (_("The image is smaller than %(limit)s pixels on a side, too small to show a card."), ImageError),
    "not_an_image": (_("The file is not an image in one of these formats: %(formats)s."), ImageError),
    "unreadable": (_("The image cannot be read: the file is damaged or cut short."), ImageError),
    "empty": (_("The file is empty."), ImageError),
}


def image_limits() -> ImageLimits:
    return ImageLimits(max_bytes=settings.IMAGE_MAX_BYTES, max_pixels=settings.IMAGE_MAX_PIXELS)


def refusal(error: ImageRefused, field: str = "file") -> ImageError:
    """The site's error for a refused upload: its message names the limit, in the reader's language."""
    template, kind = _REFUSALS.get(error.code, _REFUSALS["unreadable"])
    limit = error.params.get("limit", 0)
    shown = (megabytes(limit) if error.code == "too_large" else f"{limit:,}") if isinstance(limit, int) else limit
    params = {"limit": shown, "formats": ", ".join(ACCEPTED_FORMATS)}
    message = Message(template, params)
    return kind(message, code=f"image_{error.code}", errors={field: [message]})


def too_large_upload(field: str = "file") -> ImageError:
    """A request whose body is already larger than an image may be (refused before it is read)."""
    return refusal(ImageRefused("too_large", limit=settings.IMAGE_MAX_BYTES), field)


def _check_allowance(uploader: Any) -> None:
    """At most IMAGE_UPLOADS_PER_DAY uploads in 24 hours; the uploader's row is locked so that two uploads at
    once cannot both take the last one."""
    limit = settings.IMAGE_UPLOADS_PER_DAY
    get_user_model().objects.select_for_update().filter(pk=uploader.pk).first()
    now = timezone.now()
    recent = StoredImage.objects.filter(uploaded_by=uploader, uploaded_at__gte=now - timedelta(days=1))
    count = recent.count()
    if count >= limit:
        # Room comes back when enough of the day's uploads are a day old: the (count - limit + 1)th oldest.
        if limit > 0:
            oldest = recent.order_by("uploaded_at").values_list("uploaded_at", flat=True)[count - limit]
            wait = math.ceil((oldest + timedelta(days=1) - now).total_seconds())
        else:
            wait = 86_400
        raise QuotaExceeded(
            Message(
                _("You have uploaded %(limit)s images in the last 24 hours, the most a day allows."), {"limit": limit}
            ),
            code="image_uploads_per_day",
            retry_after=wait,
        )


def _stored_name(extension: str) -> tuple[str, str]:
    """Names for a new upload and its thumbnail, from a random key: an upload's address says nothing of its id,
    of its content or of the other uploads, so it cannot be guessed, only be given."""
    key = secrets.token_urlsafe(18)
    return f"images/{key[:2]}/{key}.{extension}", f"images/{key[:2]}/{key}-thumb.{extension}"


@transaction.atomic
def _image_store(*, uploader: Any, stream: IO[bytes], field: str) -> tuple[StoredImage, bool]:
    try:
        checked = check_image(stream, image_limits())
    except ImageRefused as error:
        raise refusal(error, field) from None
    existing = StoredImage.objects.filter(sha256=checked.sha256, uploaded_by=uploader).first()
    if existing is not None:  # kept already for this uploader: nothing stored, nothing counted
        return existing, False
    _check_allowance(uploader)
    name, thumbnail_name = _stored_name(checked.format)
    try:
        with transaction.atomic():  # the files are written in the savepoint, and go if it rolls back
            stored = StoredImage(
                file=store_file(name, ContentFile(checked.image.data)),
                thumbnail=store_file(thumbnail_name, ContentFile(checked.thumbnail.data)),
                format=checked.format,
                width=checked.image.width,
                height=checked.image.height,
                thumbnail_width=checked.thumbnail.width,
                thumbnail_height=checked.thumbnail.height,
                bytes=len(checked.image.data),
                sha256=checked.sha256,
                uploaded_by=uploader,
            )
            stored.save()
    except IntegrityError:  # the same picture stored by this uploader's other request meanwhile
        return StoredImage.objects.get(sha256=checked.sha256, uploaded_by=uploader), False
    return stored, True


def image_store(*, uploader: SiteUser, stream: BinaryIO | File, field: str = "file") -> StoredImage:
    """Check an upload, re-encode it without metadata, keep it and its thumbnail; the stored image (the one
    this uploader already kept, when they uploaded the same picture before, which does not count against the
    allowance). ``ImageError`` (400/413) or ``QuotaExceeded`` (429) otherwise, with ``field`` named in its
    errors.

    Each uploader's picture is a row of its own (``StoredImage.uploaded_by``, the one who may attach it to a
    change: ``contributions.services``), under a random name. The files follow the transaction
    (``cardsite.storage``): refused by the database, or rolled back by the caller, they are removed."""
    return image_store_or_found(uploader=uploader, stream=stream, field=field)[0]


def image_store_or_found(
    *, uploader: SiteUser, stream: BinaryIO | File, field: str = "file"
) -> tuple[StoredImage, bool]:
    """``image_store``, and whether the picture was stored now (False: this uploader had kept it already)."""
    with following_transaction():
        return _image_store(uploader=uploader, stream=stream, field=field)


def image_hash(stored: StoredImage) -> str:
    """The stored image's perceptual hash (``cards.reading.fingerprint``), computed and kept the first time;
    "" for a picture without detail or whose file cannot be read (logged; the caller goes on without it)."""
    if stored.perceptual_hash:
        return stored.perceptual_hash
    from PIL import Image

    from ..reading.fingerprint import perceptual_hash

    try:
        with stored.file.open("rb") as stream, Image.open(stream) as picture:
            picture.load()
            value = perceptual_hash(picture) or ""
    except (OSError, ValueError, SyntaxError) as error:
        logger.warning("an image could not be hashed", extra={"image": stored.pk, "error": str(error)})
        return ""
    if value:
        StoredImage.objects.filter(pk=stored.pk).update(perceptual_hash=value)
        stored.perceptual_hash = value
    return value


def _rename_one(stored: StoredImage) -> bool:
    # Copies under new names first, the row next, the old files only once the row is committed: a failure
    # anywhere leaves the upload served from one pair of names or the other, never from none.
    with stored.file.open("rb") as stream:
        image = stream.read()
    with stored.thumbnail.open("rb") as stream:
        thumbnail = stream.read()
    old_file, old_thumbnail = stored.file.name, stored.thumbnail.name
    assert old_file is not None and old_thumbnail is not None  # both were just read
    old = [old_file, old_thumbnail]
    name, thumbnail_name = _stored_name(stored.format)
    with following_transaction(), transaction.atomic():
        current = StoredImage.objects.select_for_update().filter(pk=stored.pk, file=old[0]).first()
        if current is None:  # renamed meanwhile
            return False
        current.file = store_file(name, ContentFile(image))
        current.thumbnail = store_file(thumbnail_name, ContentFile(thumbnail))
        current.save(update_fields=["file", "thumbnail"])
        for old_name in old:
            transaction.on_commit(partial(default_storage.delete, old_name))
    return True


def rename_content_named() -> tuple[int, list[str]]:
    """Give every upload still stored under its content hash (the names of uploads kept before names were
    random) a random name, as new uploads get; the old files are deleted. The number renamed, and the
    names of the uploads whose files could not be read (left as they are). Safe to run again."""
    renamed = 0
    unreadable: list[str] = []
    for stored in StoredImage.objects.order_by("pk").iterator():
        if stored.file.name is None or stored.sha256 not in stored.file.name:
            continue
        try:
            renamed += _rename_one(stored)
        except OSError:
            unreadable.append(stored.file.name)
    if renamed:
        pagecache.bump("cards")  # cached pages link the old addresses
    return renamed, unreadable
