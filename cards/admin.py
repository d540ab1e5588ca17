from django.contrib import admin

from .models import Card, CardText, Game, RuleSection, RuleText, Term, TermText
from .services import reindex_card


class CardTextInline(admin.StackedInline):
    model = CardText
    extra = 0


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ("key", "number", "game", "kind")
    list_filter = ("game", "kind")
    search_fields = ("key", "number", "texts__name", "texts__text")
    inlines = [CardTextInline]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # After the texts are saved, so the search index sees the edit.
        reindex_card(form.instance)


class TermTextInline(admin.TabularInline):
    model = TermText
    extra = 0


@admin.register(Term)
class TermAdmin(admin.ModelAdmin):
    list_display = ("key", "game", "category")
    list_filter = ("game", "category")
    inlines = [TermTextInline]


class RuleTextInline(admin.StackedInline):
    model = RuleText
    extra = 0


@admin.register(RuleSection)
class RuleSectionAdmin(admin.ModelAdmin):
    list_display = ("game", "key", "order")
    list_filter = ("game",)
    inlines = [RuleTextInline]


admin.site.register(Game)
