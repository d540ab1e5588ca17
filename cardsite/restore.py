"""Restoring a backup (``cardsite.backup`` describes the file) into an empty database of either engine.

Into an empty database that ``python manage.py migrate`` has brought to the file's migration state,
on SQLite or PostgreSQL whichever made the file. In one transaction — it loads everything or nothing:

1. The file's migration state must equal the database's, app by app (else: refused, naming the app).
2. The database must be empty: no row in any model's table, except the content types and
   permissions that ``migrate`` creates by itself (``REPLACED``): those are deleted and replaced by
   the file's, so that their ids — which the admin's history and users' permissions refer to — stay.
3. Rows are inserted as they are, primary keys included (a deck's address /decks/<pk>/ stays valid,
   password hashes stay, ``auto_now`` dates are not touched; no model signals are sent).
4. Every foreign key must point to a row of the file; the database then checks its constraints.
5. PostgreSQL's sequences are set past the highest ids, so new rows get fresh ids (SQLite's
   AUTOINCREMENT follows by itself).
6. The search index is rebuilt.

A file that is not gzip, is truncated, has a line that is not JSON, names an unknown model or
field, holds a value of the wrong type or outside its field's choices, or a row the database refuses
(a duplicate key, a check or foreign key constraint, a number out of range) is refused with
``BackupError``: one line naming the file and the line number (when a row is to blame), and nothing
is written.
"""

from __future__ import annotations

import gzip
import json
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Field, ForeignKey, Model

from .backup import (
    EXCLUDED,
    FORMAT,
    REPLACED,
    VERSION,
    BackupError,
    backed_up_models,
    decode_value,
    label,
    migration_state,
    one_line,
    related_table,
    table_columns,
    table_models,
)

# Rows per INSERT statement (and per savepoint while restoring).
_BATCH = 500
# What inserting a row with a bad value raises: the database's errors, or the driver's before it sends
# anything (SQLite's OverflowError for an integer beyond 64 bits, a type it cannot adapt).
_ROW_ERRORS = (DatabaseError, TypeError, ValueError, OverflowError)


@dataclass(frozen=True)
class RestoreSummary:
    counts: dict[str, int]
    cards_indexed: int
    seconds: float

    @property
    def rows(self) -> int:
        return sum(self.counts.values())


def restore_backup(path: Path) -> RestoreSummary:
    """Load the backup at ``path`` into the empty database and rebuild the search index; all or nothing."""
    from django.contrib.contenttypes.models import ContentType

    started = time.monotonic()
    path = Path(path)
    try:
        with _Reader(path) as reader:
            header = _read_header(reader)
            _check_migration_state(path, header["migrations"])
            with transaction.atomic():
                _check_empty()
                loader = _Loader(path, header["counts"])
                loader.replace_migrate_rows()
                for number, record in reader:
                    loader.add(number, record)
                counts = loader.finish(reader.lines)
                _reset_sequences(backed_up_models())
                cards_indexed = _reindex(path, _index_rebuild) if _index_rebuild is not None else 0
    except DatabaseError as error:
        raise BackupError(f"{path}: the database failed: {one_line(error)}") from None
    finally:
        # The cache maps models to content type ids, which the restore replaced (or rolled back).
        ContentType.objects.clear_cache()
    return RestoreSummary(counts=counts, cards_indexed=cards_indexed, seconds=time.monotonic() - started)


_index_rebuild: Callable[[], int] | None = None


def register_index_rebuild(rebuild: Callable[[], int]) -> None:
    """What rebuilds the search index from the restored rows (it answers how many cards it indexed): the app that
    owns the index registers it in its ``AppConfig.ready()``, as the ground imports no app."""
    global _index_rebuild
    _index_rebuild = rebuild


def _reindex(path: Path, reindex: Callable[[], int]) -> int:
    try:
        return reindex()
    except DatabaseError:
        raise
    except Exception as error:  # the indexer's code meeting card data it was never given (a damaged file)
        raise BackupError(
            f"{path}: the search index could not be rebuilt from the restored cards: "
            f"{type(error).__name__}: {one_line(error)}"
        ) from None


class _Reader:
    """The file's lines as (line number, parsed JSON), with every way of being damaged as a BackupError."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines = 0
        try:
            self._file = gzip.open(path, "rb")  # noqa: SIM115 (closed by __exit__)
        except OSError as error:
            raise BackupError(f"cannot read {path}: {error.strerror or one_line(error)}") from None

    def __enter__(self) -> _Reader:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self._file.close()

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        return self

    def __next__(self) -> tuple[int, Any]:
        raw = self._read_line()
        if not raw:
            raise StopIteration
        self.lines += 1
        where = f"{self.path}, line {self.lines}"
        if not raw.endswith(b"\n"):
            raise BackupError(f"{where}: the line breaks off: the file is truncated")
        try:
            return self.lines, json.loads(raw[:-1])  # without the newline: error columns count on this line
        except UnicodeDecodeError:
            raise BackupError(f"{where}: not UTF-8 text") from None
        except json.JSONDecodeError as error:
            raise BackupError(f"{where}: not valid JSON ({error.msg} at column {error.colno})") from None

    def _read_line(self) -> bytes:
        after = f"after line {self.lines}" if self.lines else "at its start"
        try:
            return self._file.readline()
        except gzip.BadGzipFile as error:
            if not self.lines:
                raise BackupError(f"{self.path}: not a backup file: it is not gzip-compressed") from None
            raise BackupError(f"{self.path}: damaged {after}: {one_line(error)}") from None
        except EOFError:
            raise BackupError(f"{self.path}: truncated: the compressed data ends {after}") from None
        except (OSError, zlib.error) as error:
            raise BackupError(f"{self.path}: damaged compressed data {after}: {one_line(error)}") from None


def _read_header(reader: _Reader) -> dict[str, Any]:
    where = f"{reader.path}, line 1"
    first = next(reader, None)
    if first is None:
        raise BackupError(f"{reader.path}: the file is empty; it is not a backup")
    header = first[1]
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BackupError(f"{where}: not a {FORMAT} header; the file is not a backup of this site")
    if header.get("version") != VERSION:
        raise BackupError(f"{where}: format version {header.get('version')!r}; this site reads version {VERSION}")
    migrations, counts = header.get("migrations"), header.get("counts")
    if not (
        isinstance(migrations, dict)
        and all(isinstance(names, list) and all(isinstance(n, str) for n in names) for names in migrations.values())
    ):
        raise BackupError(f"{where}: the header's migration state is damaged")
    if not (isinstance(counts, dict) and all(isinstance(n, int) and n >= 0 for n in counts.values())):
        raise BackupError(f"{where}: the header's row counts are damaged")
    known = {label(model) for model in backed_up_models()}
    for name in counts:
        if name not in known:
            why = "is excluded from backups" if name in EXCLUDED else "is not a model of this site"
            raise BackupError(f"{where}: the file has rows of {name!r}, which {why}")
    return header


def _check_migration_state(path: Path, recorded: dict[str, list[str]]) -> None:
    current = migration_state()
    if not current:
        raise BackupError("the database has no tables: run `python manage.py migrate` first, then restore")
    for app in sorted(recorded.keys() | current.keys()):
        in_file, in_database = set(recorded.get(app, [])), set(current.get(app, []))
        if in_file == in_database:
            continue
        if app not in {config.label for config in apps.get_app_configs()}:
            raise BackupError(f"{path}: the file has migrations of app '{app}', which is not installed here")
        differences = []
        if in_file - in_database:
            differences.append(f"the file has {', '.join(sorted(in_file - in_database))} and the database not")
        if in_database - in_file:
            differences.append(f"the database has {', '.join(sorted(in_database - in_file))} and the file not")
        raise BackupError(
            f"{path}: the migrations of app '{app}' differ ({'; '.join(differences)}): "
            "restore into a database migrated to the file's state"
        )


def _check_empty() -> None:
    filled = [
        f"{label(model)}: {model._base_manager.count()} rows"
        for model in table_models()
        if label(model) not in REPLACED and model._base_manager.exists()
    ]
    if filled:
        shown = ", ".join(filled[:4]) + (", …" if len(filled) > 4 else "")
        raise BackupError(
            f"the database is not empty ({shown}): restore loads into an empty database only "
            "(a new one, after `python manage.py migrate`)"
        )


def _reset_sequences(models: list[type[Model]]) -> None:
    # PostgreSQL's sequences do not see rows inserted with their ids; SQLite needs nothing (empty list).
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)


class _Loader:
    """Inserts the file's rows in batches and checks them: fields, values, foreign keys, row counts."""

    def __init__(self, path: Path, expected: dict[str, int]) -> None:
        self.path = path
        self.expected = expected
        self.models = {label(model): model for model in backed_up_models()}
        self.columns = {name: table_columns(model) for name, model in self.models.items()}
        self.counts: Counter[str] = Counter()
        self.batch_model: str | None = None
        self.batch: list[tuple[int, Model]] = []  # (line number, row)
        # Foreign keys: per model, its columns that point somewhere and the (model, attname) they point
        # to (None: to a model not in the file); the values of those targets seen so far; and the
        # references to a row not (yet) seen, checked at the end.
        self.references = {
            name: [(column, self._target(column)) for column in columns if column.is_relation]
            for name, columns in self.columns.items()
        }
        self.seen: dict[tuple[str, str], set[Any]] = {
            target: set() for pairs in self.references.values() for _column, target in pairs if target
        }
        # Per model, the columns whose values foreign keys point to, and the set of values seen of each.
        self.provides: dict[str, list[tuple[str, set[Any]]]] = defaultdict(list)
        for (target, attname), seen in self.seen.items():
            self.provides[target].append((attname, seen))
        self.pending: list[tuple[int, str, str, tuple[str, str], Any]] = []

    def _target(self, column: Field) -> tuple[str, str] | None:
        assert isinstance(column, ForeignKey), column  # the only relation with a column of its own
        target = label(related_table(column))
        return (target, column.target_field.attname) if target in self.models else None

    def error(self, number: int, message: str) -> BackupError:
        return BackupError(f"{self.path}, line {number}: {message}")

    def replace_migrate_rows(self) -> None:
        for name in reversed(REPLACED):  # permissions point to content types
            apps.get_model(name)._base_manager.all().delete()

    def add(self, number: int, record: Any) -> None:
        if not (isinstance(record, dict) and record.keys() == {"model", "fields"}) or not isinstance(
            record["fields"], dict
        ):
            raise self.error(number, 'not a row: expected {"model": …, "fields": {…}}')
        name = record["model"]
        if not isinstance(name, str) or name not in self.models:
            why = "excluded from backups" if isinstance(name, str) and name in EXCLUDED else "unknown"
            raise self.error(number, f"model {name!r} is {why}")
        self.counts[name] += 1
        if self.counts[name] > self.expected.get(name, 0):
            raise self.error(number, f"more rows of {name} than the header's {self.expected.get(name, 0)}")
        values = self._values(number, name, record["fields"])
        self._check_references(number, name, values)
        try:
            instance = self.models[name](**values)
        except (TypeError, ValueError) as error:
            raise self.error(number, f"not a {name} row: {one_line(error)}") from None
        if name != self.batch_model:
            self.flush()
            self.batch_model = name
        self.batch.append((number, instance))
        if len(self.batch) >= _BATCH:
            self.flush()

    def _values(self, number: int, name: str, fields: dict[str, Any]) -> dict[str, Any]:
        columns = self.columns[name]
        unknown = fields.keys() - {column.attname for column in columns}
        if unknown:
            raise self.error(number, f"{name} has no field {sorted(unknown)[0]!r}")
        values = {}
        for column in columns:
            if column.attname not in fields:
                raise self.error(number, f"the {name} row lacks its field {column.attname!r}")
            try:
                values[column.attname] = decode_value(column, fields[column.attname])
            except ValidationError as error:
                raise self.error(number, f"{name}.{column.attname}: {' '.join(error.messages)}") from None
            except (TypeError, ValueError) as error:
                raise self.error(number, f"{name}.{column.attname}: {one_line(error)}") from None
        return values

    def _check_references(self, number: int, name: str, values: dict[str, Any]) -> None:
        for column, target in self.references[name]:
            value = values[column.attname]
            if target is not None and value is not None and value not in self.seen[target]:
                self.pending.append((number, name, column.attname, target, value))
        for attname, seen in self.provides[name]:
            seen.add(values[attname])

    def flush(self) -> None:
        if not self.batch:
            return
        name, batch = self.batch_model, self.batch
        assert name is not None
        model, columns = self.models[name], self.columns[name]
        objects = [instance for _number, instance in batch]
        try:
            with transaction.atomic():
                _insert(model, objects, columns)
        except _ROW_ERRORS as batch_error:
            # Find the row to blame: one at a time, each in a savepoint of its own.
            for number, instance in batch:
                try:
                    with transaction.atomic():
                        _insert(model, [instance], columns)
                except _ROW_ERRORS as error:
                    raise self.error(
                        number, f"the database refused this {name} row ({instance.pk!r}): {one_line(error)}"
                    ) from None
            raise BackupError(
                f"{self.path}, lines {batch[0][0]}–{batch[-1][0]}: the database refused these {name} rows: "
                f"{one_line(batch_error)}"
            ) from None
        self.batch = []

    def finish(self, last_line: int) -> dict[str, int]:
        """Flush and check what can only be checked at the end; the rows loaded per model."""
        self.flush()
        for name, expected in self.expected.items():
            if self.counts[name] != expected:
                raise BackupError(
                    f"{self.path}: the file ends at line {last_line} with {self.counts[name]} rows of {name}, "
                    f"but its header counts {expected}: it is truncated or damaged"
                )
        for number, name, attname, target, value in self.pending:
            if value not in self.seen[target]:
                raise self.error(number, f"{name}.{attname} is {value!r}, but the file has no {target[0]} row with it")
        try:
            connection.check_constraints(table_names=[model._meta.db_table for model in self.models.values()])
        except IntegrityError as error:
            raise BackupError(f"{self.path}: the rows break a constraint of the database: {one_line(error)}") from None
        return {name: self.counts[name] for name in self.models}


def _insert(model: type[Model], objects: list[Model], columns: list[Field]) -> None:
    # The manager's _insert with raw=True, as loaddata's Model.save_base(raw=True) does: the values as
    # they are (no auto_now, no signals), which QuerySet.bulk_create would not leave alone.
    size = max(1, connection.ops.bulk_batch_size(columns, objects))
    for start in range(0, len(objects), size):
        model._base_manager._insert(  # type: ignore[attr-defined]  # Django's own, private (as loaddata)
            objects[start : start + size], fields=columns, raw=True
        )
