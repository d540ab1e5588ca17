import reversion
from django import forms
from django.contrib import admin
from reversion.admin import VersionAdmin

from .importing import MAX_LENGTHS
from .models import (
    Card,
    CardText,
    Game,
    RevisionSource,
    RuleSection,
    RuleText,
    SeedConflict,
    Term,
    TermText,
    TranslationTrack,
)
from .presentation import problem_text
from .services import reindex_card


class CardAdminForm(forms.ModelForm):
    """The admin's card form checks kind, number and fields with the importer's rules
    (``GameDefinition.check_values``): a value its game does not declare is refused, naming the field."""

    class Meta:
        model = Card
        fields = ["game", "key", "number", "kind", "fields", "source"]

    def clean(self):
        data = super().clean() or {}  # Django answers the cleaned data; the stubs allow None
        game = data.get("game")
        if game is None:
            return data
        definition = game.definition
        number = data.get("number") or None
        if number is not None:
            problem = definition.check_number(number, MAX_LENGTHS["number"])
            if problem:
                self.add_error("number", problem_text(problem))
        checked = definition.check_values(data.get("kind") or None, data.get("fields") or {})
        for problem in checked.problems:
            message = problem_text(problem)
            if problem.where == "kind":
                self.add_error("kind", message)
            else:
                name = problem.where.removeprefix("fields.").removeprefix("fields")
                self.add_error("fields", f"{name}: {message}" if name else message)
        if not checked.problems:
            data["kind"], data["fields"] = checked.kind, checked.fields
        return data


class CardTextInline(admin.StackedInline):
    model = CardText
    extra = 0


@admin.register(Card)
class CardAdmin(VersionAdmin):
    """Every save is a revision of the card (its history, with revert; a deleted card can be recovered)."""

    form = CardAdminForm
    list_display = ("key", "number", "game", "kind")
    list_filter = ("game", "kind")
    search_fields = ("key", "number", "texts__name", "texts__text")
    inlines = [CardTextInline]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        reversion.add_meta(RevisionSource, kind=RevisionSource.Kind.ADMIN, detail=request.user.get_username()[:300])

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # After the texts are saved, so the search index sees the edit.
        reindex_card(form.instance)


@admin.register(SeedConflict)
class SeedConflictAdmin(admin.ModelAdmin):
    """Seed files that changed a card someone had changed since: the card was kept; an editor decides."""

    list_display = ("card", "found_at")
    readonly_fields = ("card", "base", "seed", "found_at")


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


@admin.register(TranslationTrack)
class TranslationTrackAdmin(admin.ModelAdmin):
    """An editor names, credits and reviews a translation track (draft → reviewed) here."""

    list_display = ("name", "game", "language", "status", "main", "credits")
    list_filter = ("game", "language", "status")
    search_fields = ("name", "credits")
    readonly_fields = ("main",)


admin.site.register(Game)
