"""Files that follow the database transaction: a file written for a row that is then rolled back is removed.

Every write to the media storage goes through ``store_file``. The file is written at once (the rest of the
transaction, or a task run in it, may read it), and the write is remembered until its transaction ends:

- committed: Django runs the transaction's ``on_commit`` callbacks, and the file is kept;
- rolled back (the row refused by a read-only database, a batch refused for its second photo, a savepoint
  rolled back): Django drops those callbacks without running them, and ``remove_rolled_back`` deletes the
  file. It runs when ``store_file``'s caller is done (``following_transaction``), and at the end of every
  request, which is after any transaction the request opened around the write has ended.

Django has no rollback hook, so a rollback is recognised by its effect: the write's ``on_commit`` callback
is neither run nor waiting any more. Whatever escapes this (a process killed between the write and the
commit) is found by ``manage.py orphan_files``, which lists and removes the files that no row names.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.apps import apps
from django.core.files.base import File
from django.core.files.storage import Storage, default_storage
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import FileField
from django.utils import timezone

logger = logging.getLogger("cardsite")

_local = threading.local()  # database connections are per thread, and so are the writes that follow them


@dataclass(eq=False)
class _Write:
    name: str
    storage: Storage
    using: str
    committed: bool = field(default=False)

    def keep(self) -> None:
        self.committed = True


def _writes() -> list[_Write]:
    if not hasattr(_local, "writes"):
        _local.writes = []
    return _local.writes


def store_file(name: str, content: File, *, storage: Storage | None = None, using: str = DEFAULT_DB_ALIAS) -> str:
    """Write ``content`` to the storage (``default_storage`` unless said) under ``name`` or a free name like it;
    the name it is stored under. Inside a transaction of ``using``, the file is removed if that transaction
    (or the savepoint it was written in) rolls back. Outside one, there is no write it could follow."""
    storage = storage or default_storage
    saved = storage.save(name, content)
    if connections[using].in_atomic_block:
        write = _Write(saved, storage, using)
        transaction.on_commit(write.keep, using=using)
        _writes().append(write)
    return saved


def _waiting(write: _Write) -> bool:
    """Whether the write's transaction is still open: its on_commit callback is still queued."""
    # Django keeps (savepoint ids, callback, robust) since 4.2; the stubs still say a pair.
    queued: list[Any] = connections[write.using].run_on_commit
    return any(func == write.keep for _ids, func, _robust in queued)


def remove_rolled_back() -> list[str]:
    """Delete the files written by ``store_file`` whose transaction rolled back; the names deleted. Writes of a
    transaction still open are left to be looked at again later."""
    removed, open_writes = [], []
    for write in _writes():
        if write.committed:
            continue
        if _waiting(write):
            open_writes.append(write)
            continue
        try:
            write.storage.delete(write.name)
        except Exception as error:  # a storage backend's own errors: orphan_files finds the file later
            logger.warning(
                "a file of a rolled-back write could not be removed", extra={"file": write.name, "error": str(error)}
            )
            continue
        removed.append(write.name)
    _local.writes = open_writes
    if removed:
        logger.info("files of a rolled-back write removed", extra={"files": removed})
    return removed


@contextmanager
def following_transaction() -> Iterator[None]:
    """Around code that writes files in a transaction of its own: once it is left, its files whose transaction
    rolled back (an error raised through it) are removed at once."""
    try:
        yield
    finally:
        remove_rolled_back()


def on_request_finished(sender: Any, **kwargs: Any) -> None:
    """At the end of a request: remove the files of transactions it rolled back."""
    if _writes():
        remove_rolled_back()


# --- files no row names ------------------------------------------------------------------------------


def _stored_names() -> set[str]:
    """Every file name a row names, in every file field of every model (an image and its thumbnail, …)."""
    names: set[str] = set()
    for model in apps.get_models():
        for model_field in model._meta.get_fields():
            if isinstance(model_field, FileField) and not model_field.many_to_many:
                column = model_field.name
                rows = model._base_manager.exclude(**{column: ""}).values_list(column, flat=True)
                names.update(name for name in rows.iterator() if name)
    return names


def _walk(storage: Storage, folder: str = "") -> Iterator[str]:
    directories, files = storage.listdir(folder)
    for name in files:
        yield f"{folder}/{name}" if folder else name
    for directory in directories:
        yield from _walk(storage, f"{folder}/{directory}" if folder else directory)


def orphan_files(*, min_age: timedelta = timedelta(hours=1), storage: Storage | None = None) -> list[str]:
    """The files of the media storage that no row names, sorted; those changed in the last ``min_age`` are left
    out (an upload being written now is named by its row once its transaction commits)."""
    storage = storage or default_storage
    try:
        found = list(_walk(storage))
    except FileNotFoundError:  # no upload yet: the storage's folder does not exist
        return []
    named = _stored_names()
    newest = timezone.now() - min_age
    orphans = []
    for name in found:
        if name in named:
            continue
        try:
            if min_age and storage.get_modified_time(name) > newest:
                continue
        except (NotImplementedError, OSError):  # a backend without times: the file is taken as old
            pass
        orphans.append(name)
    return sorted(orphans)
