"""Backups: every row of the site's database in one file, and back into an empty database of either engine.

``python manage.py backup FILE`` and ``python manage.py restore FILE`` are thin commands over
``write_backup`` and ``cardsite.restore.restore_backup``; both work on the ``default`` database.

What is backed up
    Every model of every installed app that has a table of its own — the auto-created tables of
    many-to-many fields too (``auth.user_groups`` …), proxy and swapped-out models have none — except
    the models named in ``EXCLUDED``, with the reason beside each:

    - ``cards.searchdocument``, ``cards.cardfieldvalue``, ``cards.searchposting``,
      ``cards.searchtokencount``: the search index, derived
      from the cards.
      After loading, the search index's rebuild (``cards.services.reindex_all_cards()``, registered with
      ``cardsite.restore.register_index_rebuild`` by the cards app) rebuilds it (and with it SQLite's FTS5
      table or PostgreSQL's generated column, which are no models and never in the file).
    - ``sessions.session``: logins in progress. They are transient and signed with the SECRET_KEY of
      the site that made them; after a restore everyone logs in again (with their old password: the
      password hashes are in ``auth.user``).

    Kept on purpose: API tokens (``knox.authtoken``, stored hashed), the log-in records of
    django-axes, the admin's history (``admin.logentry``) and every task result of django-tasks
    (``django_tasks_db.dbtaskresult``). A queued Monte Carlo run is played after a restore only if
    its task is still queued, and the rows are small; finished
    results are kept too so that a restored database is the same as the one backed up. A run that
    was being played at the moment of the backup stays "running" (as after a crashed worker): take
    backups with the task worker stopped or idle.

    A model added later is backed up without any change here; a derived or transient one must be
    added to ``EXCLUDED``. tests/test_backup.py fails for a model that has no rows in its synthetic
    database and is not excluded, so that nobody's model is lost or left untested unnoticed.

The file (format version 1)
    gzip-compressed UTF-8 text, one JSON object per line. Line 1 is the header::

        {"format": "cardsite-backup", "version": 1, "created_at": "2025-01-01T00:00:00+00:00",
         "django": "5.2.8", "engine": "sqlite", "migrations": {"auth": ["0001_initial", …], …},
         "counts": {"auth.user": 2, "cards.card": 78, …}, "excluded": {"sessions.session": "…", …}}

    ``migrations`` lists the applied migrations of each installed app; ``counts`` the rows of each
    model that follow. Every further line is one row of one table, parents before children (the order
    of foreign keys), each table in primary-key order::

        {"model": "cards.card", "fields": {"id": 7, "game_id": 1, "key": "TEST-001", …}}

    ``fields`` holds every column by its attribute name (``game_id``): numbers, strings, booleans and
    null as they are; JSON fields as their JSON; date-times in ISO 8601 with their offset (UTC);
    durations in ISO 8601; decimals and UUIDs as strings; binary data in base64. The whole file is
    read in one snapshot of the database (REPEATABLE READ on PostgreSQL), so the counts match the rows;
    it is written beside FILE and renamed over it at the end, so a failed backup leaves no half file.

Restoring
    ``cardsite.restore`` loads such a file into an empty database.
"""

from __future__ import annotations

import base64
import datetime as dt
import gzip
import json
import os
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import django
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Field, JSONField, Model
from django.utils import timezone
from django.utils.duration import duration_iso_string

FORMAT = "cardsite-backup"
VERSION = 1

# Models left out of the file, with the reason (see the module's docstring).
EXCLUDED: dict[str, str] = {
    "cards.searchdocument": "search index, derived from the cards: rebuilt after a restore",
    "cards.cardfieldvalue": "search index, derived from the cards' fields: rebuilt after a restore",
    "cards.searchposting": "search index (PostgreSQL), derived from the search documents: rebuilt after a restore",
    "cards.searchtokencount": "search index (PostgreSQL), derived from the search documents: rebuilt after a restore",
    "sessions.session": "transient logins, signed with the site's SECRET_KEY: users log in again",
    "cardsite.tasklease": "transient: which running task a live worker process holds; no worker survives a restore",
}

# Rows that `migrate` creates by itself in a new database: a restore replaces them with the file's.
REPLACED: tuple[str, ...] = ("contenttypes.contenttype", "auth.permission")


class BackupError(Exception):
    """A backup or restore that cannot go on; the message is one line saying what is wrong and where."""


@dataclass(frozen=True)
class BackupSummary:
    path: Path
    counts: dict[str, int]
    size: int  # bytes
    seconds: float

    @property
    def rows(self) -> int:
        return sum(self.counts.values())


# --- which tables, in which order --------------------------------------------------------------------


def label(model: type[Model]) -> str:
    return model._meta.label_lower


def table_models() -> list[type[Model]]:
    """Every model with a table of its own, excluded ones too, each after the models its foreign keys point to."""
    models = [model for model in apps.get_models(include_auto_created=True) if not model._meta.proxy]
    return _dependency_order(models)


def backed_up_models() -> list[type[Model]]:
    """The models whose rows go into a backup, in the order they are written and loaded."""
    return [model for model in table_models() if label(model) not in EXCLUDED]


def _dependency_order(models: list[type[Model]]) -> list[type[Model]]:
    by_label = {label(model): model for model in models}
    needs = {
        name: {label(target) for target in _targets(model)} & by_label.keys() - {name}
        for name, model in by_label.items()
    }
    ordered: list[str] = []
    remaining = sorted(by_label)
    while remaining:
        ready = [name for name in remaining if needs[name] <= set(ordered)]
        # A cycle of foreign keys: any order loads, since the database checks foreign keys at the end of
        # the transaction (restore_backup checks them itself before that).
        ordered.extend(ready or remaining[:1])
        remaining = [name for name in remaining if name not in ordered]
    return [by_label[name] for name in ordered]


def _targets(model: type[Model]) -> list[type[Model]]:
    return [related_table(column) for column in table_columns(model) if column.is_relation]


def related_table(column: Field) -> type[Model]:
    """The model whose table a relation column points to (a proxy's rows are its concrete model's)."""
    related = column.related_model
    assert isinstance(related, type) and issubclass(related, Model), column  # resolved once the apps are ready
    concrete = related._meta.concrete_model
    assert concrete is not None
    return concrete


def table_columns(model: type[Model]) -> list[Field]:
    """The model's columns in its own table (a child of multi-table inheritance: its own part only)."""
    return [column for column in model._meta.local_concrete_fields if not column.generated]


def migration_state() -> dict[str, list[str]]:
    """The applied migrations of each installed app (none when the database has no tables yet)."""
    recorder = MigrationRecorder(connection)
    if not recorder.has_table():
        return {}
    installed = {config.label for config in apps.get_app_configs()}
    state: dict[str, list[str]] = defaultdict(list)
    for app, name in recorder.applied_migrations():
        if app in installed:
            state[app].append(name)
    return {app: sorted(names) for app, names in sorted(state.items())}


# --- values ------------------------------------------------------------------------------------------


def encode_value(column: Field, value: Any) -> Any:
    """A column's value (as the ORM reads it) as JSON."""
    if value is None or isinstance(column, JSONField) or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return duration_iso_string(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    return str(value)  # Decimal, UUID: their field's to_python reads the string back


def decode_value(column: Field, value: Any) -> Any:
    """The JSON of a column's value back as the ORM writes it (ValidationError when it cannot be)."""
    if value is None or isinstance(column, JSONField):
        return value
    value = column.to_python(value)
    # Choices are no database constraint, but the site's code relies on them (the search index is keyed
    # by the languages of the texts), so a value outside them is refused here, with its line.
    if column.choices and value not in column.empty_values and value not in {key for key, _ in column.flatchoices}:
        raise ValidationError(f"{value!r} is not one of the field's choices")
    return value


def one_line(error: BaseException) -> str:
    """An exception's message on one line (PostgreSQL's come with DETAIL lines)."""
    return " ".join(str(error).split()) or type(error).__name__


def _json_line(record: dict[str, Any]) -> str:
    # Raw UTF-8 rather than \u escapes: card texts are mostly CJK, and the file stays readable.
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


# --- backup ------------------------------------------------------------------------------------------


def _private(path: Path) -> IO[bytes]:
    """``path`` opened for writing, readable and writable by its owner only (0600), whatever the umask: a
    backup holds password hashes and token digests. ``os.replace`` keeps the mode when it becomes the backup."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)  # a partial file left by an earlier run keeps its own mode otherwise
    return os.fdopen(descriptor, "wb")


def write_backup(path: Path) -> BackupSummary:
    """Write every backed-up row of the database to ``path`` (replacing the file at the end), readable by its
    owner only."""
    started = time.monotonic()
    path = Path(path)
    if path.is_dir():
        raise BackupError(f"cannot write {path}: it is a directory")
    if not migration_state():
        raise BackupError("the database has no tables (is DATABASE_URL right?): nothing to back up")
    partial = path.with_name(f".{path.name}.partial")
    try:
        outermost = not connection.in_atomic_block
        with transaction.atomic():
            if outermost and connection.vendor == "postgresql":
                # READ COMMITTED gives every query its own snapshot; the header's counts and the rows
                # must come from one. Possible only as a transaction's first statement, hence not when
                # called inside a transaction (the tests). SQLite's transaction is one snapshot anyway.
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            models = backed_up_models()
            counts = {label(model): model._base_manager.count() for model in models}
            header = {
                "format": FORMAT,
                "version": VERSION,
                "created_at": timezone.now().isoformat(),
                "django": django.get_version(),
                "engine": connection.vendor,
                "migrations": migration_state(),
                "counts": counts,
                "excluded": EXCLUDED,
            }
            with _private(partial) as raw, gzip.open(raw, "wt", encoding="utf-8", newline="\n") as out:
                out.write(_json_line(header))
                for model in models:
                    written = _write_rows(out, model)
                    if written != counts[label(model)]:
                        raise BackupError(f"{label(model)} changed while it was read; nothing was written")
        os.replace(partial, path)
        size = path.stat().st_size
    except OSError as error:
        raise BackupError(f"cannot write {path}: {error.strerror or one_line(error)}") from None
    except DatabaseError as error:
        raise BackupError(f"the database failed while being read: {one_line(error)}") from None
    finally:
        partial.unlink(missing_ok=True)
    return BackupSummary(path=path, counts=counts, size=size, seconds=time.monotonic() - started)


def _write_rows(out: IO[str], model: type[Model]) -> int:
    name = label(model)
    columns = table_columns(model)
    rows = model._base_manager.order_by("pk").values_list(*(column.attname for column in columns))
    written = 0
    for values in rows.iterator(chunk_size=2000):
        fields = {column.attname: encode_value(column, value) for column, value in zip(columns, values, strict=True)}
        try:
            out.write(_json_line({"model": name, "fields": fields}))
        except (TypeError, ValueError) as error:  # a value JSON cannot hold
            raise BackupError(f"{name} row {values[0]!r}: cannot be written: {one_line(error)}") from None
        written += 1
    return written
