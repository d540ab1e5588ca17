"""gunicorn's settings for the site (``gunicorn -c cardsite/gunicorn.conf.py cardsite.wsgi``).

From the environment: ADDRESS (host:port, default 127.0.0.1:8000), WEB_WORKERS (processes, default
the number of CPUs), WEB_THREADS (threads per process, default 4), LOG_FORMAT (json or text),
ACCESS_LOG (0 turns the access log off). Behind a proxy, set FORWARDED_ALLOW_IPS to its address (or
addresses, networks) so that its X-Forwarded-* headers are believed, here and by the site.
"""

import gc
import multiprocessing
import os

from cardsite.env import trusted_proxies

bind = os.environ.get("ADDRESS", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_WORKERS", multiprocessing.cpu_count()))
# Threads let a process go on answering while one of its requests waits for the database (SQLite's
# write lock, PostgreSQL's network); the processes use the cores.
worker_class = "cardsite.gunicorn_worker.SiteWorker"  # gunicorn's gthread, its refusals in the site's shape
threads = int(os.environ.get("WEB_THREADS", "4"))
# A request is answered within the statement limit (REQUEST_STATEMENT_TIMEOUT); this only stops a
# worker that hangs outside the database.
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# Load the application before forking: one copy of the code in memory, and a broken configuration
# stops the server at once instead of in every worker.
preload_app = True
# Bounded request lines and headers. The site's own header limits (REQUEST_HEADER_FIELDS_MAX = 100 fields,
# REQUEST_HEADER_FIELD_MAX_BYTES = 8190 bytes each, cardsite.middleware) are the ones a client meets, answered
# in the site's shape (431); gunicorn's are set above them (at most 128 x 16 KiB buffered per request) and only
# stop what is far larger. The request line's limit is gunicorn's maximum (above 8190 there is only "unlimited"):
# gunicorn answers it (414), as it answers a request line or header that is not valid HTTP (400), in the
# site's shape (cardsite.gunicorn_worker).
limit_request_line = 8190
limit_request_fields = 128
limit_request_field_size = 16384
# The proxies whose X-Forwarded-Proto gunicorn believes: the very list whose X-Forwarded-For the site
# reads for a client's address (cardsite.clients). None by default: bin/run-site is reached directly.
forwarded_allow_ips = ",".join(trusted_proxies("FORWARDED_ALLOW_IPS"))

errorlog = "-"
accesslog = "-" if os.environ.get("ACCESS_LOG", "1") not in {"0", "false", "no", "off"} else None
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# Either way the access log names the client as the site counts it and hides share-link tokens.
if os.environ.get("LOG_FORMAT", "json").lower() == "json":
    logger_class = "cardsite.gunicorn_logging.JsonLogger"
else:
    logger_class = "cardsite.gunicorn_logging.TextLogger"


def post_fork(server, worker):
    # preload_app imported Django in the master: connections opened there must not be shared.
    from django.db import connections

    connections.close_all()


def when_ready(server):
    # Called in the master once preload_app has imported Django and the site, before any worker is
    # forked. Freezing moves those long-lived objects (modules, URL patterns, templates, the card
    # registry) out of the collector's sight: a worker's full collections then scan only what its
    # requests made, instead of the whole site on each one, and the pages stay shared between workers
    # rather than being copied when the collector touches them (the practice CPython's gc.freeze
    # documentation describes for pre-fork servers).
    gc.freeze()
