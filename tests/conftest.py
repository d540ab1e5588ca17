"""The shared fixtures, one module per concern under tests/fixtures/ (see its __init__)."""

import pytest

# Helper modules whose asserts report like a test's own.
pytest.register_assert_rewrite("tests.deck_rules_helpers", "tests.support")

pytest_plugins = [
    "tests.fixtures.database",
    "tests.fixtures.cache",
    "tests.fixtures.accounts",
    "tests.fixtures.cards",
    "tests.fixtures.decks",
    "tests.fixtures.tasks",
    "tests.fixtures.simulator",
    "tests.fixtures.reading",
    "tests.fixtures.browser",
]
