from django.contrib import admin

from .models import EmailPreference, Notification


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("recipient", "kind", "verb", "actor", "created_at", "read_at")
    list_filter = ("kind",)
    raw_id_fields = ("recipient", "actor")


@admin.register(EmailPreference)
class EmailPreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "email")
    raw_id_fields = ("user",)
