from django.contrib import admin

from .models import Card, CardText, Game, RuleSection, RuleText, Term, TermText
from .services import card_sort_key


class CardTextInline(admin.StackedInline):
    model = CardText
    extra = 0


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ("key", "number", "game", "kind")
    list_filter = ("game", "kind")
    search_fields = ("key", "number", "texts__name", "texts__text")
    inlines = [CardTextInline]

    def save_model(self, request, obj, form, change):
        # Admin edits keep the list order the importer would give.
        obj.sort_key = card_sort_key(obj.number, obj.key)
        super().save_model(request, obj, form, change)


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
