"""The site's URLs plus ``/__bare__/``: a view that answers a constant, through the same middleware."""

from django.http import HttpResponse
from django.urls import include, path


def bare(request):
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("__bare__/", bare), path("", include("cardsite.urls"))]
