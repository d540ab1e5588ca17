"""How the site talks to its database beyond what Django does: time limits, linear-time regular
expressions on SQLite, WAL mode, and telling a database that cannot write from other errors.

- ``statement_time_limit(seconds)``: every statement run inside it is stopped after ``seconds``
  (SQLite: a progress handler; PostgreSQL: ``statement_timeout``) and raises ``StatementTimeout``.
  The site wraps every web request in one (``cardsite.middleware``) and searches in a shorter one;
  commands and the task worker run without.
- SQLite's ``REGEXP`` (Django's ``__regex``/``__iregex`` lookups) runs with RE2, whose time grows
  linearly with the text, instead of Python's backtracking ``re`` (``cardsite.linear_regex``):
  ``/(.|.)*Ω/`` cannot freeze a worker.
- ``failure_kind(error)``: ``"timeout"``, ``"read-only"`` (a read-only database, a full disk),
  ``"unavailable"`` (the database cannot be reached), ``"busy"`` (a transaction that lost a race
  with others, a deadlock, every time it was tried) or None for any other error.
- ``upsert_counts``: counters written by one ``INSERT … ON CONFLICT DO UPDATE`` (the database adds),
  and ``retry_on_conflict``: a service's transaction run again when it lost a race.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import os
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, DatabaseError, OperationalError, connection, connections, transaction

from . import linear_regex

logger = logging.getLogger("cardsite")

# SQLite calls the progress handler every this many virtual-machine instructions (about 0.1 ms).
_PROGRESS_STEPS = 10_000


class StatementTimeout(OperationalError):
    """A statement ran longer than the time limit in force and was stopped."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"statement stopped after {seconds:g} s")
        self.seconds = seconds


def _sqlite_regexp(pattern: str | None, value: Any) -> bool | None:
    if pattern is None or value is None:
        return None
    return linear_regex.search(pattern, value)


# --- time limits --------------------------------------------------------------------------------


@dataclass
class _Limit:
    seconds: float


_limits: contextvars.ContextVar[tuple[_Limit, ...]] = contextvars.ContextVar("statement_limits", default=())
# What this request last told PostgreSQL (statement_timeout in ms); None: not told yet.
_postgres_told: contextvars.ContextVar[int | None] = contextvars.ContextVar("postgres_told", default=None)


def _current_limit() -> _Limit | None:
    limits = _limits.get()
    return limits[-1] if limits else None


def _sqlite_execute(execute: Callable, sql: str, params: Any, many: bool, context: dict) -> Any:
    limit = _current_limit()
    if limit is None:
        return execute(sql, params, many, context)
    raw = context["connection"].connection
    deadline = time.monotonic() + limit.seconds
    raw.set_progress_handler(lambda: time.monotonic() > deadline, _PROGRESS_STEPS)
    try:
        return execute(sql, params, many, context)
    except OperationalError as error:
        if getattr(error.__cause__, "sqlite_errorcode", None) == _SQLITE_INTERRUPT:
            raise StatementTimeout(limit.seconds) from error
        raise
    finally:
        raw.set_progress_handler(None, 0)


def _postgres_execute(execute: Callable, sql: str, params: Any, many: bool, context: dict) -> Any:
    limit = _current_limit()
    wanted = 0 if limit is None else max(1, int(limit.seconds * 1000))
    merged = False
    if _postgres_told.get() != wanted:
        # Session-wide, once per request and per change of limit. If this happens inside a transaction
        # that is later rolled back, PostgreSQL forgets it and the rest of the request runs unlimited:
        # the SQLite guard and the search's own limit still hold, and the next request sets it again.
        setting = f"SET statement_timeout = {wanted}"
        raw_cursor = context["cursor"].cursor
        # executemany, a named cursor, server-side binding (``prepared_cursor``): one statement each
        if many or getattr(raw_cursor, "name", None) or getattr(raw_cursor, "binds_on_server", False):
            raw_cursor.execute(setting)
        else:
            # Sent with the statement, in the same round trip (client-side binding takes several
            # statements; each round trip costs about 0.4 ms on this project's machines' loopback).
            sql, merged = f"{setting}; {sql}", True
        _postgres_told.set(wanted)
    try:
        result = execute(sql, params, many, context)
    except DatabaseError as error:
        if merged:
            # The statements of one query string are one transaction (or in the caller's, which now
            # fails): the setting went with the failed statement, so the next one sends it again.
            _postgres_told.set(None)
        if limit is not None and getattr(error.__cause__, "sqlstate", None) == "57014":  # query_canceled
            raise StatementTimeout(limit.seconds) from error
        raise
    if merged:
        context["cursor"].cursor.nextset()  # the statement's own result, as its caller expects
    return result


_EXECUTORS = {"sqlite": _sqlite_execute, "postgresql": _postgres_execute}


_guarded: contextvars.ContextVar[bool] = contextvars.ContextVar("guarded", default=False)


@contextmanager
def guarded_connection() -> Iterator[None]:
    """Everything run inside may be time-limited by ``statement_time_limit`` (one request's scope).

    On PostgreSQL the limit is the session's ``statement_timeout``, set before the first statement
    that needs it and reset when the outermost guard ends, so that what runs afterwards on the same
    connection (a test, a command) is not limited.
    """
    executor = _EXECUTORS.get(connection.vendor)
    if executor is None or _guarded.get():
        yield
        return
    guarded = _guarded.set(True)
    told = _postgres_told.set(None)
    try:
        with connection.execute_wrapper(executor):
            yield
    finally:
        if _postgres_told.get() and connection.connection is not None and not connection.needs_rollback:
            try:
                with connection.cursor() as cursor:  # the wrapper is gone: a plain statement
                    cursor.execute("RESET statement_timeout")
            except DatabaseError:
                pass  # a failed transaction: the next request sets its own limit anyway
        _postgres_told.reset(told)
        _guarded.reset(guarded)


@contextmanager
def statement_time_limit(seconds: float | None) -> Iterator[None]:
    """Stop any statement run inside after ``seconds`` (None or 0: no limit of its own)."""
    if not seconds:
        yield
        return
    token = _limits.set((*_limits.get(), _Limit(seconds)))
    try:
        with guarded_connection():
            yield
    finally:
        _limits.reset(token)


@contextmanager
def savepoint_if_in_transaction() -> Iterator[None]:
    """A savepoint when a transaction is open, so that a failed read leaves it usable; else nothing.

    Not a transaction of its own: on SQLite every transaction takes the write lock when it begins
    (settings), and a read must never wait for writers or fail on a read-only database.
    """
    if connection.in_atomic_block:
        with transaction.atomic():
            yield
    else:
        yield


# --- telling failures apart ---------------------------------------------------------------------

_SQLITE_INTERRUPT = 9
# sqlite3's primary result codes (the low byte of the extended code).
_SQLITE_READ_ONLY = {8, 13}  # SQLITE_READONLY, SQLITE_FULL
_SQLITE_UNAVAILABLE = {10, 11, 14, 26}  # SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_NOTADB
# PostgreSQL SQLSTATEs: read_only_sql_transaction, disk_full, insufficient_resources, out_of_memory.
_POSTGRES_READ_ONLY = {"25006", "53100", "53000", "53200"}
_POSTGRES_UNAVAILABLE_CLASSES = ("08", "57P", "53300")  # connection failures, shutdown, too many connections


def failure_kind(error: BaseException) -> str | None:
    """What kind of database failure ``error`` is: "timeout", "read-only", "unavailable", "busy" or None."""
    if isinstance(error, StatementTimeout):
        return "timeout"
    # Django wraps the driver's errors by class: a read-only transaction comes as InternalError on
    # PostgreSQL, a full disk as OperationalError on SQLite; the driver's codes tell them apart.
    if not isinstance(error, DatabaseError):
        return None
    if is_conflict(error):
        return "busy"
    cause = error.__cause__
    code = getattr(cause, "sqlite_errorcode", None)
    if code is not None:
        primary = code & 0xFF
        if primary in _SQLITE_READ_ONLY:
            return "read-only"
        if primary in _SQLITE_UNAVAILABLE:
            return "unavailable"
        return None
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate in _POSTGRES_READ_ONLY:
        return "read-only"
    if sqlstate is None and cause is not None and type(cause).__module__.startswith("psycopg"):
        return "unavailable"  # no server answered: psycopg gives no SQLSTATE
    if sqlstate is not None and sqlstate.startswith(_POSTGRES_UNAVAILABLE_CLASSES):
        return "unavailable"
    return None


# --- statements planned once (PostgreSQL) ---------------------------------------------------------


@cache
def _preparing_cursor_class() -> type:
    import psycopg

    class PreparingCursor(psycopg.Cursor):
        """Server-side binding; a statement with parameters is prepared (psycopg keeps it per connection)."""

        binds_on_server = True  # the time-limit guard sends its setting as a statement of its own

        def execute(self, query: Any, params: Any = None, *, prepare: bool | None = None, **options: Any) -> Any:
            return super().execute(query, params, prepare=bool(params) if prepare is None else prepare, **options)

    return PreparingCursor


def prepared_cursor() -> Any:
    """A cursor whose statements the database plans once per connection and keeps; elsewhere a plain one.

    For a hot statement of one shape whose planning costs as much as running it: the page of cards
    a search shows (``cards.selectors.cards_in_order``) plans in 0.3-0.7 ms and runs in 0.4 ms on
    PostgreSQL at 100,000 cards. On PostgreSQL, psycopg prepares it on first use (server-side
    binding) and keeps it until the connection closes or a schema change on it (psycopg forgets its
    statements then); the plan is PostgreSQL's generic one once it finds that as good as a fresh one.
    It is Django's cursor wrapper around it, so errors, time limits and query logging are as for any
    statement. With ``PREPARED_STATEMENTS=0`` (settings) psycopg prepares nothing and this only binds
    on the server.
    """
    # The connection itself, not the proxy ``django.db.connection``: each attribute read through the proxy looks
    # the connection up again (nine reads here, about 20 µs a statement).
    database = connections[DEFAULT_DB_ALIAS]
    if database.vendor != "postgresql":
        return database.cursor()
    # What connection.cursor() does before making its cursor: a dead connection replaced, errors wrapped.
    database.close_if_health_check_failed()
    database.ensure_connection()
    database.validate_thread_sharing()
    with database.wrap_database_errors:
        raw = _preparing_cursor_class()(database.connection)
    if database.timezone is not None:
        # psycopg's own timestamptz loader, compiled, instead of Django's, which is Python (about 3 µs a
        # value, a third of a millisecond for a page of cards). Django sets the session's time zone to its
        # own (DatabaseWrapper.ensure_timezone), so both give the same aware datetime.
        raw.adapters.register_loader("timestamptz", _compiled_timestamptz_loader())
    return database.make_debug_cursor(raw) if database.queries_logged else database.make_cursor(raw)


@cache
def _compiled_timestamptz_loader() -> type:
    from psycopg.types.datetime import TimestamptzLoader

    return TimestamptzLoader  # registering psycopg's own class registers its compiled version


def id_in(column: str, ids: Sequence[int]) -> tuple[str, list[Any]]:
    """A condition that ``column`` is one of ``ids``, and its parameters.

    On PostgreSQL one array parameter, so that a statement has one text (one prepared statement)
    whatever the number of ids; elsewhere an IN list.
    """
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s::bigint[])", [list(ids)]
    return f"{column} IN ({', '.join(['%s'] * len(ids))})", list(ids)


# --- connection set-up (cardsite.apps connects these) --------------------------------------------


def on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "sqlite":
        # Replaces Django's REGEXP (Python's re) on this connection.
        connection.connection.create_function("REGEXP", 2, _sqlite_regexp, deterministic=True)
        keep_private(connection)


PRIVATE_FILE_MODE = 0o600


def keep_private(database: Any) -> None:
    """Make a SQLite database file (and its write-ahead log and journal, which SQLite creates with the file's
    own mode) readable by its owner only: it holds password hashes and token digests, and a new file comes
    with the process's umask (usually world-readable). Done when a connection opens it, so a file the site
    creates is private before any row is written to it. A read-only copy (``file:…?mode=ro``), an in-memory
    database, or a file someone else owns is left as it is."""
    name = str(database.settings_dict.get("NAME") or "")
    if not name or database.is_in_memory_db() or name.startswith("file:"):
        return
    for path in (name, f"{name}-wal", f"{name}-shm", f"{name}-journal"):
        try:
            if os.stat(path).st_mode & 0o077:
                os.chmod(path, PRIVATE_FILE_MODE)
        except FileNotFoundError:
            continue
        except OSError as error:  # not the file's owner: the operator's choice, said once in the log
            logger.warning("a database file could not be made private", extra={"file": path, "error": str(error)})


def use_write_ahead_log(using: str = "default") -> None:
    """Put a SQLite database file in WAL mode (kept by the file; readers then never wait for writers)."""
    from django.db import connections

    database = connections[using]
    if database.vendor != "sqlite" or database.is_in_memory_db():  # type: ignore[attr-defined]  # SQLite's own
        return
    with database.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        if cursor.fetchone()[0].lower() != "wal":
            cursor.execute("PRAGMA journal_mode=WAL")


# --- counters that many requests add to at once ---------------------------------------------------

# Rows per statement: well under SQLite's 32,766 and PostgreSQL's 65,535 parameters.
_UPSERT_BATCH = 1000


def upsert_counts(
    model: type[Any],
    keys: Sequence[str],
    column: str,
    rows: Mapping[tuple[Any, ...], int],
    *,
    add: bool,
    maximum: int | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[tuple[Any, ...], int]:
    """Write counters as one atomic upsert per batch, the same statement on SQLite (3.35+) and PostgreSQL.

    ``rows`` maps a key (the values of the fields ``keys``, which a unique constraint covers) to a number:
    ``add`` adds it to the row's ``column`` (a missing row starts at 0); otherwise it sets it. The database adds,
    so two requests adding at once both count: there is no read-then-write for another request to slip between,
    and no "row does not exist yet" window. Keys are written in sorted order, so that two writers of the same rows
    take their locks in the same order and cannot deadlock each other. ``extra`` fields are written as given
    (``updated_at``). A row whose sum would pass ``maximum`` is left as it was; its key is missing from the
    answer, which maps every key written to its new value (the caller refuses and rolls back).
    """
    meta = model._meta
    table = connection.ops.quote_name(meta.db_table)
    key_fields = [meta.get_field(name) for name in keys]
    count_field = meta.get_field(column)
    extra_fields = [(meta.get_field(name), value) for name, value in (extra or {}).items()]
    quoted = connection.ops.quote_name
    columns = [quoted(field.column) for field in (*key_fields, count_field)] + [
        quoted(field.column) for field, _value in extra_fields
    ]
    count_column = quoted(count_field.column)
    total = f"{table}.{count_column} + EXCLUDED.{count_column}" if add else f"EXCLUDED.{count_column}"
    assignments = [f"{count_column} = {total}"] + [
        f"{quoted(field.column)} = EXCLUDED.{quoted(field.column)}" for field, _value in extra_fields
    ]
    condition = f" WHERE {total} <= {int(maximum)}" if maximum is not None and add else ""
    returning = ", ".join(quoted(field.column) for field in (*key_fields, count_field))
    extra_values = [field.get_db_prep_save(value, connection) for field, value in extra_fields]
    placeholders = "(" + ", ".join(["%s"] * len(columns)) + ")"
    written: dict[tuple[Any, ...], int] = {}
    ordered = sorted(rows.items())
    with connection.cursor() as cursor:
        for start in range(0, len(ordered), _UPSERT_BATCH):
            batch = ordered[start : start + _UPSERT_BATCH]
            params: list[Any] = []
            for key, value in batch:
                params.extend(
                    field.get_db_prep_save(part, connection) for field, part in zip(key_fields, key, strict=True)
                )
                params.append(value)
                params.extend(extra_values)
            sql = (
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([placeholders] * len(batch))} "
                f"ON CONFLICT ({', '.join(columns[: len(keys)])}) DO UPDATE SET {', '.join(assignments)}"
                f"{condition} RETURNING {returning}"
            )
            cursor.execute(sql, params)
            for *key, value in cursor.fetchall():
                written[tuple(key)] = value
    return written


# PostgreSQL SQLSTATEs of a transaction that lost a race and may simply run again:
# serialization_failure, deadlock_detected.
_POSTGRES_CONFLICT = {"40001", "40P01"}
_SQLITE_BUSY = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED: the busy timeout ran out


def is_conflict(error: BaseException) -> bool:
    """Whether ``error`` is a transaction that lost a race with another (a deadlock, a serialization failure, a
    SQLite writer that waited past its busy timeout): nothing it did was kept, and running it again may work."""
    if not isinstance(error, DatabaseError):
        return False
    cause = error.__cause__
    code = getattr(cause, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _SQLITE_BUSY
    return getattr(cause, "sqlstate", None) in _POSTGRES_CONFLICT


_T = TypeVar("_T")

# Runs of a transaction that lost a race before the request is answered 503 ("busy, nothing was changed").
CONFLICT_ATTEMPTS = 4


def retry_on_conflict(function: Callable[..., _T]) -> Callable[..., _T]:
    """Run ``function`` in a transaction, again (up to ``CONFLICT_ATTEMPTS`` times in all, after a short random
    pause) when the database refuses it for a race (``is_conflict``). Inside a transaction that is already open
    it cannot run again alone, so it runs once there and the error goes to the outer one. When every run lost,
    the error goes up and the request is answered 503 "busy, nothing was changed" (``failure_kind``)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> _T:
        if connection.in_atomic_block:
            with transaction.atomic():
                return function(*args, **kwargs)
        for attempt in range(1, CONFLICT_ATTEMPTS + 1):
            try:
                with transaction.atomic():
                    return function(*args, **kwargs)
            except DatabaseError as error:
                if attempt == CONFLICT_ATTEMPTS or not is_conflict(error):
                    raise
            time.sleep(random.uniform(0.01, 0.05) * attempt)  # spreads the retries of racing requests
        raise AssertionError("unreachable")

    return wrapper
