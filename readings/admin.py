from django.contrib import admin

from .models import PhotoReading, ReadingBatch


class PhotoReadingInline(admin.TabularInline):
    model = PhotoReading
    extra = 0
    can_delete = False
    fields = ("index", "image", "status", "progress", "card_key", "matched_by", "error_code", "error", "attempts")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(ReadingBatch)
class ReadingBatchAdmin(admin.ModelAdmin):
    """Batches of card photos read on the task workers: for the staff, to see why a reading failed."""

    list_display = ("id", "user", "game", "status", "created_at", "finished_at")
    list_filter = ("game", "status")
    search_fields = ("user__username",)
    readonly_fields = ("user", "game", "status", "language", "created_at", "finished_at")
    inlines = [PhotoReadingInline]
