"""Serving uploaded images from the default storage, whatever its backend.

gunicorn and WhiteNoise serve static files only, and an S3 bucket's own addresses would need the pages'
Content-Security-Policy to name another host: so the site streams its images itself, under MEDIA_URL. Only
a name the database knows (an image or a thumbnail of a ``StoredImage``) is served, never another path of
the storage; its Content-Type is the stored format's, never guessed (``nosniff``), and its own
Content-Security-Policy lets the picture show and nothing run. A name is given once (random, or the content
hash of an older upload) and its file never changes: cached for a year, and revalidated by their ETag.
"""

from __future__ import annotations

from django.core.files.storage import default_storage
from django.db.models import Q
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.views.decorators.http import require_safe

from ..models import StoredImage
from .encoding import content_type

IMAGE_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox"


@require_safe
def media(request: HttpRequest, name: str) -> HttpResponse:
    stored = StoredImage.objects.filter(Q(file=name) | Q(thumbnail=name)).only("format", "sha256", "thumbnail").first()
    if stored is None:
        raise Http404
    etag = f'"{stored.sha256[:32]}{"t" if stored.thumbnail.name == name else ""}"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        try:
            handle = default_storage.open(name, "rb")
        except OSError:  # in the database but not in the storage (a restore without the files)
            raise Http404 from None
        response = FileResponse(handle, content_type=content_type(stored.format))
        response["Content-Disposition"] = "inline"
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = IMAGE_POLICY
    response._csp_exempt = True  # type: ignore[attr-defined]  # django-csp: this header is the one above
    return response
