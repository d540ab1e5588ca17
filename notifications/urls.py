from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("read/", views.mark_read, name="mark_read"),
    path("settings/", views.email_settings, name="settings"),
]
