"""Loaded by pytest before Django: settings the test run needs from the environment."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
# Tests talk plain HTTP to the live server; secure-only cookies would never be sent back.
os.environ.setdefault("SECURE_COOKIES", "0")
# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls
# there unless told that this (test-only) use is deliberate.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
