"""What every page that answers htmx with a fragment needs."""

from django.views.decorators.vary import vary_on_headers

# The same URL answers a whole page or a fragment depending on these headers, so caches must
# keep the answers apart (a Back navigation must never get a fragment).
vary_on_htmx = vary_on_headers("HX-Request", "HX-History-Restore-Request", "HX-Boosted")
