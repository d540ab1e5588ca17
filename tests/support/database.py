"""A database that refuses writes, and a statement slow enough to hit the statement time limit."""

from __future__ import annotations

from contextlib import contextmanager

from django.db import connection


@contextmanager
def read_only_database():
    """Every write refused by the database itself, as a read-only file or replica refuses it."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA query_only = 1")
        else:
            cursor.execute("SET default_transaction_read_only = on")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute("PRAGMA query_only = 0")
            else:
                cursor.execute("SET default_transaction_read_only = off")


def _slow_statement() -> tuple[str, tuple]:
    if connection.vendor == "postgresql":
        return "SELECT pg_sleep(3)", ()
    return (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000000) SELECT count(*) FROM c",
        (),
    )
