from django.contrib import admin

from .models import CardChange, ChangeSet, GameRole


@admin.register(GameRole)
class GameRoleAdmin(admin.ModelAdmin):
    """Editors, trusted contributors and blocked users, per game: granted here by staff."""

    list_display = ("user", "game", "role", "granted_by", "created_at")
    list_filter = ("game", "role")
    search_fields = ("user__username", "note")
    autocomplete_fields = ("user",)
    readonly_fields = ("granted_by", "created_at")

    def save_model(self, request, obj, form, change):
        if not change:
            obj.granted_by = request.user
        super().save_model(request, obj, form, change)


class CardChangeInline(admin.TabularInline):
    model = CardChange
    extra = 0
    can_delete = False
    readonly_fields = ("position", "key", "base", "proposed")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(ChangeSet)
class ChangeSetAdmin(admin.ModelAdmin):
    """Read only: change sets are reviewed on the site (accept, reject), where the rules are checked."""

    list_display = ("pk", "game", "author", "status", "source_kind", "created_at", "decided_by")
    list_filter = ("game", "status", "source_kind")
    search_fields = ("author__username", "changes__key", "comment")
    inlines = [CardChangeInline]

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False
