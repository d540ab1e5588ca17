"""Settings for the test suite: the production settings with the environment a test run needs."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
# Tests talk plain HTTP to the live server; secure-only cookies would never be sent back.
os.environ.setdefault("SECURE_COOKIES", "0")
# Each test process its own cache (throttles start empty; tests of shared limits set CACHE_URL themselves).
os.environ.setdefault("CACHE_URL", "locmem://tests")
os.environ.setdefault("LOG_FORMAT", "text")
os.environ.setdefault("LOG_LEVEL", "WARNING")
# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls
# there unless told that this (test-only) use is deliberate.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from .settings import *  # noqa: F403

# Static files as they are (the hashed manifest is made by collectstatic, which the production-server
# tests run themselves).
STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}  # noqa: F405
# Serve static files from the apps' folders, as DEBUG does (no collectstatic before the tests).
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
