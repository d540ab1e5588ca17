import os
import shutil
import time

import pytest
from django.core.management import call_command

from .users import make_user

# Helper modules whose asserts report like a test's own.
pytest.register_assert_rewrite("tests.deck_rules_helpers")


@pytest.fixture
def seeded_db(db):
    """The database with every seed file loaded, as the run command loads it."""
    call_command("loadcards", verbosity=0)


@pytest.fixture
def synthetic_cards(db):
    """The clearly synthetic cards of every game (tests/synthetic_decks.py), loaded as a card file is."""
    from .synthetic_decks import load_synthetic_cards

    load_synthetic_cards()


@pytest.fixture
def owner(db):
    """A user, "owner" (password ``tests.users.PASSWORD``): the one who makes the decks."""
    return make_user("owner")


@pytest.fixture
def other(db):
    """A second user, "other": anyone who is not the owner."""
    return make_user("other")


@pytest.fixture
def whole_game_pool(db):
    """エンドブレイカー！SCG's complete synthetic card pool (tests/test_endbreaker_compare_site.py), stored."""
    from .test_endbreaker_compare_site import synthetic_pool

    synthetic_pool()


@pytest.fixture
def immediate_tasks(settings):
    """Tasks run as they are enqueued; comparisons in chunks of 5 blocks, so that a short run has several."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    settings.COMPARISON_CHUNK_BLOCKS = 5


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test databases, with any other session on PostgreSQL's test database ended before it is dropped.

    A server or worker a test started, or a thread's connection, can still be open on the test database when the
    run ends; dropping the database then fails ("is being accessed by other users", twice at the end of a whole
    run) and leaves it behind. Those sessions are this run's own, and the database is about to go.
    """
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        others = "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        cursor.execute(f"SELECT pg_terminate_backend(pid) {others}")
        for _attempt in range(50):  # a terminated session takes a moment to go
            cursor.execute(f"SELECT COUNT(*) {others}")
            if not cursor.fetchone()[0]:
                break
            time.sleep(0.1)


@pytest.fixture(scope="session")
def seeded_session_db(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("loadcards", verbosity=0)


def _chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    path = _chromium_path()
    if path is None:
        message = "no Chromium found (install Debian's chromium and chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(f"browser tests are required under CI: {message}")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def tesseract_ready() -> None:
    """Tesseract with its Japanese and Traditional Chinese data, and the Noto Sans CJK font the tests draw with."""
    from cards.reading import installed_languages
    from cards.reading.synthetic import noto_cjk_path

    missing = [name for name in ("jpn", "chi_tra") if name not in installed_languages()]
    message = ""
    if missing:
        message = f"Tesseract or its data {', '.join(missing)} not installed (bin/setup installs them with apt as root)"
    elif noto_cjk_path() is None:
        message = "no Noto Sans CJK font (install Debian's fonts-noto-cjk)"
    if message:
        if os.environ.get("CI"):
            pytest.fail(f"the reading tests are required under CI: {message}")
        pytest.skip(message)


@pytest.fixture(scope="session")
def browser(chromium_executable):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=chromium_executable,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="ja-JP")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(autouse=True)
def _empty_cache():
    """Rate limits count in the cache: every test starts with none spent. The search glossary a
    process keeps for a second may hold a rolled-back test's terms: every test reads it afresh."""
    from django.core.cache import cache

    from cards.search import glossary

    cache.clear()
    glossary.forget()
    yield


def wait_until_true(page, expression: str, timeout: float = 10.0) -> None:
    """Poll ``expression`` in the page until it is true.

    Playwright's wait_for_function evaluates its predicate with eval() inside the page, which the
    site's Content-Security-Policy forbids; page.evaluate goes through the debugging protocol instead.
    """
    import time

    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)
