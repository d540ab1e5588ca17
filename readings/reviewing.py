"""The review of one photo's card, for the pages and the API alike: the card the photo shows (the one matched, or a
new card), its values now, what was read for each value, and the form that holds them (``PhotoReviewForm``) and
turns the contributor's choices into the values submitted (``readings.submissions``)."""

from __future__ import annotations

from typing import Any

from cards.models import Card
from cards.services import card_state, state_digest

from . import presentation, submissions
from .forms import PhotoReviewForm
from .models import PhotoReading, ReadingBatch, ReadingStatus


def stored_values(current: dict[str, Any], language: str) -> dict[str, Any]:
    """The matched card's values now, by the review form's field, as its boxes hold them."""
    stored: dict[str, Any] = {"number": current.get("number") or "", "kind": current.get("kind") or ""}
    for code, texts in (current.get("texts") or {}).items():
        suffix = "" if code == language else f"_{code}"
        stored.update({f"name{suffix}": texts.get("name", ""), f"text{suffix}": texts.get("text", "")})
    for name, value in (current.get("fields") or {}).items():
        stored[f"field_{name}"] = ("true" if value else "false") if isinstance(value, bool) else value
    return stored


def initial_values(
    photo: PhotoReading, current: dict[str, Any] | None, card: Card | None, language: str
) -> dict[str, Any]:
    """The form's values: a matched card's values as they are stored (a reading is only offered beside them); a
    new card's, what was read (the contributor confirms or corrects it)."""
    initial: dict[str, Any] = {"seen": state_digest(current) if current is not None else ""}
    if card is not None and current is not None:
        initial["card"] = card.key
        initial.update(stored_values(current, language))
        return initial
    initial["image"] = True
    for name, value in presentation.read_values(photo).items():
        initial[name] = ("true" if value else "false") if isinstance(value, bool) else value
    if photo.proposals:
        initial["key"] = initial.get("number") or initial.get("name") or ""
    return initial


def review_form(
    photo: PhotoReading, data: Any, *, prefix: str | None = None
) -> tuple[Card | None, dict[str, Any] | None, dict[str, presentation.Suggestion], PhotoReviewForm]:
    """The card a photo shows (None: a new card), its values now, what was read for each value, and the form."""
    definition = photo.batch.game.definition
    matched = submissions.matched_card(photo)
    card = Card.objects.prefetch_related("texts").filter(pk=matched.pk).first() if matched is not None else None
    current = card_state(card) if card is not None else None
    suggestions = presentation.suggestions(photo)
    form = PhotoReviewForm(
        definition,
        data,
        prefix=prefix,
        new_card=card is None,
        initial=initial_values(photo, current, card, definition.original_language),
        stored=stored_values(current, definition.original_language) if current is not None else None,
        readings=presentation.read_values(photo),
        sure={name for name, suggestion in suggestions.items() if suggestion.sure},
    )
    return card, current, suggestions, form


def value_name(form: PhotoReviewForm, name: str) -> str:
    """A review form's field as the API names the value (``field_at`` → ``fields.at``, ``name_zh-hant`` →
    ``translations.zh-hant.name``)."""
    for form_name, code, part in form.translation_names:
        if form_name == name:
            return f"translations.{code}.{part}"
    return f"fields.{name.removeprefix('field_')}" if name.startswith("field_") else name


def left_to_review(batch: ReadingBatch) -> list[dict[str, Any]]:
    """What the batch's review page shows, for the API: each photo read and not yet submitted, the card it shows
    (None: a new card), the values read (a new card's every value; a matched card's, where the reading differs from
    the stored value), each with how sure, whether it is left to decide and what was restored, and the count of
    values to decide (as the page counts them)."""
    left: list[dict[str, Any]] = []
    for photo in batch.photos.all():
        if photo.status != ReadingStatus.DONE or photo.change_set_id is not None:
            continue
        card, _current, suggestions, form = review_form(photo, None)
        names = list(form.choice_names) if card is not None else [n for n in form.box_names() if n in form.readings]
        values = []
        for name in names:
            suggestion = suggestions.get(name)
            value: dict[str, Any] = {
                "value": value_name(form, name),
                "read": form.readings[name],
                "confidence": suggestion.confidence if suggestion is not None else 0,
                "sure": name in form.sure,
                "to_decide": name not in form.sure,
                "corrections": [
                    {"read": item.read, "restored": item.restored, "said": item.said()}
                    for item in (suggestion.corrections if suggestion is not None else ())
                ],
            }
            if card is not None:
                stored = form.stored.get(name)
                value["stored"] = None if stored in ("", None, []) else stored  # unknown
            values.append(value)
        left.append(
            {
                "photo": photo.index,
                "card": card.key if card is not None else None,
                "seen": form.initial.get("seen", ""),
                "actions": sum(value["to_decide"] for value in values),
                "values": values,
            }
        )
    return left
