from django.apps import AppConfig
from django.core.signals import request_finished
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class CardsiteConfig(AppConfig):
    """The project itself: database set-up, middleware, error pages, health and operations commands."""

    name = "cardsite"
    verbose_name = _("Site")

    def ready(self) -> None:
        from . import checks, db, pagecache, storage  # noqa: F401 - checks registers the start-up checks

        connection_created.connect(db.on_connection_created, dispatch_uid="cardsite.db.on_connection_created")
        # Pages kept for signed-in readers are rendered afresh after any write (cardsite.pagecache).
        connection_created.connect(pagecache.on_connection_created, dispatch_uid="cardsite.pagecache.writes")
        post_migrate.connect(_after_migrate, dispatch_uid="cardsite.apps.after_migrate")
        # A file written for a row the request then rolled back is removed (cardsite.storage).
        request_finished.connect(storage.on_request_finished, dispatch_uid="cardsite.storage.on_request_finished")

        from django_tasks.signals import task_finished, task_started

        from . import taskqueue

        # The database queue's leases (cardsite.taskqueue): which RUNNING rows a live worker holds.
        task_started.connect(taskqueue.on_task_started, dispatch_uid="cardsite.taskqueue.started")
        task_finished.connect(taskqueue.on_task_finished, dispatch_uid="cardsite.taskqueue.finished")

        from django.utils.autoreload import autoreload_started

        # Pages inline site.css as read at start-up (cardsite.stylesheet): runserver restarts when it changes.
        autoreload_started.connect(_watch_stylesheet, dispatch_uid="cardsite.apps.watch_stylesheet")


def _watch_stylesheet(sender, **kwargs) -> None:
    from .stylesheet import SITE_CSS

    sender.watch_dir(SITE_CSS.parent, SITE_CSS.name)


def _after_migrate(sender, using: str = "default", **kwargs) -> None:
    from . import db

    db.use_write_ahead_log(using)
