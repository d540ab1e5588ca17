"""Settings for the test suite: the production settings with the environment a test run needs."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
# Tests talk plain HTTP to the live server; secure-only cookies would never be sent back.
os.environ.setdefault("SECURE_COOKIES", "0")
# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls
# there unless told that this (test-only) use is deliberate.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from .settings import *  # noqa: F403
