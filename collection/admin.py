"""Staff see and mend collections with the rules every other path uses (``collection.rules``)."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from .models import OwnedCard
from .rules import count_problem


class OwnedCardForm(forms.ModelForm):
    class Meta:
        model = OwnedCard
        fields = ["owner", "card", "count"]

    def clean_count(self) -> int:
        count = self.cleaned_data["count"]
        problem = count_problem(count)
        if problem is not None:
            raise forms.ValidationError(str(problem))
        return count


@admin.register(OwnedCard)
class OwnedCardAdmin(admin.ModelAdmin):
    form = OwnedCardForm
    list_display = ["owner", "card", "count", "updated_at"]
    list_filter = ["card__game"]
    search_fields = ["owner__username", "card__key"]
    raw_id_fields = ["owner", "card"]
