"""The public deck space in the admin: read-only. Staff act through the moderation queue (/moderation/), whose
actions go through ``community.services.moderate`` and are logged; the admin is no second way to change them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from .models import Block, Comment, ModerationAction, Publication, Report


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Publication)
class PublicationAdmin(ReadOnly):
    list_display = ("title", "game", "author", "published_at", "is_current", "hidden", "like_count", "copy_count")
    list_filter = ("game", "hidden", "is_current")
    search_fields = ("title", "author__username")


@admin.register(Comment)
class CommentAdmin(ReadOnly):
    list_display = ("__str__", "author", "publication", "created_at", "hidden")
    list_filter = ("hidden",)


@admin.register(Report)
class ReportAdmin(ReadOnly):
    list_display = ("reason", "reporter", "publication", "comment", "created_at", "resolved_at")


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnly):
    list_display = ("created_at", "moderator", "action", "publication", "comment", "user", "reason")


@admin.register(Block)
class BlockAdmin(ReadOnly):
    list_display = ("user", "moderator", "reason", "created_at")
